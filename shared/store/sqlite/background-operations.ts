import type { CheckColumns } from './check-columns';
import type { CountRow, SeenRow } from './check-rollup';
import type { EventRow, EventWrites } from './event-writes';

/** What the store asks its write thread (or runs inline), with the id and the answer of each message. */
export type BackgroundOperation =
  | { op: 'insertEvents'; rows: EventRow[] }
  | { op: 'insertChecks'; checks: CheckColumns }
  | { op: 'claimChecks'; limit: number }
  | { op: 'finishChecks'; batchId: string; counts: CountRow[]; seen: SeenRow[] }
  | { op: 'rollupEvents'; limit: number };
export type BackgroundRequest = BackgroundOperation & { id: number };
export type BackgroundReply = { id: number; result: unknown } | { id: number; error: string; code?: string };

/** One operation on a connection's writes: the write thread's, or the serving connection's when that thread is gone. */
export function runOperation(writes: EventWrites, operation: BackgroundOperation): unknown {
  if (operation.op === 'insertEvents') return writes.insertEvents(operation.rows);
  if (operation.op === 'insertChecks') return writes.insertChecks(operation.checks);
  if (operation.op === 'claimChecks') return writes.checkRollup.claim(operation.limit);
  if (operation.op === 'finishChecks') return writes.checkRollup.finish(operation.batchId, operation.counts, operation.seen);
  return writes.rollupEvents(operation.limit);
}
