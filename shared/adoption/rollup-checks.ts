import type { Redis } from 'ioredis';
import { INSTALL_SKETCH_TTL_SECONDS } from '../policy';
import type { AdoptionCount } from '../store/models';
import type { Store } from '../store/store';
import { counterParts, CounterPart } from './adoption-counts';

/**
 * Folds one batch of update checks into the adoption counters:
 * 1. claim a batch of checks not yet rolled up, grouped by day and selection by the store (which
 *    gives an unfinished batch first);
 * 2. add each counter's install hashes to that day's HyperLogLog in Redis (PFADD) and read its
 *    estimate (PFCOUNT): adding a hash twice changes nothing, so a repeated batch estimates the same;
 * 3. finish the batch in the store: checks added once per batch, installs raised to the estimate,
 *    customers' last reports moved forward.
 * A worker killed anywhere repeats from 1 with the same batch, and nothing counts twice. The store
 * keeps the estimates, so a flushed Redis loses no rolled-up figure (a day still being counted
 * then starts its sketch again and keeps the larger of the two estimates).
 * Returns how many checks the batch held (0: nothing to do).
 */
export async function rollupChecks(store: Store, redis: Redis, keyPrefix: string, limit: number): Promise<number> {
  const batch = await store.adoption.claimCheckBatch(limit);
  if (!batch) return 0;
  const parts = counterParts(batch.groups);
  const estimates = await estimateInstalls(redis, keyPrefix, parts);
  const counts: AdoptionCount[] = parts.map((part, i) => ({ ...part.count, installs: estimates[i] }));
  await store.adoption.finishCheckBatch(batch.batchId, counts, batch.reports);
  return batch.checks;
}

/** One pipeline: each counter's PFADD, EXPIRE and PFCOUNT, in that order. */
async function estimateInstalls(redis: Redis, keyPrefix: string, parts: CounterPart[]): Promise<number[]> {
  const pipeline = redis.pipeline();
  for (const part of parts) {
    const key = `${keyPrefix}:installs:${part.key}`;
    pipeline.pfadd(key, ...part.hashes);
    pipeline.expire(key, INSTALL_SKETCH_TTL_SECONDS);
    pipeline.pfcount(key);
  }
  const replies = (await pipeline.exec()) ?? [];
  return parts.map((_, i) => {
    const [error, estimate] = replies[i * 3 + 2] ?? [new Error('no reply')];
    if (error) throw error;
    return estimate as number;
  });
}
