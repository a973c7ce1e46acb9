import type { ObjectStorage } from '../storage/object-storage';
import type { UploadSession } from '../store/models';
import type { Store } from '../store/store';

/**
 * Expires a session that never completed: the session becomes `expired`, its pending file `failed`
 * (releasing the file name and MAIN slot), and any bytes it received are deleted.
 * Returns false when the session had already moved on (completed, verifying, expired).
 */
export async function expireUploadSession(store: Store, storage: ObjectStorage, session: UploadSession, now = new Date()): Promise<boolean> {
  const changed = await store.updateUploadSession(session.uploadId, ['issued'], { status: 'expired' }, now);
  if (!changed) return false;
  await storage.delete(session.storageKey);
  await store.setFileStatus(session.fileId, 'pending', 'failed', null, now);
  return true;
}
