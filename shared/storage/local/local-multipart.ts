import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ChunkSink } from '../../hashing';
import { randomToken } from '../../ids';
import { BodyLengthCheck } from '../body-length-check';
import { BodyLimits, MultipartPartsError, MultipartUploadNotFoundError, requireAscendingParts, StoredPart } from '../object-storage';

/** Directory of open multipart uploads under the store's root: one directory per upload, one file per part. */
export const MULTIPART_DIRECTORY = '.multipart';
/** An upload being assembled is renamed to this, so a part PUT arriving from then on finds no open upload. */
const SEALED_SUFFIX = '.sealed';
/** Assembly copies through two buffers of this size, allocated once per completion. */
const COPY_CHUNK_BYTES = 1024 * 1024;
const PART_FILE = /^[1-9][0-9]*$/;

/** How the store turns a file-system error into the port's (see LocalStorage.failure). */
type FailureMapper = (error: unknown, key: string) => Promise<unknown>;

/**
 * The embedded store's multipart uploads: each part a file, written aside and renamed into its
 * upload's directory (a repeated part replaces the earlier one whole), assembled at completion by
 * copying part after part into one file through reused buffers, never a part in memory.
 */
export class LocalMultipartUploads {
  private readonly root: string;

  constructor(storeRoot: string, private readonly partialDirectory: string, private readonly failure: FailureMapper) {
    this.root = path.join(storeRoot, MULTIPART_DIRECTORY);
    fs.mkdirSync(this.root, { recursive: true });
  }

  async create(): Promise<string> {
    const uploadId = randomToken(16);
    try {
      await fsp.mkdir(this.openDirectory(uploadId));
    } catch (error) {
      throw await this.failure(error, MULTIPART_DIRECTORY);
    }
    return uploadId;
  }

  async putPart(uploadId: string, partNumber: number, body: Readable, limits: BodyLimits): Promise<StoredPart> {
    const check = new BodyLengthCheck(limits);
    const directory = this.openDirectory(uploadId);
    // Refused before a byte is read: the bytes of a finished upload would go nowhere.
    await this.requireOpen(uploadId);
    const partial = path.join(this.partialDirectory, randomToken(12));
    const target = path.join(directory, String(partNumber));
    try {
      await pipeline(body, check, fs.createWriteStream(partial));
      await fsp.rename(partial, target);
      return await partOf(target, partNumber);
    } catch (error) {
      await fsp.rm(partial, { force: true });
      // Sealed or aborted while the part streamed in.
      if (isMissing(error) && await this.storeIsThere()) throw new MultipartUploadNotFoundError(uploadId);
      throw await this.failure(error, MULTIPART_DIRECTORY);
    }
  }

  async listParts(uploadId: string): Promise<StoredPart[]> {
    return this.partsIn(this.openDirectory(uploadId), uploadId);
  }

  /**
   * Seals the upload (no part PUT lands from then on), copies the parts into a file written aside,
   * renames it into place and removes the parts. A completion cut short leaves the upload sealed, and
   * the next one picks it up from there.
   */
  async complete(uploadId: string, target: string, parts: readonly Pick<StoredPart, 'partNumber' | 'etag'>[], observer?: ChunkSink): Promise<void> {
    requireAscendingParts(parts);
    const sealed = this.sealedDirectory(uploadId);
    try {
      await fsp.rename(this.openDirectory(uploadId), sealed);
    } catch (error) {
      if (!isMissing(error)) throw await this.failure(error, MULTIPART_DIRECTORY);
    }
    const stored = new Map((await this.partsIn(sealed, uploadId)).map((part) => [part.partNumber, part]));
    for (const part of parts) {
      if (stored.get(part.partNumber)?.etag !== part.etag) throw new MultipartPartsError(`part ${part.partNumber} is not the part named`);
    }
    const partial = path.join(this.partialDirectory, randomToken(12));
    try {
      await concatenate(parts.map((part) => path.join(sealed, String(part.partNumber))), partial, observer);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(partial, target);
      await fsp.rm(sealed, { recursive: true, force: true });
    } catch (error) {
      await fsp.rm(partial, { force: true });
      throw await this.failure(error, MULTIPART_DIRECTORY);
    }
  }

  async abort(uploadId: string): Promise<void> {
    try {
      await fsp.rm(this.openDirectory(uploadId), { recursive: true, force: true });
      await fsp.rm(this.sealedDirectory(uploadId), { recursive: true, force: true });
    } catch (error) {
      throw await this.failure(error, MULTIPART_DIRECTORY);
    }
  }

  private async requireOpen(uploadId: string): Promise<void> {
    try {
      await fsp.access(this.openDirectory(uploadId));
    } catch (error) {
      if (isMissing(error) && await this.storeIsThere()) throw new MultipartUploadNotFoundError(uploadId);
      throw await this.failure(error, MULTIPART_DIRECTORY);
    }
  }

  private async partsIn(directory: string, uploadId: string): Promise<StoredPart[]> {
    try {
      const names = (await fsp.readdir(directory)).filter((name) => PART_FILE.test(name));
      const parts = await Promise.all(names.map((name) => partOf(path.join(directory, name), Number(name))));
      return parts.sort((a, b) => a.partNumber - b.partNumber);
    } catch (error) {
      if (isMissing(error) && await this.storeIsThere()) throw new MultipartUploadNotFoundError(uploadId);
      throw await this.failure(error, MULTIPART_DIRECTORY);
    }
  }

  private storeIsThere(): Promise<boolean> {
    return fsp.access(this.root).then(() => true, () => false);
  }

  /** Ids are the store's own (base64url): never a path of their own. */
  private openDirectory(uploadId: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(uploadId)) throw new MultipartUploadNotFoundError(uploadId);
    return path.join(this.root, uploadId);
  }

  private sealedDirectory(uploadId: string): string {
    return `${this.openDirectory(uploadId)}${SEALED_SUFFIX}`;
  }
}

/** A part file's tag changes with every write: a new file (inode) renamed into place, with its own modification time. */
async function partOf(file: string, partNumber: number): Promise<StoredPart> {
  const stat = await fsp.stat(file, { bigint: true });
  return { partNumber, size: Number(stat.size), etag: `"${stat.ino.toString(16)}-${stat.mtimeNs.toString(16)}"` };
}

/**
 * Writes the files one after the other into `target`, each chunk handed to `observer` while it is
 * being written and the next one read: one pass over the bytes serves the copy and the hash.
 */
async function concatenate(files: string[], target: string, observer?: ChunkSink): Promise<void> {
  const buffers = [Buffer.allocUnsafe(COPY_CHUNK_BYTES), Buffer.allocUnsafe(COPY_CHUNK_BYTES)];
  const output = await fsp.open(target, 'w');
  try {
    for (const file of files) {
      const input = await fsp.open(file, 'r');
      try {
        let current = 0;
        let filled = (await input.read(buffers[current], 0, COPY_CHUNK_BYTES, null)).bytesRead;
        while (filled > 0) {
          const next = 1 - current;
          const chunk = buffers[current].subarray(0, filled);
          const writing = writeFully(output, chunk);
          const reading = input.read(buffers[next], 0, COPY_CHUNK_BYTES, null);
          const [, read] = await Promise.all([writing, reading, observer?.update(chunk)]);
          current = next;
          filled = read.bytesRead;
        }
      } finally {
        await input.close();
      }
    }
  } finally {
    await output.close();
  }
}

async function writeFully(output: fsp.FileHandle, chunk: Buffer): Promise<void> {
  for (let written = 0; written < chunk.length;) {
    written += (await output.write(chunk, written, chunk.length - written, null)).bytesWritten;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
