/*
 * Every limit, lifetime and retention of the service, defined once. Schemas, services, routes and
 * workers import them from here; the README and docs/ state the same figures.
 */

import { DAY_SECONDS, HOUR_SECONDS, MINUTE_SECONDS } from './durations';

const MIB = 1024 * 1024;

// Uploads

/** Largest file the small (multipart) upload takes: 10 MB. Larger files use the large-upload flow. */
export const SMALL_UPLOAD_MAX_BYTES = 10 * MIB;
/**
 * A small upload's staged file is swept once this old: its request has ended by then (cleaning up on
 * failure itself), so only a process that died mid-upload leaves one behind.
 */
export const SMALL_UPLOAD_STAGING_RETENTION_MS = DAY_SECONDS * 1000;
/** Room for the form fields and multipart framing around a small upload of the largest size. */
export const MULTIPART_FORM_OVERHEAD_BYTES = MIB;
/**
 * The most bytes one object takes: a put, a PUT to an upload URL, a move, and so the largest large
 * upload. 5 GiB, what S3 stores (or copies) in a single request; both storage adapters enforce it.
 */
export const MAX_PUT_BYTES = 5 * 1024 ** 3;
/** The largest object a multipart upload assembles: 5 TiB, S3's largest object. */
export const MULTIPART_UPLOAD_MAX_BYTES = 5 * 1024 ** 4;
/** The most parts one multipart upload has, numbered from 1: S3's limit. */
export const MULTIPART_MAX_PARTS = 10_000;
/**
 * The smallest part size the service chooses (shared/uploads/multipart-layout.ts), above the 5 MiB S3
 * requires of every part but the last; larger files get larger parts. A part holds at most MAX_PUT_BYTES.
 */
export const MULTIPART_MIN_PART_BYTES = 8 * MIB;
/**
 * The largest application logo (the portal shows it beside the name): 512 KiB. A logo upload is read
 * into memory to check its type, so the read stops at this many bytes plus one.
 */
export const LOGO_MAX_BYTES = 512 * 1024;
/** The longest VENDOR_NAME: a name for a page's heading. */
export const VENDOR_NAME_MAX_LENGTH = 100;
/** The image types a logo may have: raster formats browsers show in an <img> (no SVG: it can carry script). */
export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** Lifetime of a large-upload session and its PUT URL unless UPLOAD_URL_TTL_SECONDS says otherwise. */
export const UPLOAD_URL_DEFAULT_TTL_SECONDS = HOUR_SECONDS;
/** Part URLs one request may ask for. */
export const MULTIPART_PART_URLS_PER_REQUEST = 100;
/** Lifetime of a multipart upload session unless MULTIPART_UPLOAD_TTL_SECONDS says otherwise; its part URLs never outlive it. */
export const MULTIPART_UPLOAD_DEFAULT_TTL_SECONDS = DAY_SECONDS;
/** The longest a multipart upload session may be configured to last. */
export const MULTIPART_UPLOAD_MAX_TTL_SECONDS = 30 * DAY_SECONDS;
/** The longest a pre-signed URL may live: S3 signatures (SigV4) are valid for a week at most. */
export const PRESIGNED_URL_MAX_SECONDS = 7 * DAY_SECONDS;

// Downloads and share links

/** Lifetime of a download URL answered by GET /v1/downloads/url. */
export const DOWNLOAD_URL_LIFETIME_SECONDS = 30 * MINUTE_SECONDS;
/**
 * Downloads of one file by one customer (with its own key) count once in this window from the one
 * counted: a client resuming or retrying a download asks for a URL again, and that is not a new download.
 */
