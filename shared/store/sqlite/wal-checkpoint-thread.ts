/**
 * Runs in a worker thread next to a SqliteStore: its own connection to the same file checkpoints the
 * WAL on a timer, so the copying and the fsync it involves never run on the event loop that serves
 * requests. workerData: { file, intervalMs }. The message 'stop' runs a last checkpoint and exits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const db = new Database(file);
db.pragma('busy_timeout = 5000');

/** About 64 MB of 4 KiB pages. */
const RESTART_AT_FRAMES = 16_384;

function checkpoint(): void {
  // PASSIVE: copies what no reader still needs, never waits for readers or writers.
  const [{ log }] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
  // Under steady writes a passive checkpoint never catches up, and SQLite only rewinds the WAL once
  // one has: a big WAL makes every read slower. RESTART holds writers back for the few frames
  // written since, so that the next write starts the WAL over.
  if (log > RESTART_AT_FRAMES) db.pragma('wal_checkpoint(RESTART)');
}

const timer = setInterval(checkpoint, intervalMs);
parentPort?.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  try {
    checkpoint();
  } finally {
    db.close();
    parentPort?.close();
  }
});
