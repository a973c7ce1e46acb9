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

function checkpoint(): void {
  // PASSIVE: copies what no reader still needs, never waits for readers or writers.
  db.pragma('wal_checkpoint(PASSIVE)');
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
