import { MultipartPartsError, MultipartUploadNotFoundError, ObjectStorage } from '../storage/object-storage';
import type { UploadSession } from '../store/models';
import { describeShortfall, partLayout, partShortfall } from './multipart-layout';

/**
 * Assembles the parts of a multipart upload into its file's key, once every part is there with its
 * size. Resolves with why it cannot (then nothing is assembled), or null once assembled, including by
 * an earlier attempt (the upload is then no longer open: the object's size, checked next, tells).
 */
export async function assembleMultipartUpload(storage: ObjectStorage, session: UploadSession): Promise<string | null> {
  if (!session.multipart) throw new Error(`upload ${session.uploadId} is not a multipart upload`);
  const { storageUploadId, partSize } = session.multipart;
  const layout = partLayout(session.fileSize, partSize);
  try {
    const parts = await storage.listParts(session.storageKey, storageUploadId);
    const shortfall = describeShortfall(partShortfall(layout, parts));
    if (shortfall !== null) return `the parts do not make the file: ${shortfall}`;
    const named = parts.filter((part) => part.partNumber <= layout.partCount).map(({ partNumber, etag }) => ({ partNumber, etag }));
    await storage.completeMultipartUpload(session.storageKey, storageUploadId, named);
    return null;
  } catch (error) {
    if (error instanceof MultipartUploadNotFoundError) return null;
    if (error instanceof MultipartPartsError) return `the parts could not be assembled: ${error.message}`;
    throw error;
  }
}
