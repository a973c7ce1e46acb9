import type { ObjectStorage } from '../storage/object-storage';
import type { UploadStatus } from '../store/models';
import type { Store } from '../store/store';
import { SMALL_UPLOAD_STAGING_RETENTION_MS } from '../policy';
import { formStagingTime, STAGING_DIRECTORY } from './storage-keys';

/** Upload sessions whose upload URL may no longer write to the staging key once it has expired. */
const FINISHED = new Set<UploadStatus>(['completed', 'failed', 'expired', 'aborted']);

/**
 * Deletes staging objects nothing will read: a finished session's staging key is empty unless its
 * upload URL was used again after completion, and once that URL has expired no further PUT can come.
 * Objects of sessions still waiting for bytes or being verified are left alone. Returns how many went.
 */
export async function sweepStagingObjects(store: Store, storage: ObjectStorage, limit: number, now = new Date()): Promise<number> {
  let deleted = 0;
  for (const key of await storage.listKeys(STAGING_DIRECTORY, limit)) {
    const name = key.slice(STAGING_DIRECTORY.length + 1);
    // A small upload's file, staged while its request runs: left alone until no request can still be writing it.
    const formStagedAt = formStagingTime(name);
    const session = formStagedAt === null ? await store.uploads.getUploadSession(name) : null;
    const abandoned = formStagedAt !== null
      ? now.getTime() - formStagedAt > SMALL_UPLOAD_STAGING_RETENTION_MS
      : !session || (FINISHED.has(session.status) && session.expiresAt.getTime() <= now.getTime());
    if (!abandoned) continue;
    await storage.delete(key);
    deleted += 1;
  }
  return deleted;
}
