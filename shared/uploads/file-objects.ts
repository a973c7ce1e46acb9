import type { KeyLocks } from '../redis/key-locks';
import type { ObjectStorage } from '../storage/object-storage';
import type { FileRecord } from '../store/models';
import type { Store } from '../store/store';
import { MAX_PUT_BYTES } from '../policy';
import { contentStorageKey, isContentStorageKey } from './storage-keys';

type FileObject = Pick<FileRecord, 'fileId' | 'applicationId' | 'storageKey'>;

/**
 * Files' content-addressed objects (`files/{applicationId}/sha256/{hex}`): placed once, shared by the
 * files of the same bytes in an application, deleted when the last file pointing at them goes.
 *
 * A placement points its pending file at the object (Store.claimFileObject) and then moves its bytes
 * there unless the object is there already; a release deletes the object unless another file that is
 * not failed points at it (Store.fileObjectShared). Both hold the object's lock, so a release never
 * reads "unshared" between another file's claim and its bytes' arrival, nor deletes bytes a placement
 * has just found there: the object survives while any record points at it.
 */
export class FileObjects {
  constructor(private readonly store: Store, private readonly storage: ObjectStorage, private readonly locks: KeyLocks) {}

  /**
   * Places the bytes at `sourceKey` (hashed: `sha256`, hex) as `file`'s object and answers the file as
   * it now is; the source is gone afterwards. Null, nothing placed (the source left as it is), when the
   * file is no longer pending, unless another attempt published it with these bytes (then the file as
   * published). Bytes larger than one copy can move (MAX_PUT_BYTES) keep the file's own
   * key, `sourceKey` (a multipart upload's assembled object).
   */
  async place(file: FileRecord, sourceKey: string, sha256: string): Promise<FileRecord | null> {
    if (file.fileSize > MAX_PUT_BYTES) {
      if (file.storageKey === sourceKey) return file;
      return this.store.versions.claimFileObject(file.fileId, sourceKey);
    }
    const key = contentStorageKey(file.applicationId, sha256);
    return this.locks.hold(objectLock(key), async () => {
      const claimed = await this.store.versions.claimFileObject(file.fileId, key);
      if (!claimed) {
        // Published meanwhile by another attempt of the same verification, with these bytes: the
        // caller's publication is then a repeat. Anything else (failed) places nothing.
        const current = await this.store.versions.getFile(file.fileId);
        return current?.status === 'available' && current.storageKey === key ? current : null;
      }
      // A repeat that finds the bytes placed already has nothing to move.
      if (sourceKey !== key) await this.storage.moveUnlessPresent(sourceKey, key);
      return claimed;
    });
  }

  /**
   * Deletes the object of a file whose record no longer keeps it (deleted, or failed), unless another
   * file points at it. An object of the file's own (a pending upload's key, a file stored before
   * content addressing) is simply deleted.
   */
  async release(file: FileObject): Promise<void> {
    const key = file.storageKey;
    if (!isContentStorageKey(key)) return this.storage.delete(key);
    await this.locks.hold(objectLock(key), async () => {
      if (!(await this.store.versions.fileObjectShared(key, file.fileId))) await this.storage.delete(key);
    });
  }
}

const objectLock = (key: string): string => `object:${key}`;
