import type { ObjectStorage } from '../storage/object-storage';
import type { UploadSession } from '../store/models';
import type { Store } from '../store/store';
import { discardUploadBytes } from './discard-upload-bytes';

/**
 * Expires a session that never completed: any bytes it received are discarded (a multipart upload
 * aborted), then the session becomes `expired` and its pending file `failed` (releasing the file name
 * and MAIN slot). The bytes go first, so a store that fails leaves the session `issued` for the next
 * sweep rather than parts nothing would remove. Returns false when the session had already moved on
 * (completed, verifying, expired, aborted).
 */
export async function expireUploadSession(store: Store, storage: ObjectStorage, session: UploadSession, now = new Date()): Promise<boolean> {
  await discardUploadBytes(storage, session);
  const changed = await store.uploads.updateUploadSession(session.uploadId, ['issued'], { status: 'expired' }, now);
  if (!changed) return false;
  await store.versions.setFileStatus(session.fileId, 'pending', 'failed', null, now);
  return true;
}
