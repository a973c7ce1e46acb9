import type { WorkerDeps } from '../worker-deps';

const BATCH = 2_000;
/** Bounds one run so a backlog is worked off across runs instead of holding the job for long. */
const MAX_BATCHES_PER_RUN = 50;

/** Folds stored download events into daily counters; the store makes each batch idempotent. */
export async function rollupEvents(_job: unknown, deps: WorkerDeps): Promise<number> {
  let folded = 0;
  for (let i = 0; i < MAX_BATCHES_PER_RUN; i += 1) {
    const count = await deps.store.rollupEvents(BATCH);
    folded += count;
    if (count < BATCH) break;
  }
  return folded;
}
