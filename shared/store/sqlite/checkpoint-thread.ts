/**
 * The SQLite store's checkpoint thread (see background-writer.ts): its own connection copies the WAL
 * into the database file on a timer. A checkpoint copies pages and syncs the file, 10 ms and more
 * under load; on a thread of its own it runs alongside the event writes instead of holding them up
 * (a passive checkpoint needs no lock that a writer holds). workerData: { file, checkpointEveryMs }.
 * 'stop' takes a last checkpoint, closes the connection and exits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openThreadConnection } from './connection';

/** About 64 MB of 4 KiB pages. */
const RESTART_AT_FRAMES = 16_384;

const { file, checkpointEveryMs } = workerData as { file: string; checkpointEveryMs: number };
const db = openThreadConnection(file);

function checkpoint(): void {
  // PASSIVE: copies what no reader still needs, never waits for readers or writers.
  const [{ log }] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
  // Under steady writes a passive checkpoint never catches up, and SQLite only rewinds the WAL once
  // one has: a big WAL makes every read slower. RESTART holds writers back for the few frames
  // written since, so that the next write starts the WAL over.
  if (log > RESTART_AT_FRAMES) db.pragma('wal_checkpoint(RESTART)');
}

const timer = setInterval(checkpoint, checkpointEveryMs);
parentPort?.on('message', (message: 'stop') => {
  if (message !== 'stop') return;
  clearInterval(timer);
  try {
    checkpoint();
  } finally {
    db.close();
    parentPort?.close();
  }
});