export const DOWNLOAD_REPEAT_WINDOW_MS = 10 * MINUTE_SECONDS * 1000;
/** The (customer, file) pairs each gateway process remembers for that rule; past this the oldest is forgotten (and counts again). */
export const DOWNLOAD_REPEATS_TRACKED_MAX = 100_000;
/** The longest licence text an application takes, in characters (Markdown; a long EULA is some 60,000). */
export const LICENCE_TEXT_MAX_LENGTH = 100_000;
/** The highest licence revision: revisions count up from 1. */
export const LICENCE_REVISION_MAX = 1_000_000;
/** The longest support link an application's branding takes. */
export const SUPPORT_URL_MAX_LENGTH = 2_000;
/** A latest link (`/v1/downloads/latest/...`) redirects to a URL this short-lived: it is followed at once. */
export const LATEST_LINK_REDIRECT_LIFETIME_SECONDS = 5 * MINUTE_SECONDS;
/** The longest file type a latest link names (an extension: `dmg`, `AppImage`, `tar.gz`). */
export const FILE_TYPE_MAX_LENGTH = 16;
/** A share link redirects to a URL this short-lived (and never past the link's own expiry). */
export const SHARE_REDIRECT_LIFETIME_SECONDS = 5 * MINUTE_SECONDS;
export const SHARE_LINK_DEFAULT_MINUTES = 30;
export const SHARE_LINK_MAX_MINUTES = 24 * 60;
/** Expired share links are kept this long (answering 410) before they are purged (then 404). */
export const SHARE_LINK_RETENTION_MS = 7 * DAY_SECONDS * 1000;
/**
 * The most byte ranges one download request may ask for (a `multipart/byteranges` answer). electron-updater's
 * differential download asks for up to 1,000 per request; a request for more (or for ranges that
 * overlap or are out of order, which no downloader needs) is answered with the whole file, as RFC 9110
 * lets a server ignore Range, so no set of tiny or repeated ranges costs more than the file itself.
 * The request's head limit (REQUEST_HEAD_MAX_BYTES) also bounds the field: about 800 ranges of a file
 * of a few hundred MB fit in 16 KiB.
 */
export const MAX_BYTE_RANGES = 1_000;
/**
 * A GET of an update feed's file link with one byte range of at most this many bytes is answered
 * with those bytes by the gateway instead of a redirect: electron-updater's single-range
 * differential download sends every later range to the URL the first was redirected to, with the
 * app's Authorization header, which S3 refuses beside a pre-signed URL's signature. Larger ranges
 * (a resumed whole download) are redirected, so the gateway never relays a whole large file.
 */
export const FEED_RANGE_RELAY_MAX_BYTES = 64 * MIB;
/** The most uses a capped share link may allow (`maxDownloads`); a link without a cap is not counted. */
export const SHARE_LINK_MAX_DOWNLOADS = 100_000;
/** The most share links one listing of a customer's links returns (newest first; expired ones go at the purge). */
export const SHARE_LINK_LIST_MAX = 100;

// Rate limits

export interface RateLimit {
  requests: number;
  windowSeconds: number;
}

const perMinute = (requests: number): RateLimit => ({ requests, windowSeconds: MINUTE_SECONDS });

/**
 * Requests per window of each rate-limit policy unless RATE_LIMITS says otherwise: per admin key; per
 * customer key, by the customer's tier (`customer` for a tier without a limit of its own); per
 * share-link token; per client address using share links. Windows are fixed and shared by every gateway.
 */
export const RATE_LIMIT_DEFAULTS: Readonly<Record<string, RateLimit>> = Object.freeze({
  admin: perMinute(6_000),
  customer: perMinute(600),
  free: perMinute(600),
  standard: perMinute(1_200),
  premium: perMinute(3_000),
  enterprise: perMinute(6_000),
  'share-link': perMinute(600),
  'share-client': perMinute(1_200),
});
/** The longest window and the most requests a policy may be configured with. */
export const RATE_LIMIT_MAX_WINDOW_SECONDS = DAY_SECONDS;
export const RATE_LIMIT_MAX_REQUESTS = 1_000_000_000;

// Requests

