import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { WorkerDeps } from '../worker-deps';

/** Small batches: each is one synchronous transaction on SQLite, so this bounds how long it holds the event loop. */
const BATCH = 500;
/** Bounds one run so a backlog is worked off across runs instead of holding the job for long. */
const MAX_BATCHES_PER_RUN = 200;

/** Folds stored download events into daily counters; the store makes each batch idempotent. */
export async function rollupEvents(_job: unknown, deps: WorkerDeps): Promise<number> {
  let folded = 0;
  for (let i = 0; i < MAX_BATCHES_PER_RUN; i += 1) {
    const count = await deps.store.activity.rollupEvents(BATCH);
    folded += count;
    if (count < BATCH) break;
    // Let requests sharing this process run between batches.
    await yieldToEventLoop();
  }
  return folded;
}
