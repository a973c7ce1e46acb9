import { pipeline, Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  ListPartsCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from './s3-config';
import { ObjectNotFoundError } from '../../errors';
import { DigestKind, Digests, digestsOfStream, FILE_DIGESTS, FileDigests, Hashing } from '../../hashing';
import { BodyLengthCheck } from '../body-length-check';
import {
  attachmentDisposition,
  ByteRange,
  MultipartPartsError,
  MultipartUploadNotFoundError,
  ObjectInfo,
  ObjectStorage,
  PresignGetOptions,
  PresignPartOptions,
  PresignPutOptions,
  PutOptions,
  requireAscendingParts,
  StoredPart,
} from '../object-storage';
import { createS3Client } from './s3-client';
import { confirmGetUrlPresigner, presignGetWithSdk, UnsignedGetUrlRequest } from './sdk-get-urls';
import { reportStoreFailures } from './store-failures';
import type { S3GetUrlPresigner } from './sigv4-presigner';

/**
 * Objects in an S3-compatible bucket. Clients send and fetch large bytes through pre-signed URLs, so they
 * never pass through the gateway. A store that cannot be reached, a missing bucket or a 5xx is
 * DependencyUnavailableError (store-failures.ts).
 */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  /** Confirmed by the first presignGet; undefined inside: GET URLs are signed by the SDK. */
  private confirmedGetUrlPresigner: Promise<S3GetUrlPresigner | undefined> | undefined;

  constructor(private readonly config: S3Config) {
    this.bucket = config.bucket;
    this.client = createS3Client(config);
    reportStoreFailures(this.client);
  }

  async put(key: string, body: Readable, options: PutOptions = {}): Promise<{ size: number }> {
    const check = new BodyLengthCheck(options);
    // The SDK pipes the body without watching it for errors: a failing source or a wrong length aborts the request.
    const abort = new AbortController();
    pipeline(body, check, (error) => {
      if (error) abort.abort(error);
    });
    const params = { Bucket: this.bucket, Key: key, Body: check, ContentType: options.contentType };
    try {
      if (options.contentLength === undefined) {
        // Unknown length: a multipart upload, holding at most a few parts in memory.
        await new Upload({ client: this.client, params, abortController: abort }).done();
      } else {
        await this.client.send(new PutObjectCommand({ ...params, ContentLength: options.contentLength }), { abortSignal: abort.signal });
      }
    } catch (error) {
      check.destroy();
      // An aborted request only says it was aborted; the reason is what went wrong with the body.
      throw error instanceof Error && error.name === 'AbortError' && abort.signal.aborted ? abort.signal.reason : error;
    }
    return { size: check.bytes };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const output = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: output.ContentLength ?? 0, contentType: output.ContentType };
    } catch (error) {
      if (error instanceof NotFound) return null;
      throw error;
    }
  }

  async getStream(key: string, range?: ByteRange): Promise<Readable> {
    let body: unknown;
    try {
      const output = await this.client.send(new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Range: range === undefined ? undefined : `bytes=${range.start}-${range.end}`,
      }));
      body = output.Body;
    } catch (error) {
      if (error instanceof NoSuchKey) throw new ObjectNotFoundError(key);
      throw error;
    }
    if (!(body instanceof Readable)) throw new Error('S3 returned no readable body');
    return body;
  }

  digests(key: string, hashing: Hashing): Promise<FileDigests>;
  digests<N extends string>(key: string, hashing: Hashing, kinds: readonly DigestKind<N>[]): Promise<Digests<N>>;
  async digests(key: string, hashing: Hashing, kinds: readonly DigestKind[] = FILE_DIGESTS): Promise<FileDigests | Digests<string>> {
    return digestsOfStream(await this.getStream(key), hashing.digesterOf(kinds));
  }

  async listKeys(directory: string, limit: number): Promise<string[]> {
    // Version 1 of the listing call: s3rver, which the tests run against, fails on version 2.
    const listed = await this.client.send(new ListObjectsCommand({ Bucket: this.bucket, Prefix: `${directory}/`, Delimiter: '/', MaxKeys: limit }));
    return (listed.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** A server-side copy then a delete; S3 copies objects of up to 5 GB in one request, the most one PUT can store. */
  async move(from: string, to: string): Promise<void> {
    if (from === to) {
      if ((await this.head(from)) === null) throw new ObjectNotFoundError(from);
      return;
    }
    try {
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: copySource(this.bucket, from) }));
    } catch (error) {
      if (error instanceof NoSuchKey) throw new ObjectNotFoundError(from);
      throw error;
    }
    await this.delete(from);
  }

  /**
   * A copy only when nothing is at `to`: checked first, and by the copy itself (`If-None-Match: *`, S3's
   * conditional write; 412 when another writer got there first). A store that ignores the condition
   * replaces the object with the same bytes, which a content-addressed key holds by construction.
   */
  async moveUnlessPresent(from: string, to: string): Promise<'moved' | 'present'> {
    if (from === to) throw new Error('moveUnlessPresent needs two keys');
    let outcome: 'moved' | 'present' = 'present';
    if ((await this.head(to)) === null) {
      try {
        await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: copySource(this.bucket, from), IfNoneMatch: '*' }));
        outcome = 'moved';
      } catch (error) {
        if (error instanceof NoSuchKey) throw new ObjectNotFoundError(from);
        if (!isPreconditionFailure(error)) throw error;
      }
    }
    await this.delete(from);
    return outcome;
  }

  async presignPut(key: string, options: PresignPutOptions): Promise<string> {
    // Content-Length becomes a signed header, so S3 refuses a body of any other length.
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ContentType: options.contentType,
      ContentLength: options.contentLength,
    });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds });
  }

  async createMultipartUpload(key: string, options: { contentType?: string } = {}): Promise<string> {
    const output = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: options.contentType }));
    if (!output.UploadId) throw new Error('S3 returned no UploadId');
    return output.UploadId;
  }

  async presignUploadPart(key: string, uploadId: string, partNumber: number, options: PresignPartOptions): Promise<string> {
    // Content-Length becomes a signed header, so S3 refuses a part of any other length.
    const command = new UploadPartCommand({
      Bucket: this.bucket,
      Key: key,
      UploadId: uploadId,
      PartNumber: partNumber,
      ContentLength: options.contentLength,
    });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds });
  }

  /** ListParts pages through at most 1,000 parts per request. */
  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    for (;;) {
      const output = await this.multipartCall(uploadId, () => this.client.send(new ListPartsCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker })));
      for (const part of output.Parts ?? []) {
        if (part.PartNumber !== undefined && part.ETag !== undefined) parts.push({ partNumber: part.PartNumber, size: part.Size ?? 0, etag: part.ETag });
      }
      if (!output.IsTruncated || output.NextPartNumberMarker === undefined) return parts;
      marker = output.NextPartNumberMarker;
    }
  }

  /** S3 assembles the parts itself: the bytes are never seen here. */
  async completeMultipartUpload(key: string, uploadId: string, parts: readonly Pick<StoredPart, 'partNumber' | 'etag'>[]): Promise<boolean> {
    requireAscendingParts(parts);
    await this.multipartCall(uploadId, () => this.client.send(new CompleteMultipartUploadCommand({
      Bucket: this.bucket,
      Key: key,
      UploadId: uploadId,
      MultipartUpload: { Parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })) },
    })));
    return false;
  }

  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    try {
      await this.multipartCall(uploadId, () => this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })));
    } catch (error) {
      if (!(error instanceof MultipartUploadNotFoundError)) throw error;
    }
  }

  /** Sends a command naming a multipart upload, with S3's errors about the upload and its parts turned into the port's. */
  private async multipartCall<Output>(uploadId: string, send: () => Promise<Output>): Promise<Output> {
    try {
      return await send();
    } catch (error) {
      const name = (error as { name?: unknown } | null)?.name;
      if (name === 'NoSuchUpload') throw new MultipartUploadNotFoundError(uploadId);
      if (typeof name === 'string' && PART_ERRORS.has(name)) throw new MultipartPartsError((error as Error).message);
      throw error;
    }
  }

  /** The download hot path: signed here, as getSignedUrl's middleware stack costs many times the signature itself. */
  async presignGet(key: string, options: PresignGetOptions): Promise<string> {
    const request: UnsignedGetUrlRequest = {
      key,
      expiresInSeconds: options.expiresInSeconds,
      responseContentDisposition: attachmentDisposition(options.fileName),
      responseContentType: options.contentType,
      now: options.signedAt === undefined ? new Date() : new Date(options.signedAt * 1000),
    };
    const presigner = await this.getUrlPresigner();
    if (presigner === undefined) return presignGetWithSdk(this.client, this.bucket, request);
    // The client's provider caches and refreshes credentials, whether static keys or the default chain's.
    const credentials = await this.client.config.credentials();
    return presigner.presign({ ...request, credentials });
  }

  /** Signed by the SDK: a HEAD is no hot path. S3 binds the method into the signature, so the URL serves no GET. */
  async presignHead(key: string, options: PresignGetOptions): Promise<string> {
    const command = new HeadObjectCommand({ Bucket: this.bucket, Key: key });
    const signingDate = options.signedAt === undefined ? undefined : new Date(options.signedAt * 1000);
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds, signingDate });
  }

  /** Confirmed once; a failed probe (credentials not available yet) is tried again by the next call. */
  private getUrlPresigner(): Promise<S3GetUrlPresigner | undefined> {
    this.confirmedGetUrlPresigner ??= confirmGetUrlPresigner(this.client, this.config).catch((error: unknown) => {
      this.confirmedGetUrlPresigner = undefined;
      throw error;
    });
    return this.confirmedGetUrlPresigner;
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

/** S3's refusals of the parts a completion names: missing or replaced, out of order, or smaller than 5 MiB before the last. */
const PART_ERRORS = new Set(['InvalidPart', 'InvalidPartOrder', 'EntityTooSmall']);

/** CopySource is sent as a raw header: S3 expects it URL-encoded, '+' included. */
function copySource(bucket: string, key: string): string {
  return `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/** S3's answer to a conditional write whose condition failed (412), or that raced another (409). */
function isPreconditionFailure(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: unknown } } | null)?.$metadata?.httpStatusCode;
  return status === 412 || status === 409;
}
