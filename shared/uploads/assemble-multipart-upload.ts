import { MultipartPartsError, MultipartUploadNotFoundError, ObjectStorage } from '../storage/object-storage';
import type { ChunkSink } from '../hashing';
import type { UploadSession } from '../store/models';
import { describeShortfall, partLayout, partShortfall } from './multipart-layout';

/** What became of an assembly: why it could not be done (nothing assembled), or whether `observer` saw every byte of it. */
export type Assembly = { problem: string } | { problem: null; observed: boolean };

/**
 * Assembles the parts of a multipart upload into its file's key, once every part is there with its
 * size, handing the bytes to `observer` when the store copies them itself. An upload no longer open
 * counts as assembled, by an earlier attempt (the object's size, checked next, tells); its bytes were
 * not observed then.
 */
export async function assembleMultipartUpload(storage: ObjectStorage, session: UploadSession, observer: ChunkSink): Promise<Assembly> {
  if (!session.multipart) throw new Error(`upload ${session.uploadId} is not a multipart upload`);
  const { storageUploadId, partSize } = session.multipart;
  const layout = partLayout(session.fileSize, partSize);
  try {
    const parts = await storage.listParts(session.storageKey, storageUploadId);
    const shortfall = describeShortfall(partShortfall(layout, parts));
    if (shortfall !== null) return { problem: `the parts do not make the file: ${shortfall}` };
    const named = parts.filter((part) => part.partNumber <= layout.partCount).map(({ partNumber, etag }) => ({ partNumber, etag }));
    return { problem: null, observed: await storage.completeMultipartUpload(session.storageKey, storageUploadId, named, observer) };
  } catch (error) {
    if (error instanceof MultipartUploadNotFoundError) return { problem: null, observed: false };
    if (error instanceof MultipartPartsError) return { problem: `the parts could not be assembled: ${error.message}` };
    throw error;
  }
}
