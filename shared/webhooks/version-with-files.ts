import type { FileRecord, Version, VersionWithFiles } from '../store/models';
import type { Store } from '../store/store';

/**
 * A version with its files, as the versions listing answers it: what a version event carries. Read
 * after the change is written, so it is never refused for it: when the store cannot answer (or the
 * version moved to another channel or status meanwhile), the version with the files the caller knows.
 */
export async function versionWithFiles(store: Store, version: Version, known: readonly FileRecord[]): Promise<VersionWithFiles> {
  try {
    const listed = await store.versions.listVersions(version.applicationId, { channels: [version.channel], statuses: [version.status] });
    const found = listed.find((candidate) => candidate.version === version.version);
    if (found) return found;
  } catch {
    // The change stands either way: the event goes out with what is known.
  }
  return { ...version, files: [...known] };
}
