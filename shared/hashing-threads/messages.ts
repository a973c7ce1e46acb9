import type { BinaryToTextEncoding } from 'node:crypto';

/**
 * What the main thread and a hashing thread share. A lane is one digest of one file (say its
 * SHA-512), hashed by one thread from the file's ring: a SharedArrayBuffer the main thread copies
 * the file's bytes into. Progress goes through the ring's header cells, without messages: how many
 * bytes have been copied (WRITTEN_CELL) and, per lane, how many its thread has hashed, both counted
 * from the file's first byte modulo 2^32. Each thread sleeps on its doorbell (an Int32 in a
 * SharedArrayBuffer of its own) until the main thread rings it: bytes copied, or a message posted.
 */
export const WRITTEN_CELL = 0;
/** The cell of a file's lane `i` is HASHED_CELLS + i. */
export const HASHED_CELLS = 1;
/** The header cells, padded so the bytes start on a cache line of their own. */
export const RING_HEADER_BYTES = 64;

export type ToHashThread =
  /** `seed`: bytes hashed before the ring's. */
  | { kind: 'start'; lane: number; ring: SharedArrayBuffer; cell: number; algorithm: string; encoding: BinaryToTextEncoding; seed?: Uint8Array }
  /** Every byte has been copied: hash what is left, answer the digest, and forget the lane. */
  | { kind: 'end'; lane: number }
  /** Forget the lane without a digest; answered once the thread no longer touches its ring. */
  | { kind: 'drop'; lane: number };

/** `ready` once the thread runs (a thread that never says it could not start). */
export type FromHashThread = { kind: 'ready' } | { kind: 'digest'; lane: number; digest: string } | { kind: 'dropped'; lane: number };

/** What a hashing thread is started with. */
export interface HashThreadData {
  doorbell: SharedArrayBuffer;
}
