import type { Readable } from 'node:stream';
import type { ChunkSink, DigestKind, Digests, FileDigests, Hashing } from '../hashing';
import { MAX_PUT_BYTES } from '../policy';
import type { StoredPart } from './stored-part';

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

/** A part a multipart upload holds (defined apart, see stored-part.ts). */
export type { StoredPart };

export interface PresignPartOptions {
  expiresInSeconds: number;
  /** Exact byte count the part must have; a PUT of any other length is refused. */
  contentLength: number;
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

/** The multipart upload is not open: never created, aborted, or completed already. */
export class MultipartUploadNotFoundError extends Error {
  constructor(readonly uploadId: string) {
    super('multipart upload not found');
    this.name = 'MultipartUploadNotFoundError';
  }
}

/** The parts named to complete a multipart upload are not the parts it holds (missing, replaced, or too small); nothing was assembled. */
export class MultipartPartsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MultipartPartsError';
  }
}

/** What a completion must name, on every adapter (S3's rule): at least one part, in ascending order without repeats; MultipartPartsError otherwise. */
export function requireAscendingParts(parts: readonly Pick<StoredPart, 'partNumber'>[]): void {
  if (parts.length === 0) throw new MultipartPartsError('a multipart upload is completed with at least one part');
  parts.forEach((part, index) => {
    if (index > 0 && part.partNumber <= parts[index - 1].partNumber) throw new MultipartPartsError('parts are named in ascending order, each once');
  });
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
  /**
   * The object's SHA-256 (hex) and SHA-512 (base64), or its digests of `kinds`, from one pass over
   * its bytes computed where `hashing` computes them; throws ObjectNotFoundError when missing.
   */
  digests(key: string, hashing: Hashing): Promise<FileDigests>;
  digests<N extends string>(key: string, hashing: Hashing, kinds: readonly DigestKind<N>[]): Promise<Digests<N>>;
  /** Succeeds whether or not the object exists. */
  delete(key: string): Promise<void>;
  /** Keys of up to `limit` objects directly under `directory/` (not in directories below it), in no set order. */
  listKeys(directory: string, limit: number): Promise<string[]>;
  /**
   * Moves an object of up to MAX_PUT_BYTES (S3 copies no more in one request) to another key, replacing
   * what is there; throws ObjectNotFoundError when `from` is missing.
   */
  move(from: string, to: string): Promise<void>;
  /**
   * Moves an object of up to MAX_PUT_BYTES to `to` unless an object is there already, which is never
   * replaced: then `from` is deleted and `to` kept ('present'). What a content-addressed key is written
   * with: the same key holds the same bytes, and once written they are not written again. Throws
   * ObjectNotFoundError when `from` is missing and `to` is not there.
   */
  moveUnlessPresent(from: string, to: string): Promise<'moved' | 'present'>;
  /** A URL a client PUTs `key` through without an API key; the body is held to `contentLength` when given, and to MAX_PUT_BYTES. */
  presignPut(key: string, options: PresignPutOptions): Promise<string>;
  presignGet(key: string, options: PresignGetOptions): Promise<string>;
  /**
   * A URL that answers HEAD only (the object's length and type, never its bytes): what a HEAD of a
   * download link is sent to, as it counts nothing. Not cached on the hot path: HEADs are rare.
   */
  presignHead(key: string, options: PresignGetOptions): Promise<string>;

  /*
   * Multipart uploads: an object of up to MULTIPART_UPLOAD_MAX_BYTES (5 TiB) sent as up to
   * MULTIPART_MAX_PARTS (10,000) parts (S3's limits, in the policy module),
   * each through its own pre-signed PUT, in any order and any number of times (the last PUT of a part
   * number wins), then assembled in part order by completeMultipartUpload. Until then `key` is
   * untouched; after completion or an abort the upload takes no more parts.
   */
  /** Opens a multipart upload of `key`; resolves with the store's id for it. */
  createMultipartUpload(key: string, options?: { contentType?: string }): Promise<string>;
  /** A URL a client PUTs one part through without an API key, holding it to exactly `contentLength` bytes. */
  presignUploadPart(key: string, uploadId: string, partNumber: number, options: PresignPartOptions): Promise<string>;
  /** The parts stored so far, by part number; MultipartUploadNotFoundError when the upload is not open. */
  listParts(key: string, uploadId: string): Promise<StoredPart[]>;
  /**
   * Assembles `parts` (ascending part numbers, each with the etag listParts gave) into `key`, replacing
   * what is there, and closes the upload. MultipartUploadNotFoundError when it is not open (a repeated
   * completion included), MultipartPartsError when the parts are not the ones it holds. Resolves true
   * when `observer` was given every byte of the object in order as it was assembled (a store that
   * copies the bytes itself, so a caller hashing them needs no second pass), false when the store
   * assembled them out of sight (S3).
   */
  completeMultipartUpload(key: string, uploadId: string, parts: readonly Pick<StoredPart, 'partNumber' | 'etag'>[], observer?: ChunkSink): Promise<boolean>;
  /** Discards the upload and its parts; succeeds whether or not it is open. */
  abortMultipartUpload(key: string, uploadId: string): Promise<void>;

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
