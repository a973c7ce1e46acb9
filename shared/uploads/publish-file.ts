import type { FileRecord, UploadSession, Version } from '../store/models';
import type { Store, VersionPatch } from '../store/store';

/**
 * Publishes a pending file together with the version fields its upload carried. The version is
 * created or changed only here, once the file holds its name and MAIN slot: an upload that is refused
 * or fails never touches the version, and of uploads racing for one MAIN slot only the winner's
 * fields land. The fields go first, so the file is never downloadable under the version's previous
 * tier. Safe to repeat: a file already available stays as it is.
 */
export async function publishPendingFile(
  store: Store,
  file: FileRecord,
  release: VersionPatch,
  checksum: string,
  at: Date,
): Promise<{ file: FileRecord; version: Version }> {
  const version = await store.upsertVersion(file.applicationId, file.version, release, at);
  const published = await store.setFileStatus(file.fileId, 'pending', 'available', checksum, at) ?? await store.getFile(file.fileId);
  if (published?.status !== 'available') throw new Error(`file ${file.fileId} could not be published: it is ${published?.status ?? 'missing'}`);
  return { file: published, version };
}

/** The version fields a large upload carries: null in the session means the request left them out. */
export function releaseOfSession(session: UploadSession): VersionPatch {
  return { releaseNotes: session.releaseNotes ?? undefined, requiredTier: session.requiredTier ?? undefined };
}
