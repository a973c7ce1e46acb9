import { BinaryToTextEncoding, createHash, Hash } from 'node:crypto';
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

/**
 * The digests kept for a file: SHA-256 as hex (our checksum), SHA-512 as base64 (what electron-updater
 * and Squirrel.Mac check), SHA-1 as hex (what Squirrel.Windows' RELEASES and Velopack's feed list).
 */
export interface FileDigests {
  sha256: string;
  sha512: string;
  sha1: string;
}

/** One digest of a file: its name in the result, the node:crypto algorithm, and how it is written down. */
export interface DigestKind<N extends string = string> {
  name: N;
  algorithm: string;
  encoding: BinaryToTextEncoding;
  /** Bytes hashed before the file's (an Ed25519 challenge hashes R || A || M); none when left out. */
  seed?: Uint8Array;
}

/** Digests by name, as a digester of those kinds answers them. */
export type Digests<N extends string> = { [K in N]: string };

/** How each of a file's kept digests is computed and written down; hashing threads compute the same. */
export const FILE_DIGESTS: readonly DigestKind<keyof FileDigests>[] = [
  { name: 'sha256', algorithm: 'sha256', encoding: 'hex' },
  { name: 'sha512', algorithm: 'sha512', encoding: 'base64' },
  { name: 'sha1', algorithm: 'sha1', encoding: 'hex' },
];

/** Computes a file's digests of some kinds from one pass over its bytes. */
export interface DigesterOf<N extends string> extends ChunkSink {
  /**
   * Where the digester has memory of its own the bytes go through (a hashing thread's ring): reads
   * the rest of the file straight into it, reads of at most `chunkBytes`. Instead of update, not
   * besides it.
   */
  readFile?(handle: FileHandle, chunkBytes: number): Promise<void>;
  /** Once only, after the last chunk. */
  digest(): Promise<Digests<N>>;
  /** Drops what was hashed so far, for bytes that will not be finished (a refused upload). Harmless after digest(). */
  abort(): void;
}

/** Computes both of a file's kept digests (FILE_DIGESTS) from one pass over its bytes. */
export type Digester = DigesterOf<keyof FileDigests>;

/** Where digests are computed: on the calling thread (hashInProcess) or on hashing threads (HashingThreads). */
export interface Hashing {
  /** The kept digests, FILE_DIGESTS. */
  digester(): Digester;
  /** Digests of other kinds (an update signature's BLAKE2b-512 prehash), computed in the same place. */
  digesterOf<N extends string>(kinds: readonly DigestKind<N>[]): DigesterOf<N>;
}

/** Digests on the calling thread, each chunk hashed before update returns. */
export class FileDigester<N extends string = keyof FileDigests> implements DigesterOf<N> {
  private readonly hashes: { name: N; encoding: BinaryToTextEncoding; hash: Hash }[];

  constructor(kinds: readonly DigestKind<N>[] = FILE_DIGESTS as unknown as readonly DigestKind<N>[]) {
    this.hashes = kinds.map(({ name, algorithm, encoding, seed }) => {
      const hash = createHash(algorithm);
      if (seed) hash.update(seed);
      return { name, encoding, hash };
    });
  }

  update(chunk: Buffer): void {
    for (const { hash } of this.hashes) hash.update(chunk);
  }

  /** node:crypto refuses a second digest. */
  async digest(): Promise<Digests<N>> {
    return Object.fromEntries(this.hashes.map(({ name, encoding, hash }) => [name, hash.digest(encoding)])) as Digests<N>;
  }

  abort(): void {}
}

export const hashInProcess: Hashing = { digester: () => new FileDigester(), digesterOf: (kinds) => new FileDigester(kinds) };

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

/** The digester's digests of a stream, in one pass; the digester is aborted when the stream fails. */
export async function digestsOfStream<N extends string>(stream: Readable, digester: DigesterOf<N>): Promise<Digests<N>> {
  return digestAfter(digester, feedStream(stream, digester));
}

/**
 * The digester's digests of an open file, in one pass: read straight into the digester's memory
 * where it has any, else through reused buffers. The digester is aborted when a read fails.
 */
export async function digestsOfFile<N extends string>(handle: FileHandle, chunkBytes: number, digester: DigesterOf<N>): Promise<Digests<N>> {
  return digestAfter(digester, digester.readFile ? digester.readFile(handle, chunkBytes) : feedFileThroughReusedBuffers(handle, chunkBytes, digester));
}

async function digestAfter<N extends string>(digester: DigesterOf<N>, fed: Promise<void>): Promise<Digests<N>> {
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
