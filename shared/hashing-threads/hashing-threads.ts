import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Digester, DigesterOf, DigestKind, FILE_DIGESTS, FileDigester, Hashing } from '../hashing';
import type { FromHashThread, HashThreadData, ToHashThread } from './messages';
import { LaneThread, newRing, RingSize, ThreadedDigester } from './threaded-digester';

const THREAD_ENTRY = path.join(__dirname, 'hash-thread.js');

/** At most this many threads by default, however many cores: two files' digests at once on their own cores. */
const MAX_DEFAULT_THREADS = 4;

/** One thread per core up to MAX_DEFAULT_THREADS; none on one core, where threads buy nothing. */
export function defaultHashingThreads(): number {
  const cores = os.availableParallelism();
  return cores > 1 ? Math.min(cores, MAX_DEFAULT_THREADS) : 0;
}

/** Each file's ring: the copy runs up to 4 MiB ahead of the slower digest, and the threads are woken every 512 KiB. */
const RING: RingSize = { capacity: 4 * 1024 * 1024, batch: 512 * 1024 };

/** Rings kept for the next files once theirs are hashed: a fresh one costs its pages' first touch. */
const IDLE_RINGS = 2;

/** A hashing thread stopped before it answered: the digests of its files are lost. */
export class HashingThreadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HashingThreadError';
  }
}

/**
 * Hashing threads shared by every file a process hashes: each file's SHA-256 and SHA-512 (or the
 * kinds a caller asks for, such as an update signature's BLAKE2b-512 prehash) are computed one
 * thread per digest, in parallel with each other and with the event loop, which only copies the
 * bytes into the file's ring (ThreadedDigester). Threads start with the first file and keep the
 * process alive only while they hash. A thread that stops fails the digests it was computing (their
 * bytes are gone) and is replaced for the next file; a thread that cannot start at all leaves the
 * digests to the calling thread from then on. With no threads (HASHING_THREADS=0, or one core) every
 * digest is computed on the calling thread.
 */
export class HashingThreads implements Hashing {
  private readonly threads: (HashThread | undefined)[];
  private readonly ring: RingSize;
  private readonly entry: string;
  private readonly onUnavailable: (error: Error) => void;
  private readonly idleRings: SharedArrayBuffer[] = [];
  private nextFile = 0;
  private nextLane = 0;
  private closed = false;
  /** Why threads cannot be used: set by a thread that failed to start. */
  private unavailable: Error | undefined;

  /**
   * `threads`: how many (0: every digest in process; by default defaultHashingThreads()). `onUnavailable`: told once when a thread could not start. `entry`: the
   * thread's script, for tests of a thread that fails.
   */
  constructor(options: { threads?: number; ring?: RingSize; onUnavailable?: (error: Error) => void; entry?: string } = {}) {
    this.threads = new Array(options.threads ?? defaultHashingThreads()).fill(undefined);
    this.ring = options.ring ?? RING;
    this.entry = options.entry ?? THREAD_ENTRY;
    this.onUnavailable = options.onUnavailable ?? (() => undefined);
  }

  digester(): Digester {
    return this.digesterOf(FILE_DIGESTS);
  }

  digesterOf<N extends string>(kinds: readonly DigestKind<N>[]): DigesterOf<N> {
    if (this.threads.length === 0 || this.unavailable || this.closed) return new FileDigester(kinds);
    // Files alternate which thread takes which digest, so files hashed at once share the threads' work.
    const first = this.nextFile++;
    const threads = kinds.map((_, i) => this.thread((first + i) % this.threads.length));
    const ring = this.idleRings.pop() ?? newRing(this.ring);
    const digester = new ThreadedDigester(ring, this.ring, kinds, threads, this.nextLane, (done) => {
      if (this.idleRings.length < IDLE_RINGS && !this.closed) this.idleRings.push(done);
    });
    this.nextLane += kinds.length;
    return digester;
  }

  /** The threads running now (none before the first file, or after close). */
  running(): Worker[] {
    return this.threads.flatMap((thread) => (thread ? [thread.worker] : []));
  }

  /** Stops every thread; digests they were computing fail. Later files are hashed in process. */
  async close(): Promise<void> {
    this.closed = true;
    this.idleRings.length = 0;
    const stopping = this.threads.map((thread) => thread?.stop());
    this.threads.fill(undefined);
    await Promise.all(stopping);
  }

  private thread(index: number): HashThread {
    const existing = this.threads[index];
    if (existing) return existing;
    const thread = new HashThread(this.entry, (error, started) => {
      if (this.threads[index] === thread) this.threads[index] = undefined;
      if (started || this.closed || this.unavailable) return;
      this.unavailable = error;
      this.onUnavailable(error);
    });
    this.threads[index] = thread;
    return thread;
  }
}

/** One hashing thread, as the pool and the digesters see it. */
class HashThread implements LaneThread {
  readonly worker: Worker;
  private readonly doorbell = new Int32Array(new SharedArrayBuffer(4));
  private readonly waiting = new Map<number, { resolve(digest: string): void; reject(error: Error): void }>();
  private started = false;
  private stopping = false;
  private error: Error | undefined;

  /** `onStop`: the thread has exited; `started` tells whether it ever ran. */
  constructor(entry: string, onStop: (error: Error, started: boolean) => void) {
    this.worker = new Worker(entry, { workerData: { doorbell: this.doorbell.buffer as SharedArrayBuffer } satisfies HashThreadData });
    // Only lanes in progress keep the process alive (see expect).
    this.worker.unref();
    this.worker.on('message', (message: FromHashThread) => {
      if (message.kind === 'ready') {
        this.started = true;
        return;
      }
      const answer = this.waiting.get(message.lane);
      if (this.waiting.delete(message.lane) && this.waiting.size === 0) this.worker.unref();
      answer?.resolve(message.kind === 'digest' ? message.digest : '');
    });
    this.worker.on('error', (error) => (this.error ??= error));
    this.worker.on('exit', (code) => {
      const error = this.stopping
        ? new HashingThreadError('the hashing threads were closed')
        : new HashingThreadError(`a hashing thread stopped (exit code ${code}${this.error ? `: ${this.error.message}` : ''})`);
      const answers = [...this.waiting.values()];
      this.waiting.clear();
      for (const answer of answers) answer.reject(error);
      onStop(error, this.started);
    });
  }

  send(message: ToHashThread): void {
    this.worker.postMessage(message);
    this.wake();
  }

  wake(): void {
    Atomics.add(this.doorbell, 0, 1);
    Atomics.notify(this.doorbell, 0);
  }

  expect(lane: number, answer: { resolve(digest: string): void; reject(error: Error): void }): void {
    if (this.waiting.size === 0) this.worker.ref();
    this.waiting.set(lane, answer);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.worker.terminate();
  }
}
