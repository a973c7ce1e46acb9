import type { FileHandle } from 'node:fs/promises';
import type { DigesterOf, DigestKind, Digests } from '../hashing';
import { HASHED_CELLS, RING_HEADER_BYTES, ToHashThread, WRITTEN_CELL } from './messages';

/** A hashing thread as a digester uses it. */
export interface LaneThread {
  /** Posts the message and rings the thread's doorbell. */
  send(message: ToHashThread): void;
  /** Rings the thread's doorbell: bytes were copied. */
  wake(): void;
  /** Waits for the lane's answer (its digest, or '' once dropped); `reject` is called instead when the thread stops first. */
  expect(lane: number, answer: { resolve(digest: string): void; reject(error: Error): void }): void;
}

export interface RingSize {
  /** Bytes of a ring: how far the copying may run ahead of the slower digest. */
  capacity: number;
  /** Bytes copied before the threads are woken to hash them; also the room a full ring must make before copying resumes. */
  batch: number;
}

/** A ring's SharedArrayBuffer: the header cells, then `capacity` bytes. */
export const newRing = (size: RingSize): SharedArrayBuffer => new SharedArrayBuffer(RING_HEADER_BYTES + size.capacity);

/**
 * How long one wait for room in the ring lasts before it looks again: a waiter whose thread stopped
 * is released by the thread's failure, this only bounds how long a waiter the runtime forgot lives.
 */
const WAIT_FOR_ROOM_MS = 1000;

type WaitAsync = (cells: Int32Array, index: number, value: number, timeoutMs: number) =>
  { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };

