import { expireUploadSession } from '../../shared/uploads/expire-upload-session';
import type { WorkerDeps } from '../worker-deps';

const BATCH = 100;

/** Expires sessions still waiting for their bytes past expiresAt, releasing the file name they reserved. */
export async function expireUploadSessions(_job: unknown, deps: WorkerDeps): Promise<number> {
  let expired = 0;
  for (;;) {
    const sessions = await deps.store.listExpiredUploadSessions(new Date(), BATCH);
    for (const session of sessions) {
      if (await expireUploadSession(deps.store, deps.storage, session)) expired += 1;
    }
    if (sessions.length < BATCH) return expired;
  }
}
