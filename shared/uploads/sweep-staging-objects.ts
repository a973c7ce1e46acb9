import type { ObjectStorage } from '../storage/object-storage';
import type { UploadStatus } from '../store/models';
import type { Store } from '../store/store';
import { STAGING_DIRECTORY } from './storage-keys';

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
    const uploadId = key.slice(STAGING_DIRECTORY.length + 1);
    const session = await store.getUploadSession(uploadId);
    const abandoned = !session || (FINISHED.has(session.status) && session.expiresAt.getTime() <= now.getTime());
    if (!abandoned) continue;
    await storage.delete(key);
    deleted += 1;
  }
  return deleted;
}