/** The request line and headers of a request are at most 16 KiB (Node's default): beyond, 431. */
export const REQUEST_HEAD_MAX_BYTES = 16 * 1024;
/**
 * Node's parser takes heads up to this size, so that the gateway refuses those above
 * REQUEST_HEAD_MAX_BYTES itself, knowing their method (a HEAD gets no body); only larger ones are
 * refused by the parser, before the method is known.
 */
export const REQUEST_HEAD_PARSER_MAX_BYTES = 32 * 1024;

// Request bodies

/** Largest JSON body any endpoint takes (1 MiB); uploads stream their bodies and are not bound by it. */
export const JSON_BODY_MAX_BYTES = MIB;

// Idempotency keys

/** The first response to a request with an Idempotency-Key is replayed to its repeats for this long. */
export const IDEMPOTENCY_RETENTION_SECONDS = DAY_SECONDS;
/**
 * How long the placement or the release of a file's content-addressed object holds that object's lock:
 * longer than the slowest of them (a server-side copy of MAX_PUT_BYTES), so no deletion runs beside a
 * placement; a process that dies holding it frees it after this.
 */
export const FILE_OBJECT_LOCK_SECONDS = 10 * MINUTE_SECONDS;
/** How long a placement or a release waits for an object's lock before giving up (503, or the job retried). */
export const FILE_OBJECT_LOCK_WAIT_MS = 30_000;

/**
 * How long a first request holds its key while it runs: longer than any request that takes the key
 * runs, so a repeat never runs beside it. A gateway that dies mid-request frees the key after this.
 */
export const IDEMPOTENCY_CLAIM_SECONDS = 5 * MINUTE_SECONDS;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

// Caches

/**
 * Entries of the gateway's in-process caches (keys, customers, catalog records, share links) live at
 * most this long: a second bound behind the invalidations, which normally drop them at once.
 */
export const IN_PROCESS_CACHE_TTL_MS = 30_000;

// Keys

/** A key's lastUsedAt is kept to the minute: at most one store write per key and minute from each process. */
export const KEY_USE_RESOLUTION_MS = 60_000;
/** The longest a scoped admin key may be issued for (expiresAt at most this far ahead). */
export const ADMIN_KEY_MAX_LIFETIME_DAYS = 366 * 5;

// Access tokens

/** The largest maxDownloads a token takes (per period). */
export const ACCESS_TOKEN_MAX_DOWNLOADS = 1_000_000_000;
/**
 * The largest maxClients a token takes (distinct client addresses per period): each is kept as a keyed
 * hash for the period, in one MongoDB document per token and period.
 */
export const ACCESS_TOKEN_MAX_CLIENTS = 10_000;
/** The largest maxBytes a token takes (per period): 1 PiB. */
export const ACCESS_TOKEN_MAX_BYTES = 1024 ** 5;
/** How often a token's counts may start again (UTC calendar periods; a week starts on Monday). */
export const ACCESS_TOKEN_RESET_PERIODS = ['day', 'week', 'month'] as const;
/** Active tokens one customer may hold. */
export const ACCESS_TOKENS_PER_CUSTOMER_MAX = 100;

// Listings

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
/** Keeps the row offset well inside what both store adapters accept. */
export const PAGE_MAX = 1_000_000;
/** The longest customer search (a prefix of an id or a name, both far shorter). */
export const CUSTOMER_SEARCH_MAX_LENGTH = 100;

// Webhooks

/** A delivery counts only when the receiver answers 2xx within this long; redirects are not followed. */
export const WEBHOOK_DELIVERY_TIMEOUT_MS = 10_000;
/** The most of a receiver's response body that is read, and kept in the delivery log. */
export const WEBHOOK_RESPONSE_READ_MAX_BYTES = 1_024;
/**
 * Attempts per delivery: the first, then retries after about base x 1, 2, 4 ... 4096 (exponential,
 * each shortened by up to WEBHOOK_RETRY_JITTER at random). With the default base that is 18 to 23
 * hours in all.
 */
