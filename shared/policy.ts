import { MAX_PUT_BYTES } from './storage/object-storage';

/*
 * Every limit, lifetime and retention of the service, defined once. Schemas, services, routes and
 * workers import them from here; the README states the same figures. The largest object is the
 * storage port's, which both adapters enforce.
 */

const MIB = 1024 * 1024;
const MINUTE_SECONDS = 60;
const HOUR_SECONDS = 60 * MINUTE_SECONDS;
const DAY_SECONDS = 24 * HOUR_SECONDS;

// Uploads

/** Largest file the small (multipart) upload takes: 10 MB. Larger files use the large-upload flow. */
export const SMALL_UPLOAD_MAX_BYTES = 10 * MIB;
/** Room for the form fields and multipart framing around a small upload of the largest size. */
export const MULTIPART_FORM_OVERHEAD_BYTES = MIB;
/** Largest large upload: the largest object one put stores (5 GiB, what S3 takes in one request). */
export const LARGE_UPLOAD_MAX_BYTES = MAX_PUT_BYTES;
/** Lifetime of a large-upload session and its PUT URL unless UPLOAD_URL_TTL_SECONDS says otherwise. */
export const UPLOAD_URL_DEFAULT_TTL_SECONDS = HOUR_SECONDS;
/** The longest a pre-signed URL may live: S3 signatures (SigV4) are valid for a week at most. */
export const PRESIGNED_URL_MAX_SECONDS = 7 * DAY_SECONDS;

// Downloads and share links

/** Lifetime of a download URL answered by GET /v1/downloads/url. */
export const DOWNLOAD_URL_LIFETIME_SECONDS = 30 * MINUTE_SECONDS;
/** A share link redirects to a URL this short-lived (and never past the link's own expiry). */
export const SHARE_REDIRECT_LIFETIME_SECONDS = 5 * MINUTE_SECONDS;
export const SHARE_LINK_DEFAULT_MINUTES = 30;
export const SHARE_LINK_MAX_MINUTES = 24 * 60;
/** Expired share links are kept this long (answering 410) before they are purged (then 404). */
export const SHARE_LINK_RETENTION_MS = 7 * DAY_SECONDS * 1000;

// Caches

/**
 * Entries of the gateway's in-process caches (keys, customers, catalog records, share links) live at
 * most this long: a second bound behind the invalidations, which normally drop them at once.
 */
export const IN_PROCESS_CACHE_TTL_MS = 30_000;

// Listings

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
/** Keeps the row offset well inside what both store adapters accept. */
export const PAGE_MAX = 1_000_000;
