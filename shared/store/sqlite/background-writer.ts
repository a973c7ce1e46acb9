import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { DistributionEvent } from '../models';
import { BackgroundOperation, BackgroundReply, runOperation } from './background-operations';
import type { CheckColumns } from './check-columns';
import { eventRow, eventWrites, EventWrites } from './event-writes';
import type { ClaimedChecks, CountRow, SeenRow } from './check-rollup';

const WRITE_THREAD = path.join(__dirname, 'write-thread.js');
const CHECKPOINT_THREAD = path.join(__dirname, 'checkpoint-thread.js');
const CHECKPOINT_EVERY_MS = 250;
const STOP_TIMEOUT_MS = 5_000;
const JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

interface Pending {
  operation: BackgroundOperation;
  resolve(result: unknown): void;
  reject(error: Error): void;
  /** Settles with the operation, for stop() to wait on. */
  done: Promise<unknown>;
}

/**
 * Runs the store's event writes and rollup folds on one thread and WAL checkpoints on another, each
 * with its own connection. On the serving connection they would hold the event loop: a download's
 * event is a commit, and SQLite otherwise checkpoints inside whichever commit crosses 1000 pages,
 * copying pages and syncing the file while every request waits. Callers still wait for the commit,
 * so an event is stored before its request is answered. If either thread fails, the serving
 * connection does all of it again itself, starting with what the write thread had not answered
 * (both writes are safe to repeat: events by id, folds atomically).
 */
export class BackgroundWriter {
  private thread: Worker | undefined;
  private checkpointer: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private inline: EventWrites | undefined;

  /** `file` ':memory:' has no file for a second connection to share: everything runs inline. */
  constructor(private readonly db: Database.Database, file: string) {
    if (file === ':memory:') return;
    db.pragma('wal_autocheckpoint = 0');
    // The WAL file is cut back to this size whenever it starts over.
    db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
    this.thread = this.spawn(WRITE_THREAD, { file });
    this.thread.on('message', (reply: BackgroundReply) => this.settle(reply));
    this.checkpointer = this.spawn(CHECKPOINT_THREAD, { file, checkpointEveryMs: CHECKPOINT_EVERY_MS });
  }

  private spawn(script: string, workerData: Record<string, unknown>): Worker {
    const thread = new Worker(script, { workerData });
    thread.on('error', () => this.fallBack());
    thread.on('exit', () => this.fallBack());
    // Only a write in flight keeps the process alive; an idle thread must not.
    thread.unref();
    return thread;
  }

  /** True while the thread does the work (false once it has failed or stopped). */
  get threaded(): boolean {
    return this.thread !== undefined;
  }

  insertEvents(events: DistributionEvent[]): Promise<void> {
    return this.perform({ op: 'insertEvents', rows: events.map(eventRow) }) as Promise<void>;
  }

  insertChecks(checks: CheckColumns): Promise<void> {
    return this.perform({ op: 'insertChecks', checks }) as Promise<void>;
  }

  claimChecks(limit: number): Promise<ClaimedChecks | null> {
    return this.perform({ op: 'claimChecks', limit }) as Promise<ClaimedChecks | null>;
  }

  finishChecks(batchId: string, counts: CountRow[], seen: SeenRow[]): Promise<boolean> {
    return this.perform({ op: 'finishChecks', batchId, counts, seen }) as Promise<boolean>;
  }

  rollupEvents(limit: number): Promise<number> {
    return this.perform({ op: 'rollupEvents', limit }) as Promise<number>;
  }

  /** Lets the write thread finish what it was given, then takes a last checkpoint; both connections close. */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.pending.values()].map((pending) => pending.done));
    const threads = [this.thread, this.checkpointer];
    this.thread = undefined;
    this.checkpointer = undefined;
    for (const thread of threads) if (thread) await stopThread(thread);
  }

  private perform(operation: BackgroundOperation): Promise<unknown> {
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
    if ('error' in reply) pending.reject(threadError(reply));
    else pending.resolve(reply.result);
  }

  private runInline(operation: BackgroundOperation): unknown {
    this.inline ??= eventWrites(this.db);
    return runOperation(this.inline, operation);
  }

  /** A thread is gone: the serving connection takes over, checkpoints included, and the other thread stops. */
  private fallBack(): void {
    if (!this.thread || !this.db.open) return;
    const survivors = [this.thread, this.checkpointer];
    this.thread = undefined;
    this.checkpointer = undefined;
    this.db.pragma('wal_autocheckpoint = 1000');
    process.emitWarning('a SQLite background thread stopped; event writes, folds and checkpoints now run on the event loop');
    for (const thread of survivors) void thread?.terminate();
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

/** The thread's error as the serving connection would have raised it, SQLite's code included. */
function threadError(reply: { error: string; code?: string }): Error {
  return reply.code === undefined ? new Error(reply.error) : new Database.SqliteError(reply.error, reply.code);
}

async function stopThread(thread: Worker): Promise<void> {
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  thread.postMessage('stop');
  const timer = setTimeout(() => void thread.terminate(), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
