import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { rollupChecks } from '../../shared/adoption/rollup-checks';
import { foldFunnelChecks } from '../../shared/rollouts/fold-funnel-checks';
import {
  CHECK_EVENT_PURGE_BATCH, CHECK_ROLLUP_BATCH, CHECK_ROLLUP_MAX_BATCHES_PER_RUN, UPDATE_REPORT_PURGE_BATCH, UPDATE_REPORT_RETENTION_MS,
} from '../../shared/policy';
import type { WorkerDeps } from '../worker-deps';
import { DAY_MS } from '../../shared/durations';


/** Folds update-check events into the adoption counters, batch after batch; each batch counts once (rollup-checks.ts). */
export async function rollupUpdateChecks(_job: unknown, deps: WorkerDeps): Promise<number> {
  let folded = 0;
  for (let i = 0; i < CHECK_ROLLUP_MAX_BATCHES_PER_RUN; i += 1) {
    const count = await rollupChecks(deps.store, deps.redis, deps.config.redisPrefix, CHECK_ROLLUP_BATCH);
    folded += count;
    if (count < CHECK_ROLLUP_BATCH) break;
    // Let requests sharing this process run between batches.
    await yieldToEventLoop();
  }
  return folded;
}

/** Folds update-check events into the update funnel, batch after batch (fold-funnel-checks.ts). */
export async function foldUpdateFunnel(_job: unknown, deps: WorkerDeps): Promise<number> {
  let folded = 0;
  for (let i = 0; i < CHECK_ROLLUP_MAX_BATCHES_PER_RUN; i += 1) {
    const count = await foldFunnelChecks(deps.store, CHECK_ROLLUP_BATCH);
    folded += count;
    if (count < CHECK_ROLLUP_BATCH) break;
    await yieldToEventLoop();
  }
  return folded;
}

/** Deletes update reports older than their retention, a batch at a time. */
export async function purgeUpdateReports(_job: unknown, deps: WorkerDeps): Promise<number> {
  const before = new Date(deps.clock.now() - UPDATE_REPORT_RETENTION_MS);
  let purged = 0;
  for (;;) {
    const count = await deps.store.funnel.purgeUpdateReports(before, UPDATE_REPORT_PURGE_BATCH);
    purged += count;
    if (count < UPDATE_REPORT_PURGE_BATCH) return purged;
    await yieldToEventLoop();
  }
}

/** Deletes rolled-up check events older than the retention; the counters they made stay. */
export async function purgeCheckEvents(_job: unknown, deps: WorkerDeps): Promise<number> {
  const before = new Date(Date.now() - deps.config.checkEventRetentionDays * DAY_MS);
  let purged = 0;
  for (;;) {
    const count = await deps.store.adoption.purgeCheckEvents(before, CHECK_EVENT_PURGE_BATCH);
    purged += count;
    if (count < CHECK_EVENT_PURGE_BATCH) return purged;
    await yieldToEventLoop();
  }
}
