import { BinaryToTextEncoding, createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';

/**
 * Takes bytes chunk by chunk. `update` has used the chunk (hashed or copied it) when it returns, or
 * once the promise it returns resolves: the caller may then reuse the chunk's buffer. A promise also
 * asks the caller to wait before the next chunk (backpressure from a hashing thread).
 */
export interface ChunkSink {
  update(chunk: Buffer): void | Promise<void>;
}

/** The digests kept for a file: SHA-256 as hex (our checksum), SHA-512 as base64 (what electron-updater and Squirrel check). */
export interface FileDigests {
  sha256: string;
  sha512: string;
}

/** How each of a file's digests is computed and written down; hashing threads compute the same. */
export const FILE_DIGESTS: readonly { name: keyof FileDigests; encoding: BinaryToTextEncoding }[] = [
  { name: 'sha256', encoding: 'hex' },
  { name: 'sha512', encoding: 'base64' },
];

/** Computes both of a file's digests from one pass over its bytes. */
export interface Digester extends ChunkSink {
  /**
   * Where the digester has memory of its own the bytes go through (a hashing thread's ring): reads
   * the rest of the file straight into it, reads of at most `chunkBytes`. Instead of update, not
   * besides it.
   */
  readFile?(handle: FileHandle, chunkBytes: number): Promise<void>;
  /** Once only, after the last chunk. */
  digest(): Promise<FileDigests>;
  /** Drops what was hashed so far, for bytes that will not be finished (a refused upload). Harmless after digest(). */
  abort(): void;
}

/** Where digests are computed: on the calling thread (hashInProcess) or on hashing threads (HashingThreads). */
export interface Hashing {
  digester(): Digester;
}

/** Both digests on the calling thread, each chunk hashed before update returns. */
export class FileDigester implements Digester {
  private readonly hashes = FILE_DIGESTS.map(({ name, encoding }) => ({ name, encoding, hash: createHash(name) }));

  update(chunk: Buffer): void {
    for (const { hash } of this.hashes) hash.update(chunk);
  }

  /** node:crypto refuses a second digest. */
  async digest(): Promise<FileDigests> {
    return Object.fromEntries(this.hashes.map(({ name, encoding, hash }) => [name, hash.digest(encoding)])) as unknown as FileDigests;
  }

  abort(): void {}
}

export const hashInProcess: Hashing = { digester: () => new FileDigester() };

/** Feeds a stream to `sink` chunk by chunk: memory stays flat whatever the size. */
export async function feedStream(stream: Readable, sink: ChunkSink): Promise<void> {
  for await (const chunk of stream) await sink.update(chunk as Buffer);
}

/**
 * Feeds an open file to `sink` through two buffers allocated once, the next read running while the
 * current chunk is taken. A stream would allocate a fresh buffer per chunk, and touching that much
 * new memory costs as much as the hashing itself on hosts that reclaim an idle process's freed
 * pages.
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
    const taking = sink.update(filled.subarray(0, bytesRead));
    if (taking) await taking;
  }
}

/** Both digests of a stream, in one pass; the digester is aborted when the stream fails. */
export async function digestsOfStream(stream: Readable, digester: Digester): Promise<FileDigests> {
  return digestAfter(digester, feedStream(stream, digester));
}

/**
 * Both digests of an open file, in one pass: read straight into the digester's memory where it has
 * any, else through reused buffers. The digester is aborted when a read fails.
 */
export async function digestsOfFile(handle: FileHandle, chunkBytes: number, digester: Digester): Promise<FileDigests> {
  return digestAfter(digester, digester.readFile ? digester.readFile(handle, chunkBytes) : feedFileThroughReusedBuffers(handle, chunkBytes, digester));
}

async function digestAfter(digester: Digester, fed: Promise<void>): Promise<FileDigests> {
  try {
    await fed;
  } catch (error) {
    digester.abort();
    throw error;
  }
  return digester.digest();
}

const CHECKSUM = /^(?:sha256:)?([0-9a-f]{64})$/i;

/** Lowercase hex of a checksum given as `sha256:<hex>` or bare hex in any case; null when malformed. */
export function normaliseChecksum(value: string): string | null {
  return CHECKSUM.exec(value.trim())?.[1].toLowerCase() ?? null;
}

export const formatChecksum = (hex: string): string => `sha256:${hex}`;