/** Atomics.waitAsync (in Node since 16), which the ES2022 library types lack. */
const waitAsync: WaitAsync = (cells, index, value, timeoutMs) => (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync(cells, index, value, timeoutMs);

interface Lane {
  id: number;
  cell: number;
  thread: LaneThread;
  answer: Promise<string>;
}

/**
 * Digests of one file (its kept SHA-256 and SHA-512, or another set of kinds), each computed by a
 * hashing thread: update copies the chunk into the ring
 * and returns, unless the ring is full, when it returns a promise that resolves once the chunk is
 * in. The threads hash while the caller goes on (writing the file, reading the next chunk). Once
 * every lane has answered (digest or abort), `release` gets the ring back for another file; a ring
 * whose thread stopped is never used again.
 */
export class ThreadedDigester<N extends string> implements DigesterOf<N> {
  /** A Buffer over the ring's bytes (see copy for how they are written). */
  private readonly bytes: Buffer;
  private readonly cells: Int32Array;
  private readonly lanes: Lane[];
  private readonly threads: LaneThread[];
  private written = 0;
  /** `written` when the threads were last woken. */
  private woken = 0;
  private ended = false;
  private failure: Error | undefined;
  private readonly failed: Promise<never>;
  private fail!: (error: Error) => void;

  constructor(
    ring: SharedArrayBuffer,
    private readonly size: RingSize,
    private readonly kinds: readonly DigestKind<N>[],
    threads: readonly LaneThread[],
    firstLaneId: number,
    release: (ring: SharedArrayBuffer) => void,
  ) {
    if (threads.length !== kinds.length) throw new Error(`one thread per digest: ${kinds.length} expected`);
    this.bytes = Buffer.from(ring, RING_HEADER_BYTES, size.capacity);
    this.cells = new Int32Array(ring, 0, RING_HEADER_BYTES / 4);
    this.cells.fill(0);
    this.threads = [...new Set(threads)];
    this.failed = new Promise<never>((_, reject) => {
      this.fail = (error) => {
        this.failure ??= error;
        reject(this.failure);
      };
    });
    this.failed.catch(() => undefined);
    this.lanes = kinds.map(({ algorithm, encoding, seed }, cell) => {
      const id = firstLaneId + cell;
      const thread = threads[cell];
      const answer = new Promise<string>((resolve, reject) => {
        thread.expect(id, {
          resolve,
          reject: (error) => {
            this.fail(error);
            reject(error);
          },
        });
      });
      answer.catch(() => undefined);
      thread.send({ kind: 'start', lane: id, ring, cell, algorithm, encoding, seed });
      return { id, cell: HASHED_CELLS + cell, thread, answer };
    });
    Promise.all(this.lanes.map((lane) => lane.answer)).then(() => release(ring), () => undefined);
  }

  update(chunk: Buffer): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (this.ended) return Promise.reject(new Error('the digester has ended'));
    const copied = this.copy(chunk, 0);
    if (this.written - this.woken >= this.size.batch) this.wake();
    return copied === chunk.length ? undefined : this.copyWhenThereIsRoom(chunk, copied);
  }

  /**
   * The file's bytes, read a chunk at a time into one reused buffer and copied into the ring as room is
   * made. Reading straight into the ring (saving that copy) gave wrong digests now and then with a ring
   * smaller than a read (test/unit/hashing.test.ts, about one file in ten under load), so every byte
   * goes through the one copy path `update` uses.
   */
  async readFile(handle: FileHandle, chunkBytes: number): Promise<void> {
    if (this.ended) throw new Error('the digester has ended');
    const chunk = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      // The chunk is read into again only once update has taken all of it.
      const copying = this.update(chunk.subarray(0, bytesRead));
      if (copying) await copying;
    }
  }

  async digest(): Promise<Digests<N>> {
    if (this.failure) throw this.failure;
    if (this.ended) throw new Error('the digester has ended');
    this.ended = true;
    for (const lane of this.lanes) lane.thread.send({ kind: 'end', lane: lane.id });
    const digests = await Promise.all(this.lanes.map((lane) => lane.answer));
    return Object.fromEntries(this.kinds.map(({ name }, i) => [name, digests[i]])) as Digests<N>;
  }

  abort(): void {
    if (this.ended) return;
    this.ended = true;
    for (const lane of this.lanes) lane.thread.send({ kind: 'drop', lane: lane.id });
  }

  /**
   * Copies what fits of chunk from `offset`; returns the offset reached. Buffer#fill with a value as
   * long as the region is one memcpy; Buffer#copy and TypedArray#set copy into shared memory a word
   * at a time, a quarter slower.
   */
  private copy(chunk: Buffer, offset: number): number {
    const capacity = this.size.capacity;
    let room = capacity - this.unhashed();
    if (room === 0) return offset;
    while (offset < chunk.length && room > 0) {
      const at = this.written % capacity;
      const length = Math.min(chunk.length - offset, room, capacity - at);
      this.bytes.fill(chunk.subarray(offset, offset + length), at, at + length);
      offset += length;
      room -= length;
      this.written += length;
    }
    Atomics.store(this.cells, WRITTEN_CELL, this.written | 0);
    return offset;
  }

  private async copyWhenThereIsRoom(chunk: Buffer, offset: number): Promise<void> {
    while (offset < chunk.length) {
      await this.room();
      offset = this.copy(chunk, offset);
    }
    if (this.written - this.woken >= this.size.batch) this.wake();
  }

  /** Resolves once the slowest lane has left a batch of room (or a thread has failed: rejects). */
  private async room(): Promise<void> {
    this.wake();
    for (;;) {
      if (this.failure) throw this.failure;
      const slowest = this.slowestLane();
      const observed = Atomics.load(this.cells, slowest.cell);
      if (this.size.capacity - ((this.written - observed) >>> 0) >= this.size.batch) return;
      const waiting = waitAsync(this.cells, slowest.cell, observed, WAIT_FOR_ROOM_MS);
      if (waiting.async) await Promise.race([waiting.value, this.failed]);
    }
  }

  /** Bytes copied that some lane has not hashed yet. */
  private unhashed(): number {
    let most = 0;
    for (const lane of this.lanes) most = Math.max(most, (this.written - Atomics.load(this.cells, lane.cell)) >>> 0);
    return most;
  }

  private slowestLane(): Lane {
    let slowest = this.lanes[0];
    let most = -1;
    for (const lane of this.lanes) {
      const behind = (this.written - Atomics.load(this.cells, lane.cell)) >>> 0;
      if (behind > most) [slowest, most] = [lane, behind];
    }
    return slowest;
  }

  private wake(): void {
    if (this.written === this.woken) return;
    this.woken = this.written;
    for (const thread of this.threads) thread.wake();
  }
}
