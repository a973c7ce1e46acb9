import { expireUploadSession } from '../../shared/uploads/expire-upload-session';
import { sweepStagingObjects } from '../../shared/uploads/sweep-staging-objects';
import type { WorkerDeps } from '../worker-deps';

const BATCH = 100;
/** Staging objects looked at per run, uploads in flight included: far more than are ever in flight at once. */
const STAGING_SWEEP_LIMIT = 10_000;

/**
 * Expires sessions still waiting for their bytes past expiresAt, releasing the file name they
 * reserved, then deletes staging objects left by upload URLs used again after their upload finished.
 */
export async function expireUploadSessions(_job: unknown, deps: WorkerDeps): Promise<number> {
  let expired = 0;
  for (;;) {
    const sessions = await deps.store.listExpiredUploadSessions(new Date(), BATCH);
    for (const session of sessions) {
      if (await expireUploadSession(deps.store, deps.storage, session)) expired += 1;
    }
    if (sessions.length < BATCH) break;
  }
  const swept = await sweepStagingObjects(deps.store, deps.storage, STAGING_SWEEP_LIMIT);
  if (swept > 0) deps.logger.info({ swept }, 'deleted staging objects of finished uploads');
  return expired;
}
