import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { BodyLimits, ObjectInfo, StoredPart } from './object-storage';

/** What a signed object URL grants: one method on one key until `expires`, with fixed response headers. */
export interface SignedGrant {
  /** A HEAD grant reads the object's headers only; a GET grant serves HEAD too. */
  method: 'GET' | 'HEAD' | 'PUT';
  key: string;
  /** Unix seconds. */
  expires: number;
  disposition?: string;
  contentType?: string;
  contentLength?: number;
  /** Set together on a PUT of one part of a multipart upload: the store's id of the upload and the part's number. */
  uploadId?: string;
  partNumber?: number;
}

export type Verdict = 'valid' | 'expired' | 'invalid';

/**
 * What answering an object store's signed URLs takes, for a store whose URLs point at the gateway
 * (the embedded store; S3 answers its own). The gateway serves them over HTTP with it.
 */
export interface SignedObjectAccess {
  /** The path under PUBLIC_BASE_URL the URLs point at; the object's key, URL-encoded per segment, follows it. */
  readonly path: string;
  /** The query parameters a signature is made of; no other is part of a signed URL. */
  readonly queryParams: readonly string[];
  /** Reads the grant of a request's query; `method` is the request's (HEAD counts as GET). */
  verify(method: string, key: string, query: URLSearchParams): { verdict: Verdict; grant?: SignedGrant };
  /** null when the object does not exist. */
  head(key: string): Promise<ObjectInfo | null>;
  /** Opens an object for reading; ObjectNotFoundError when there is none. */
  openObject(key: string): Promise<FileHandle>;
  /** Stores `body` at `key` within `limits`; BodyLengthError when it breaks them. */
  put(key: string, body: Readable, limits: BodyLimits): Promise<{ size: number }>;
  /**
   * Stores `body` as part `partNumber` of an open multipart upload within `limits`; BodyLengthError when
   * it breaks them, MultipartUploadNotFoundError (before reading the body) when the upload is not open.
   */
  putPart(uploadId: string, partNumber: number, body: Readable, limits: BodyLimits): Promise<StoredPart>;
}
