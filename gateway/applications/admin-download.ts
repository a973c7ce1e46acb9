import { notFound } from '../../shared/errors';
import { DOWNLOAD_URL_LIFETIME_SECONDS } from '../../shared/policy';
import { servedContentType, type ObjectStorage } from '../../shared/storage/object-storage';
import type { Store } from '../../shared/store/store';
import type { SignedDownload } from '../../shared/contract/downloads';

/**
 * A pre-signed URL for any available file of an application, for a vendor testing a release (a
 * draft included) with an admin key: no customer, no release rules, and no download event, so the
 * statistics count customers' downloads only.
 */
export async function adminDownloadUrl(store: Store, storage: ObjectStorage, applicationId: string, version: string, fileId: string): Promise<SignedDownload> {
  if (!(await store.applications.getApplication(applicationId))) throw notFound(`application ${applicationId} not found`);
  const file = await store.versions.getFile(fileId);
  if (!file || file.applicationId !== applicationId || file.version !== version) throw notFound(`file ${fileId} not found in version ${version}`);
  if (file.status !== 'available') throw notFound(`file ${fileId} is not available (${file.status})`);
  const signedAt = Math.floor(Date.now() / 1000);
  const downloadUrl = await storage.presignGet(file.storageKey, {
    expiresInSeconds: DOWNLOAD_URL_LIFETIME_SECONDS,
    fileName: file.fileName,
    contentType: servedContentType(file.contentType),
    signedAt,
  });
  return { file, downloadUrl, expiresAt: new Date((signedAt + DOWNLOAD_URL_LIFETIME_SECONDS) * 1000) };
}