export const WEBHOOK_DELIVERY_ATTEMPTS = 14;
/** First retry delay unless WEBHOOK_RETRY_BASE_MS says otherwise; each later one doubles. */
export const WEBHOOK_RETRY_BASE_DEFAULT_MS = 10_000;
/** Up to this fraction of each retry delay is drawn at random, so receivers back from an outage are not hit in step. */
export const WEBHOOK_RETRY_JITTER = 0.2;
/** After a rotation the previous signing secret still signs (beside the new one) this long. */
export const WEBHOOK_SECRET_OVERLAP_MS = DAY_SECONDS * 1000;
/** An endpoint whose deliveries have all failed for this long is disabled. */
export const WEBHOOK_DISABLE_AFTER_FAILING_MS = 5 * DAY_SECONDS * 1000;
/** Delivery log entries are purged this long after their event. */
export const WEBHOOK_DELIVERY_RETENTION_MS = 30 * DAY_SECONDS * 1000;
/** Endpoints a deployment may register: each event fans out to every subscribed one. */
export const WEBHOOK_ENDPOINTS_MAX = 50;
export const WEBHOOK_URL_MAX_LENGTH = 2_048;
/**
 * The webhook outbox's relay runs this often and takes, WEBHOOK_OUTBOX_RELAY_BATCH at a time, the
 * entries written more than WEBHOOK_OUTBOX_RELAY_AFTER_MS ago (younger ones are their writer's to
 * queue: it does so as soon as its change is written). A pending entry whose change is still not in
 * the store WEBHOOK_OUTBOX_ABANDON_AFTER_MS after it was written announces a change that never
 * happened (its writer failed or died before writing it) and is dropped.
 */
export const WEBHOOK_OUTBOX_RELAY_INTERVAL_MS = 5_000;
export const WEBHOOK_OUTBOX_RELAY_AFTER_MS = 5_000;
export const WEBHOOK_OUTBOX_RELAY_BATCH = 100;
export const WEBHOOK_OUTBOX_ABANDON_AFTER_MS = 10 * 60_000;

// Background jobs

/** Attempts of a job that names none; retries back off exponentially from JOB_RETRY_BASE_MS. */
export const JOB_DEFAULT_ATTEMPTS = 5;
export const JOB_RETRY_BASE_MS = 1_000;
/** Finished jobs kept in Redis (for inspection) at most this long and this many per queue. */
export const JOB_COMPLETED_RETENTION = { ageSeconds: HOUR_SECONDS, count: 1_000 } as const;
/** Failed jobs are kept this long, for an operator to read why. */
export const JOB_FAILED_RETENTION_SECONDS = 7 * DAY_SECONDS;
/** Verifying an upload retries storage errors more often than the default: its last attempt fails the upload for good. */
export const VERIFY_UPLOAD_ATTEMPTS = 8;
/** Expired upload sessions and their staged bytes are swept this often. */
export const UPLOAD_SESSION_SWEEP_INTERVAL_MS = 60_000;
/** Expired share links past their retention are purged this often. */
export const SHARE_LINK_PURGE_INTERVAL_MS = HOUR_SECONDS * 1000;
/** Download events are folded into daily statistics this often (the lag of statistics behind downloads). */
export const ROLLUP_INTERVAL_MS = 1_000;

// Update feeds

/** Items of a Sparkle appcast, newest first: the client installs the newest it can run, and older ones only serve a minimumSystemVersion. */
export const SPARKLE_APPCAST_MAX_ITEMS = 10;

/**
 * Update feed answers kept in process (gateway/updates/engine/feed-answers.ts), each one document's
 * bytes for an offered selection and a request's key; past this the memory starts over.
 */
export const FEED_ANSWERS_MAX_ENTRIES = 4_000;

// The console's uploads from the browser

