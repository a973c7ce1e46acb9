/**
 * The SQLite store's background thread (see background-writer.ts): its own connection to the same
 * file stores events, folds them into the daily counters, and checkpoints the WAL on a timer, so
 * none of that runs on the event loop that serves requests. workerData: { file, checkpointEveryMs }.
 * Requests: { id, op: 'insertEvents', rows } and { id, op: 'rollupEvents', limit }, answered with
 * { id, result } or { id, error }; 'stop' takes a last checkpoint, closes the connection and exits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { EventRow, eventWrites } from './event-writes';

export type BackgroundOperation = { op: 'insertEvents'; rows: EventRow[] } | { op: 'rollupEvents'; limit: number };
export type BackgroundRequest = BackgroundOperation & { id: number };
export type BackgroundReply = { id: number; result: unknown } | { id: number; error: string };

/** About 64 MB of 4 KiB pages. */
const RESTART_AT_FRAMES = 16_384;

const { file, checkpointEveryMs } = workerData as { file: string; checkpointEveryMs: number };
const db = new Database(file);
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
db.pragma('wal_autocheckpoint = 0');
const writes = eventWrites(db);

function checkpoint(): void {
  // PASSIVE: copies what no reader still needs, never waits for readers or writers.
  const [{ log }] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
  // Under steady writes a passive checkpoint never catches up, and SQLite only rewinds the WAL once
  // one has: a big WAL makes every read slower. RESTART holds writers back for the few frames
  // written since, so that the next write starts the WAL over.
  if (log > RESTART_AT_FRAMES) db.pragma('wal_checkpoint(RESTART)');
}

function run(request: BackgroundRequest): unknown {
  if (request.op === 'insertEvents') return writes.insertEvents(request.rows);
  return writes.rollupEvents(request.limit);
}

const timer = setInterval(checkpoint, checkpointEveryMs);
parentPort?.on('message', (message: BackgroundRequest | 'stop') => {
  if (message === 'stop') {
    clearInterval(timer);
    try {
      checkpoint();
    } finally {
      db.close();
      parentPort?.close();
    }
    return;
  }
  let reply: BackgroundReply;
  try {
    reply = { id: message.id, result: run(message) };
  } catch (error) {
    reply = { id: message.id, error: (error as Error).message };
  }
  parentPort?.postMessage(reply);
});
