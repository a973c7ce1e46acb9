import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DependencyUnavailableError, ObjectNotFoundError } from '../../errors';
import { ChunkSink, DigestKind, Digests, digestsOfFile, FILE_DIGESTS, FileDigests, Hashing } from '../../hashing';
import { randomToken } from '../../ids';
import { BodyLengthCheck } from '../body-length-check';
import {
  attachmentDisposition,
  ByteRange,
  ObjectInfo,
  ObjectStorage,
  PresignGetOptions,
  PresignPartOptions,
  PresignPutOptions,
  PutOptions,
  StoredPart,
} from '../object-storage';
import type { SignedObjectAccess } from '../signed-object-access';
import { LocalMultipartUploads, MULTIPART_DIRECTORY } from './local-multipart';
import { SIGNED_URL_PARAMS, UrlSigner } from './url-signer';

/** Where signed URLs point, under PUBLIC_BASE_URL; the gateway answers them through signedAccess(). */
export const SIGNED_URL_PATH = '/v1/objects';

/** Read size for streaming objects: large reads keep hashing and serving near memory speed. */
const READ_CHUNK_BYTES = 1024 * 1024;

/** File-system failures of the disk or its mount rather than of one object: the same request may succeed once it is fixed. */
const STORE_FAILURE_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'EIO', 'ENOSPC', 'EDQUOT', 'ESTALE', 'EMFILE', 'ENFILE']);

/**
 * Objects as files under a directory, for the single-machine default. Writes land in a temporary file
 * renamed into place, so a reader never sees a half-written object. URLs point at the gateway, which
 * checks their signature (signedAccess()). A directory gone, unreadable or failing is
 * DependencyUnavailableError (see failure()).
 */
