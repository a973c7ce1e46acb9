import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { DistributionEvent } from '../models';
import type { BackgroundOperation, BackgroundReply } from './background-thread';
import { eventRow, eventWrites, EventWrites } from './event-writes';

const THREAD = path.join(__dirname, 'background-thread.js');
const CHECKPOINT_EVERY_MS = 250;
const STOP_TIMEOUT_MS = 5_000;
const JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

type Operation = BackgroundOperation;

interface Pending {
  operation: Operation;
  resolve(result: unknown): void;
  reject(error: Error): void;
  /** Settles with the operation, for stop() to wait on. */
  done: Promise<unknown>;
}

/**
 * Runs the store's event writes, rollup folds and WAL checkpoints on a thread with its own
 * connection. On the serving connection they would hold the event loop: a download's event is a
 * commit, and SQLite otherwise checkpoints inside whichever commit crosses 1000 pages, copying pages
 * and fsyncing the file while every request waits. Callers still wait for the commit, so an event is
 * stored before its request is answered. If the thread fails, the serving connection does all of
 * it again itself, starting with what the thread had not answered (both writes are safe to repeat:
 * events by id, folds atomically).
 */
export class BackgroundWriter {
  private thread: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private inline: EventWrites | undefined;

  /** `file` ':memory:' has no file for a second connection to share: everything runs inline. */
  constructor(private readonly db: Database.Database, file: string) {
    if (file === ':memory:') return;
    db.pragma('wal_autocheckpoint = 0');
    // The WAL file is cut back to this size whenever it starts over.
    db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
    const thread = new Worker(THREAD, { workerData: { file, checkpointEveryMs: CHECKPOINT_EVERY_MS } });
    thread.on('message', (reply: BackgroundReply) => this.settle(reply));
    thread.on('error', () => this.fallBack());
    thread.on('exit', () => this.fallBack());
    // Only a write in flight keeps the process alive; an idle thread must not.
    thread.unref();
    this.thread = thread;
  }

  /** True while the thread does the work (false once it has failed or stopped). */
  get threaded(): boolean {
    return this.thread !== undefined;
  }

  insertEvents(events: DistributionEvent[]): Promise<void> {
    return this.perform({ op: 'insertEvents', rows: events.map(eventRow) }) as Promise<void>;
  }

  rollupEvents(limit: number): Promise<number> {
    return this.perform({ op: 'rollupEvents', limit }) as Promise<number>;
  }

  /** Lets the thread finish what it was given, take a last checkpoint and close its connection. */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.pending.values()].map((pending) => pending.done));
    const thread = this.thread;
    if (!thread) return;
    this.thread = undefined;
    const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
    thread.postMessage('stop');
    const timer = setTimeout(() => void thread.terminate(), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private perform(operation: Operation): Promise<unknown> {
    if (!this.thread) return Promise.resolve().then(() => this.runInline(operation));
    const id = this.nextId++;
    let settle!: Pick<Pending, 'resolve' | 'reject'>;
    const done = new Promise((resolve, reject) => {
      settle = { resolve, reject };
    });
    this.pending.set(id, { operation, ...settle, done });
    if (this.pending.size === 1) this.thread.ref();
    this.thread.postMessage({ id, ...operation });
    return done;
  }

  private settle(reply: BackgroundReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.thread?.unref();
    if ('error' in reply) pending.reject(new Error(reply.error));
    else pending.resolve(reply.result);
  }

  private runInline(operation: Operation): unknown {
    this.inline ??= eventWrites(this.db);
    return operation.op === 'insertEvents' ? this.inline.insertEvents(operation.rows) : this.inline.rollupEvents(operation.limit);
  }

  /** The thread is gone: the serving connection takes over, checkpoints included. */
  private fallBack(): void {
    if (!this.thread || !this.db.open) return;
    this.thread = undefined;
    this.db.pragma('wal_autocheckpoint = 1000');
    process.emitWarning('the SQLite background thread stopped; event writes, folds and checkpoints now run on the event loop');
    const unanswered = [...this.pending.values()];
    this.pending.clear();
    for (const { operation, resolve, reject } of unanswered) {
      try {
        resolve(this.runInline(operation));
      } catch (error) {
        reject(error as Error);
      }
    }
  }
}