/** Parts a browser sends at once: enough to fill a connection, few enough not to starve the page's other requests. */
export const BROWSER_UPLOAD_PARALLEL_PARTS = 4;
/** Files of a dropped build folder sent at once (each with its own parallel parts). */
export const BUILD_PUBLISH_PARALLEL_FILES = 2;
/** Tries of one part before the upload pauses and waits for the connection (or the person) to resume it. */
export const BROWSER_UPLOAD_PART_ATTEMPTS = 6;
/** Backoff between a part's tries: doubles from the first delay up to the last. */
export const BROWSER_UPLOAD_RETRY_FIRST_DELAY_MS = 1_000;
export const BROWSER_UPLOAD_RETRY_MAX_DELAY_MS = 30_000;
/** Part URLs asked for at once: fewer than the service allows, so URLs are not left to expire unused. */
export const BROWSER_UPLOAD_PART_URLS_PER_REQUEST = 16;
/** How often the console asks how the verification of a completed upload is going. */
export const BROWSER_UPLOAD_VERIFY_POLL_MS = 1_000;

// Adoption analytics

/** Raw update-check events are kept this long by default (CHECK_EVENT_RETENTION_DAYS); the adoption counters stay. */
export const CHECK_EVENT_RETENTION_DEFAULT_DAYS = 30;
/** The longest CHECK_EVENT_RETENTION_DAYS: raw checks are bounded, whatever is configured. */
export const CHECK_EVENT_RETENTION_MAX_DAYS = 365;
/** Rolled-up check events past their retention are purged this often, this many per batch. */
export const CHECK_EVENT_PURGE_INTERVAL_MS = HOUR_SECONDS * 1000;
export const CHECK_EVENT_PURGE_BATCH = 5_000;
/**
 * A gateway writes the update checks it answers in groups: each group once it holds this many
 * checks, or this long after its first (no check waits for its write; a process killed outright
 * loses at most this window's checks, a stopping one writes them first). Each write costs a message
 * to the store's write thread and a transaction, and under load each wakes code and data the
 * requests have pushed out of the caches: a second's window measured 4 to 5 % more checks per
 * second than a tenth's (bench/README.md).
 */
export const CHECK_WRITE_GROUP_MAX_ITEMS = 10_000;
export const CHECK_WRITE_GROUP_MAX_DELAY_MS = 1_000;
/**
 * Check events are folded into the adoption counters this often: the figures are per day, and each
 * run has its fixed costs (the job, the claim, the HyperLogLog updates), so seconds of lag cost no
 * one and a run per second cost the checks a few percent (bench/README.md).
 */
export const CHECK_ROLLUP_INTERVAL_MS = 5_000;
// Update funnel and rollout plans

/**
 * An install offered a release counts as stuck once this long has passed without it checking in
 * running that release (UPDATE_ARRIVAL_WINDOW, in hours); the success rate counts only installs
 * offered at least this long ago, and a download counts for an offer within this long after it.
 */
export const UPDATE_ARRIVAL_WINDOW_DEFAULT_HOURS = 72;
export const UPDATE_ARRIVAL_WINDOW_MIN_HOURS = 1;
export const UPDATE_ARRIVAL_WINDOW_MAX_HOURS = 30 * 24;
/** A version's rollout percentage: the share of customers offered it as latest. */
export const MIN_ROLLOUT_PERCENTAGE = 1;
export const MAX_ROLLOUT_PERCENTAGE = 100;
/** A rollout plan's steps: at most this many, each at most this long after the plan starts. */
export const ROLLOUT_PLAN_MAX_STEPS = 10;
export const ROLLOUT_PLAN_MAX_AFTER_HOURS = 365 * 24;
/** Running rollout plans are looked at this often: each gets a job (one per version at a time) that advances or halts it. */
export const ROLLOUT_PLAN_SWEEP_INTERVAL_MS = 5_000;
/** Running plans listed per page of a sweep, and a release's offers (and its downloads) read per page when its health is computed. */
export const ROLLOUT_PLAN_SWEEP_PAGE = 100;
export const RELEASE_HEALTH_PAGE = 1_000;
/** A release's health lists this many of its most reported failure messages. */
export const TOP_FAILURE_MESSAGES = 5;
/** An update report's message: at most this many characters (longer is refused), and an install id at most this many. */
export const UPDATE_REPORT_MESSAGE_MAX_LENGTH = 500;
export const UPDATE_REPORT_INSTALL_ID_MAX_LENGTH = 128;
/**
 * Update reports are kept this long after they were received, then purged (a release's failure
 * reports and messages count only the reports kept), this often and this many per batch.
 */
