import type { Job } from 'bullmq';
import { JobPayloads, JOBS } from '../../shared/queues/jobs';
import { expireUploadSession } from '../../shared/uploads/expire-upload-session';
import { sweepStagingObjects } from '../../shared/uploads/sweep-staging-objects';
import type { WorkerDeps } from '../worker-deps';
import { settleFailedVerification } from './verify-upload';

const BATCH = 100;
/** Staging objects looked at per run, uploads in flight included: far more than are ever in flight at once. */
const STAGING_SWEEP_LIMIT = 10_000;
/**
 * Failed jobs looked at per run, newest first. The sweep runs every minute, so each failed verification
 * is looked at by many runs unless this many jobs fail within a minute.
 */
const FAILED_JOBS_LOOKED_AT = 1_000;

/**
 * Expires sessions still waiting for their bytes past expiresAt, releasing the file name they
 * reserved; fails uploads left `verifying` by a verification job that ended failed without settling
 * them (its worker died first, or it was failed outside the workers); then deletes staging objects
 * left by upload URLs used again after their upload finished.
 */
export async function expireUploadSessions(_job: unknown, deps: WorkerDeps): Promise<number> {
  let expired = 0;
  for (;;) {
    const sessions = await deps.store.uploads.listExpiredUploadSessions(new Date(), BATCH);
    for (const session of sessions) {
      if (await expireUploadSession(deps.store, deps.storage, session)) expired += 1;
    }
    if (sessions.length < BATCH) break;
  }
  const failedJobs = await deps.jobs.queue(JOBS['verify-upload'].queue).getJobs(['failed'], 0, FAILED_JOBS_LOOKED_AT - 1);
  for (const job of failedJobs) {
    if (job.name === 'verify-upload') await settleFailedVerification(job as Job<JobPayloads['verify-upload']>, deps);
  }
  const swept = await sweepStagingObjects(deps.store, deps.storage, STAGING_SWEEP_LIMIT);
  if (swept > 0) deps.logger.info({ swept }, 'deleted staging objects of finished uploads');
  return expired;
}