export class LocalStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  /** Where writes land before they are renamed into place; created with the store, so it is there while the store is. */
  private readonly partialDirectory: string;
  private readonly multipart: LocalMultipartUploads;

  constructor(
    private readonly root: string,
    private readonly publicBaseUrl: string,
    private readonly signer: UrlSigner,
  ) {
    this.partialDirectory = path.join(root, '.partial');
    fs.mkdirSync(this.partialDirectory, { recursive: true });
    this.multipart = new LocalMultipartUploads(root, this.partialDirectory, (error, key) => this.failure(error, key));
  }

  async put(key: string, body: Readable, options: PutOptions = {}): Promise<{ size: number }> {
    const check = new BodyLengthCheck(options);
    const target = this.pathOf(key);
    const partial = path.join(this.partialDirectory, randomToken(12));
    try {
      await pipeline(body, check, fs.createWriteStream(partial));
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(partial, target);
      return { size: check.bytes };
    } catch (error) {
      await fsp.rm(partial, { force: true });
      throw await this.failure(error, key);
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const stat = await fsp.stat(this.pathOf(key));
      return stat.isFile() ? { size: stat.size, contentType: undefined } : null;
    } catch (error) {
      const failure = await this.failure(error, key);
      if (failure instanceof ObjectNotFoundError) return null;
      throw failure;
    }
  }

  async getStream(key: string, range?: ByteRange): Promise<Readable> {
    const handle = await this.openObject(key);
    return handle.createReadStream({ start: range?.start, end: range?.end, highWaterMark: READ_CHUNK_BYTES });
  }

  /** Reads through two reused buffers (see feedFileThroughReusedBuffers for why). */
  digests(key: string, hashing: Hashing): Promise<FileDigests>;
  digests<N extends string>(key: string, hashing: Hashing, kinds: readonly DigestKind<N>[]): Promise<Digests<N>>;
  async digests(key: string, hashing: Hashing, kinds: readonly DigestKind[] = FILE_DIGESTS): Promise<FileDigests | Digests<string>> {
    const handle = await this.openObject(key);
    try {
      return await digestsOfFile(handle, READ_CHUNK_BYTES, hashing.digesterOf(kinds));
    } catch (error) {
      throw await this.failure(error, key);
    } finally {
      await handle.close();
    }
  }

  async listKeys(directory: string, limit: number): Promise<string[]> {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(this.pathOf(directory), { withFileTypes: true });
    } catch (error) {
      const failure = await this.failure(error, directory);
      if (failure instanceof ObjectNotFoundError) return [];
      throw failure;
    }
    return entries.filter((entry) => entry.isFile()).slice(0, limit).map((entry) => `${directory}/${entry.name}`);
  }

  async delete(key: string): Promise<void> {
    try {
      await fsp.rm(this.pathOf(key), { force: true });
    } catch (error) {
      throw await this.failure(error, key);
    }
  }

  async move(from: string, to: string): Promise<void> {
    const target = this.pathOf(to);
    try {
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(this.pathOf(from), target);
    } catch (error) {
      throw await this.failure(error, from);
    }
  }

  async moveUnlessPresent(from: string, to: string): Promise<'moved' | 'present'> {
    const target = this.pathOf(to);
    try {
      await fsp.mkdir(path.dirname(target), { recursive: true });
      // A hard link is made only where no file is (EEXIST otherwise): what is at `to` is never replaced.
      await fsp.link(this.pathOf(from), target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A source already gone leaves a target there as it is (a repeated move).
      if (code !== 'EEXIST' && !(code === 'ENOENT' && (await this.head(to)) !== null)) throw await this.failure(error, from);
      await this.delete(from);
      return 'present';
    }
    await this.delete(from);
    return 'moved';
  }

  async presignPut(key: string, options: PresignPutOptions): Promise<string> {
    return this.url(key, this.signer.sign({
      method: 'PUT',
      key,
      expires: expiry(options.expiresInSeconds),
      contentLength: options.contentLength,
    }));
  }

  async presignGet(key: string, options: PresignGetOptions): Promise<string> {
    return this.presignRead('GET', key, options);
  }

  async presignHead(key: string, options: PresignGetOptions): Promise<string> {
    return this.presignRead('HEAD', key, options);
  }

  private presignRead(method: 'GET' | 'HEAD', key: string, options: PresignGetOptions): string {
    const second = options.signedAt ?? Math.floor(Date.now() / 1000);
    return this.url(key, this.signer.sign({
      method,
      key,
      expires: second + options.expiresInSeconds,
      disposition: attachmentDisposition(options.fileName),
      contentType: options.contentType,
    }));
  }

  createMultipartUpload(): Promise<string> {
    return this.multipart.create();
  }

  /** The part's URL is the object's, with the upload and part number signed in. */
  async presignUploadPart(key: string, uploadId: string, partNumber: number, options: PresignPartOptions): Promise<string> {
    return this.url(key, this.signer.sign({
      method: 'PUT',
      key,
      expires: expiry(options.expiresInSeconds),
      contentLength: options.contentLength,
      uploadId,
      partNumber,
    }));
  }

  listParts(_key: string, uploadId: string): Promise<StoredPart[]> {
    return this.multipart.listParts(uploadId);
  }

  /** The parts are copied into one file here, so `observer` sees every byte. */
  async completeMultipartUpload(key: string, uploadId: string, parts: readonly Pick<StoredPart, 'partNumber' | 'etag'>[], observer?: ChunkSink): Promise<boolean> {
    await this.multipart.complete(uploadId, this.pathOf(key), parts, observer);
    return true;
  }

  abortMultipartUpload(_key: string, uploadId: string): Promise<void> {
    return this.multipart.abort(uploadId);
  }

  async ping(): Promise<void> {
    try {
      await fsp.access(this.partialDirectory, fs.constants.R_OK | fs.constants.W_OK);
    } catch (error) {
      throw await this.failure(error, '.partial');
    }
  }

  async close(): Promise<void> {}

  /** What the gateway needs to answer this store's signed URLs. */
  signedAccess(): SignedObjectAccess {
    return {
      path: SIGNED_URL_PATH,
      queryParams: Object.values(SIGNED_URL_PARAMS),
      verify: (method, key, query) => this.signer.verify(method, key, query),
      head: (key) => this.head(key),
      openObject: (key) => this.openObject(key),
      put: (key, body, limits) => this.put(key, body, limits),
      putPart: (uploadId, partNumber, body, limits) => this.multipart.putPart(uploadId, partNumber, body, limits),
    };
  }

  /** Opens an object for reading; ObjectNotFoundError when there is none. */
  async openObject(key: string): Promise<fsp.FileHandle> {
    try {
      return await fsp.open(this.pathOf(key), 'r');
    } catch (error) {
      throw await this.failure(error, key);
    }
  }

  /**
   * The one place file-system errors become the port's: a disk failing or a store directory gone
   * (deleted, unmounted) is DependencyUnavailableError, as S3 unreachable is; a file not there in a
   * store that is there is ObjectNotFoundError for `key`. Anything else, such as the body's own
   * failure during a put, passes unchanged.
   */
  private async failure(error: unknown, key: string): Promise<unknown> {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (code !== undefined && STORE_FAILURE_CODES.has(code)) return new DependencyUnavailableError('object storage', error);
    if (!isMissing(error)) return error;
    const storeIsThere = await fsp.access(this.partialDirectory).then(() => true, () => false);
    return storeIsThere ? new ObjectNotFoundError(key) : new DependencyUnavailableError('object storage', error);
  }

  /** Maps a key to a file inside root; keys that would escape it are refused. */
  private pathOf(key: string): string {
    const segments = key.split('/');
    if (key === '' || segments.some((s) => s === '' || s === '.' || s === '..' || s === '.partial' || s === MULTIPART_DIRECTORY)) {
      throw new ObjectNotFoundError(key);
    }
    return path.join(this.root, ...segments);
  }

  private url(key: string, query: string): string {
    const encodedKey = key.split('/').map(encodeURIComponent).join('/');
    return `${this.publicBaseUrl}${SIGNED_URL_PATH}/${encodedKey}?${query}`;
  }
}

/** No such file: ENOENT, or ENOTDIR when a key runs through another object's file ('a' holds bytes, 'a/b' is asked for). */
function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function expiry(expiresInSeconds: number): number {
  return Math.floor(Date.now() / 1000) + expiresInSeconds;
}
