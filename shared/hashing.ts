import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';

/** Takes bytes chunk by chunk: a node:crypto Hash, or FileDigester for both of a file's digests. */
export interface ChunkSink {
  update(chunk: Buffer): unknown;
}

/** The digests kept for a file: SHA-256 as hex (our checksum), SHA-512 as base64 (what electron-updater and Squirrel check). */
export interface FileDigests {
  sha256: string;
  sha512: string;
}

/** Computes both of a file's digests from one pass over its bytes: in flight while receiving, or while reading it back. */
export class FileDigester implements ChunkSink {
  private readonly sha256 = createHash('sha256');
  private readonly sha512 = createHash('sha512');

  update(chunk: Buffer): this {
    this.sha256.update(chunk);
    this.sha512.update(chunk);
    return this;
  }

  /** Once only, after the last chunk (node:crypto refuses a second digest). */
  digest(): FileDigests {
    return { sha256: this.sha256.digest('hex'), sha512: this.sha512.digest('base64') };
  }
}

/** Feeds a stream to `sink` chunk by chunk: memory stays flat whatever the size. */
export async function feedStream(stream: Readable, sink: ChunkSink): Promise<void> {
  for await (const chunk of stream) sink.update(chunk as Buffer);
}

/**
 * Feeds an open file to `sink` through two buffers allocated once, the next read running while the
 * current chunk is hashed. A stream would allocate a fresh buffer per chunk, and touching that much
 * new memory costs as much as the hashing itself on hosts that reclaim an idle process's freed
 * pages. The sink must consume each chunk before returning: its buffer is read into again.
 */
export async function feedFileThroughReusedBuffers(handle: FileHandle, chunkBytes: number, sink: ChunkSink): Promise<void> {
  const buffers = [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)];
  let current = 0;
  let reading = handle.read(buffers[current], 0, chunkBytes, null);
  for (;;) {
    const { bytesRead } = await reading;
    if (bytesRead === 0) break;
    const filled = buffers[current];
    current = 1 - current;
    reading = handle.read(buffers[current], 0, chunkBytes, null);
    sink.update(filled.subarray(0, bytesRead));
  }
}

/** Both digests of a stream, in one pass. */
export async function digestsOfStream(stream: Readable): Promise<FileDigests> {
  const digester = new FileDigester();
  await feedStream(stream, digester);
  return digester.digest();
}

/** Both digests of an open file, in one pass through reused buffers. */
export async function digestsOfFile(handle: FileHandle, chunkBytes: number): Promise<FileDigests> {
  const digester = new FileDigester();
  await feedFileThroughReusedBuffers(handle, chunkBytes, digester);
  return digester.digest();
}

const CHECKSUM = /^(?:sha256:)?([0-9a-f]{64})$/i;

/** Lowercase hex of a checksum given as `sha256:<hex>` or bare hex in any case; null when malformed. */
export function normaliseChecksum(value: string): string | null {
  return CHECKSUM.exec(value.trim())?.[1].toLowerCase() ?? null;
}

export const formatChecksum = (hex: string): string => `sha256:${hex}`;
