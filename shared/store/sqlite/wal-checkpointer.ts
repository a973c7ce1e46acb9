import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

const THREAD = path.join(__dirname, 'wal-checkpoint-thread.js');
const INTERVAL_MS = 250;
const STOP_TIMEOUT_MS = 5_000;
const JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Takes WAL checkpoints off the connection that serves requests. SQLite otherwise checkpoints inside
 * whichever commit crosses 1000 pages, which then copies pages and fsyncs the database file on the
 * event loop: a stall of tens of milliseconds for whichever requests wait behind that commit. A
 * thread of our own checkpoints every 250 ms instead; if it fails, the connection checkpoints for
 * itself again.
 */
export class WalCheckpointer {
  private readonly thread: Worker;
  private stopped = false;

  constructor(private readonly db: Database.Database, file: string) {
    db.pragma('wal_autocheckpoint = 0');
    // The WAL file is cut back to this size whenever it starts over.
    db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
    this.thread = new Worker(THREAD, { workerData: { file, intervalMs: INTERVAL_MS } });
    this.thread.unref();
    this.thread.on('error', () => this.fallBack());
    this.thread.on('exit', () => this.fallBack());
  }

  /** Lets the thread take a last checkpoint and close its connection. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const exited = new Promise<void>((resolve) => this.thread.once('exit', () => resolve()));
    this.thread.postMessage('stop');
    const timer = setTimeout(() => void this.thread.terminate(), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private fallBack(): void {
    if (this.stopped || !this.db.open) return;
    this.stopped = true;
    this.db.pragma('wal_autocheckpoint = 1000');
  }
}
