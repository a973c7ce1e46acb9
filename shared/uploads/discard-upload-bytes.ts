import type { ObjectStorage } from '../storage/object-storage';
import type { UploadSession } from '../store/models';

/**
 * Removes what an upload that will not complete has stored: the staged object of a single PUT, or the
 * multipart upload with its parts (so no orphaned parts stay billed). Safe to repeat.
 */
export async function discardUploadBytes(storage: ObjectStorage, session: UploadSession): Promise<void> {
  if (session.multipart) await storage.abortMultipartUpload(session.storageKey, session.multipart.storageUploadId);
  else await storage.delete(session.storageKey);
}
