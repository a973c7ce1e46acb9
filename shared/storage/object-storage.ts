import type { Readable } from 'node:stream';
import type { FileDigests } from '../hashing';
import { MAX_PUT_BYTES } from '../policy';

export interface ObjectInfo {
  size: number;
  contentType: string | undefined;
}

/** Inclusive byte range, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface PresignGetOptions {
  expiresInSeconds: number;
  /** Served as `Content-Disposition: attachment` with this file name. */
  fileName: string;
  contentType?: string;
  /** The Unix second the lifetime counts from (default: now); the URL expires expiresInSeconds later. */
  signedAt?: number;
}

export interface PresignPutOptions {
  expiresInSeconds: number;
  contentType?: string;
  /** Exact byte count the upload must have, when the adapter can enforce it. */
  contentLength?: number;
}

/** How long a body may be; every adapter enforces both, and stores nothing from a body that breaks them. */
export interface BodyLimits {
  /** The exact length the body must have. */
  contentLength?: number;
  /** The most bytes the body may have, when its length is not known in advance; MAX_PUT_BYTES at most and by default. */
  maxBytes?: number;
}

export interface PutOptions extends BodyLimits {
  contentType?: string;
}

/** The longest body `limits` allow. */
export function maxBodyBytes(limits: BodyLimits): number {
  return Math.min(limits.contentLength ?? Infinity, limits.maxBytes ?? MAX_PUT_BYTES, MAX_PUT_BYTES);
}

/** A put's body was longer than its limits allow or shorter than its declared length; nothing was stored. */
export class BodyLengthError extends Error {
  /** `limit`: the longest body allowed (too-long), or the declared length (too-short). */
  constructor(readonly problem: 'too-long' | 'too-short', readonly limit: number) {
    super(problem === 'too-long' ? `the body is longer than ${limit} bytes` : `the body is shorter than the declared ${limit} bytes`);
    this.name = 'BodyLengthError';
  }
}

/**
 * The object-storage port. Adapters: files under DATA_DIR with the gateway's own signed URLs (embedded
 * default) and S3 (production). Both pass test/contract/object-storage.contract.test.ts. Callers never
 * learn which one they have: every operation is a method here that both implement, and what a store
 * needs served over HTTP comes with it from createObjectStorage. Any method may fail with
 * DependencyUnavailableError when the store itself is unreachable, missing or failing.
 */
export interface ObjectStorage {
  /** Names the adapter in logs; nothing branches on it. */
  readonly kind: 'local' | 's3';
  /**
   * Streams `body` into `key`; resolves with the number of bytes stored. A body that breaks `options`'
   * limits fails with BodyLengthError (a declared length past them before any byte is read).
   */
  put(key: string, body: Readable, options?: PutOptions): Promise<{ size: number }>;
  /** null when the object does not exist. */
  head(key: string): Promise<ObjectInfo | null>;
  /** Throws ObjectNotFoundError when the object does not exist. */
  getStream(key: string, range?: ByteRange): Promise<Readable>;
  /** The object's SHA-256 (hex) and SHA-512 (base64), from one pass over its bytes; throws ObjectNotFoundError when missing. */
  digests(key: string): Promise<FileDigests>;
  /** Succeeds whether or not the object exists. */
  delete(key: string): Promise<void>;
  /** Keys of up to `limit` objects directly under `directory/` (not in directories below it), in no set order. */
  listKeys(directory: string, limit: number): Promise<string[]>;
  /**
   * Moves an object of up to MAX_PUT_BYTES (S3 copies no more in one request) to another key, replacing
   * what is there; throws ObjectNotFoundError when `from` is missing.
   */
  move(from: string, to: string): Promise<void>;
  /** A URL a client PUTs `key` through without an API key; the body is held to `contentLength` when given, and to MAX_PUT_BYTES. */
  presignPut(key: string, options: PresignPutOptions): Promise<string>;
  presignGet(key: string, options: PresignGetOptions): Promise<string>;
  /** Resolves when the store answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Header values hold printable ASCII and tabs; Node refuses anything else with an exception. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/**
 * The Content-Type a download is served with. Earlier releases stored some content types that are
 * not valid header values (line breaks inside parameters); those files are served as
 * application/octet-stream instead of failing.
 */
export function servedContentType(contentType: string): string {
  return HEADER_VALUE.test(contentType) ? contentType : DEFAULT_CONTENT_TYPE;
}

/** `attachment; filename="..."; filename*=UTF-8''...` with a safe ASCII fallback (RFC 6266 / 5987). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
