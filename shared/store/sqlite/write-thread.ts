/**
 * The SQLite store's write thread (see background-writer.ts): its own connection to the same file
 * stores events and folds them into the daily counters, so neither runs on the event loop that
 * serves requests. Checkpoints are the checkpoint thread's. workerData: { file }.
 * Requests: { id, op: 'insertEvents', rows }, { id, op: 'insertChecks', checks }, { id, op: 'rollupEvents' | 'claimChecks', limit } and
 * { id, op: 'finishChecks', batchId, counts, seen }, answered with
 * { id, result } or { id, error, code } (code: SQLite's, when it raised the error); 'stop' closes the
 * connection and exits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openThreadConnection } from './connection';
import { eventWrites } from './event-writes';
import { BackgroundReply, BackgroundRequest, runOperation } from './background-operations';


const { file } = workerData as { file: string };
const db = openThreadConnection(file);
const writes = eventWrites(db);

function run(request: BackgroundRequest): unknown {
  return runOperation(writes, request);
}

parentPort?.on('message', (message: BackgroundRequest | 'stop') => {
  if (message === 'stop') {
    db.close();
    parentPort?.close();
    return;
  }
  let reply: BackgroundReply;
  try {
    reply = { id: message.id, result: run(message) };
  } catch (error) {
    reply = { id: message.id, error: (error as Error).message, code: (error as { code?: string }).code };
  }
  parentPort?.postMessage(reply);
});
