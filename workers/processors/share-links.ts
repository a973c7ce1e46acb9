import type { Job } from 'bullmq';
import type { JobPayloads } from '../../shared/queues/jobs';
import { SHARE_LINK_RETENTION_MS } from '../../shared/policy';
import type { WorkerDeps } from '../worker-deps';

const PURGE_BATCH = 500;

export async function expireShareLink(job: Job<JobPayloads['expire-share-link']>, deps: WorkerDeps): Promise<void> {
  await deps.store.shareLinks.markShareLinkExpired(job.data.tokenHash, new Date());
}

export async function purgeShareLinks(_job: unknown, deps: WorkerDeps): Promise<number> {
  const before = new Date(Date.now() - SHARE_LINK_RETENTION_MS);
  let purged = 0;
  for (;;) {
    const count = await deps.store.shareLinks.purgeShareLinks(before, PURGE_BATCH);
    purged += count;
    if (count < PURGE_BATCH) return purged;
  }
}