export const UPDATE_REPORT_RETENTION_MS = 90 * DAY_SECONDS * 1000;
export const UPDATE_REPORT_PURGE_INTERVAL_MS = HOUR_SECONDS * 1000;
export const UPDATE_REPORT_PURGE_BATCH = 5_000;

/** Check events per adoption rollup batch (a full write window), and batches per run (a backlog is worked off across runs). */
export const CHECK_ROLLUP_BATCH = 10_000;
export const CHECK_ROLLUP_MAX_BATCHES_PER_RUN = 100;
/**
 * How long a day's HyperLogLog of installs stays in Redis after its last update: checks of a day
 * still waiting to be rolled up must find it. The counts are kept in the store.
 */
export const INSTALL_SKETCH_TTL_SECONDS = 3 * DAY_SECONDS;
/** Install hashes a gateway remembers within a day, so a repeated check is not hashed again (at most about 25 MiB, every install with its own identity and user agent of the longest lengths kept). */
export const INSTALL_HASH_MEMO_ENTRIES = 20_000;
/** The adoption answer covers at most this many days; the default range ends today and spans 30. */
export const ADOPTION_MAX_DAYS = 366;
export const ADOPTION_DEFAULT_DAYS = 30;
/** Download statistics name at most this many customers, those with most downloads in the period. */
export const STATISTICS_TOP_CUSTOMERS = 10;

// Published releases

/**
 * A soft-deleted application's published bytes are kept at least this many days by default
 * (RELEASE_PURGE_AFTER_DAYS) before an administrator may purge them: until then it can be restored
 * with every release it shipped.
 */
export const RELEASE_PURGE_AFTER_DEFAULT_DAYS = 90;
/** The longest RELEASE_PURGE_AFTER_DAYS (ten years). 0 lets a deleted application be purged at once. */
export const RELEASE_PURGE_AFTER_MAX_DAYS = 3_650;

/** When a soft-deleted application, deleted at `deletedAt`, may have its releases purged, RELEASE_PURGE_AFTER_DAYS being `days`. */
export function releasePurgeableFrom(deletedAt: Date, days: number): Date {
  return new Date(deletedAt.getTime() + days * DAY_SECONDS * 1000);
}

// TUF repositories

/** How long a signed `timestamp.json` is valid by default (TUF_TIMESTAMP_EXPIRY, in seconds): one day. */
export const TUF_TIMESTAMP_EXPIRY_DEFAULT_SECONDS = DAY_SECONDS;
/** The shortest and longest TUF_TIMESTAMP_EXPIRY: one hour to thirty days. */
export const TUF_TIMESTAMP_EXPIRY_MIN_SECONDS = HOUR_SECONDS;
export const TUF_TIMESTAMP_EXPIRY_MAX_SECONDS = 30 * DAY_SECONDS;
/** How long a signed `snapshot.json` is valid: seven days. */
export const TUF_SNAPSHOT_EXPIRY_SECONDS = 7 * DAY_SECONDS;
/** How long a signed `targets.json` and each channel's delegated targets role are valid: thirty days. */
export const TUF_TARGETS_EXPIRY_SECONDS = 30 * DAY_SECONDS;
/** How long a root made by `bds tuf init` or `bds tuf rotate` is valid by default: one year. */
export const TUF_ROOT_EXPIRY_DEFAULT_SECONDS = 365 * DAY_SECONDS;
/**
 * Online metadata is signed again once less than this share of its lifetime is left, so a client never
 * meets an expired role while the service runs (a timestamp of one day is signed again after 16 hours).
 */
