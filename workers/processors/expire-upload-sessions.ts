import type { WorkerDeps } from '../worker-deps';

const BATCH = 100;

/** Expires sessions still waiting for their bytes past expiresAt, releasing the file name they reserved. */
export async function expireUploadSessions(_job: unknown, deps: WorkerDeps): Promise<number> {
  let expired = 0;
  for (;;) {
    const now = new Date();
    const sessions = await deps.store.listExpiredUploadSessions(now, BATCH);
    for (const session of sessions) {
      const changed = await deps.store.updateUploadSession(session.uploadId, ['issued'], { status: 'expired' }, now);
      if (!changed) continue;
      await deps.store.setFileStatus(session.fileId, 'pending', 'failed', null, now);
      await deps.storage.delete(session.storageKey);
      expired += 1;
    }
    if (sessions.length < BATCH) return expired;
  }
}