export const TUF_RESIGN_WHEN_LEFT = 1 / 3;
/** How often the re-signing job looks for online metadata due for signing: every ten minutes (and at each worker start). */
export const TUF_RESIGN_INTERVAL_MS = 10 * MINUTE_SECONDS * 1000;
/** Repositories the re-signing job reads per page. */
export const TUF_RESIGN_PAGE = 100;
/**
 * A gateway asked for `timestamp.json` signs what the published files changed first, at most this
 * often per application (the re-signing job does it too, every TUF_RESIGN_INTERVAL_MS): a release
 * reaches TUF clients within these 30 seconds of its publication.
 */
export const TUF_SIGN_ON_READ_INTERVAL_MS = 30 * 1000;
/** Applications whose last signing on read a gateway remembers. */
export const TUF_SIGN_ON_READ_ENTRIES = 10_000;
/** Most root keys (and so signatures) a root the vendor uploads may carry. */
export const TUF_ROOT_MAX_KEYS = 16;
/** How long a client or cache may keep a versioned root (`{N}.root.json`), which never changes: one day. */
export const TUF_VERSIONED_ROOT_MAX_AGE_SECONDS = DAY_SECONDS;

// Package repositories (apt and dnf)

/** Bytes of a `.deb` read to find its control member, and of an `.rpm` to read its headers: both come first in their files. */
export const PACKAGE_HEADER_READ_MAX_BYTES = 8 * 1024 * 1024;
/** Largest control archive (a `.deb`'s control.tar, unpacked) read at upload: a few KiB in practice; more is refused, not a bomb unpacked. */
export const PACKAGE_CONTROL_UNPACKED_MAX_BYTES = 4 * 1024 * 1024;
/** A repository's `Release` is valid this long after its `Date` (`Valid-Until`): apt refuses older ones, so a replayed index expires. */
export const REPOSITORY_RELEASE_VALIDITY_SECONDS = 7 * DAY_SECONDS;
/** A repository index is signed again when it is this old, well inside its validity, even when nothing changed. */
export const REPOSITORY_INDEX_REFRESH_MS = DAY_SECONDS * 1000;
/** After a rotation the previous signing key still signs and is still served beside the new one this long, so clients can fetch the new key. */
export const REPOSITORY_KEY_OVERLAP_SECONDS = 30 * DAY_SECONDS;
/** Indexes a repository keeps per offered list (one per customer selection and arch set); past this, answers are built and not kept. */
export const REPOSITORY_INDEXES_PER_LIST = 64;
/**
 * Customer selections of an apt suite whose previous suite's indexes stay served by hash
 * (`by-hash/SHA256/...`) after an index changes, so an apt that read the older InRelease still gets
 * what it names; past this many, the remembered suites start over.
 */
export const REPOSITORY_PREVIOUS_SUITES_KEPT = 4096;
/** Longest armoured private key an import takes: an RSA 4096 key with its user ids is under 8 KiB. */
export const REPOSITORY_KEY_IMPORT_MAX_LENGTH = 32 * 1024;
/** The largest attestation (a DSSE envelope or a Sigstore bundle, as JSON text) a file takes. */
export const ATTESTATION_MAX_BYTES = 256 * 1024;
/** How many attestations one file keeps. */
export const ATTESTATIONS_PER_FILE_MAX = 20;
/** How many attestation keys one application registers. */
export const ATTESTATION_KEYS_PER_APPLICATION_MAX = 20;
/** The longest id of a registered attestation key. */
export const ATTESTATION_KEY_ID_MAX_LENGTH = 128;
/** The longest public key (PEM) a vendor registers. */
export const ATTESTATION_PUBLIC_KEY_MAX_LENGTH = 4096;
/** The longest semver range a maintenance window (a customer's or an access token's `versionRange`) takes. */
export const VERSION_RANGE_MAX_LENGTH = 200;
/** Entitlements an offered list keeps its selection for (one per distinct maintenance window asking); past this, selections are made and not kept. */
export const ENTITLED_LISTS_PER_OFFER_LIST = 64;
