import { conflict, DuplicateError, redisUnavailable, validationError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { JobQueues } from '../../shared/queues/job-queues';
import { DEFAULT_ARCH, DEFAULT_PLATFORM, fileTargetProblem, FileTarget } from '../../shared/releases/platforms';
import { fileTypeOfName } from '../../shared/releases/file-names';
import { updateFileProblem } from '../../shared/releases/mac-updates';
import { blockmapFileProblem } from '../../shared/releases/blockmaps';
import type { FileRecord } from '../../shared/store/models';
import type { FileType } from '../../shared/releases/file-types';
import type { Store, UploadRelease } from '../../shared/store/store';
import { versionMismatch } from '../../shared/releases/upload-release';
import type { SmallUploadFields } from '../../shared/contract/uploads-requests';

/*
 * What every upload (small, large, multipart) does with the file it brings before its bytes are
 * verified: the release it asks of its version, its platform and arch, its reservation, and the
 * queueing of its verification.
 */

/** What every upload says about its file and its version. */
type UploadFields = SmallUploadFields;

export const releaseOf = (fields: Partial<UploadFields>): UploadRelease =>
  ({ releaseNotes: fields.releaseNotes, requiredTier: fields.requiredTier, channel: fields.channel, status: fields.status });

/** The file's platform and arch (`any` for those left out); 400 for a pair no file can carry. */
export function targetOf(fields: Partial<Pick<UploadFields, 'platform' | 'arch'>>): FileTarget {
  const target = { platform: fields.platform ?? DEFAULT_PLATFORM, arch: fields.arch ?? DEFAULT_ARCH };
  const problem = fileTargetProblem(target);
  if (problem) throw validationError([{ field: 'arch', message: problem }]);
  return target;
}

/** The upload's file type: the one it declares, else what the file's name says (shared/releases/file-names.ts: BLOCKMAP, UPDATE for a NuGet package, else MAIN). */
export const fileTypeOf = (declared: FileType | undefined, fileName: string): FileType => declared ?? fileTypeOfName(fileName);

/**
 * Refuses (400) an UPDATE file that is neither a macOS `.zip` nor a NuGet update package
 * (shared/releases/mac-updates.ts), or a BLOCKMAP not named `{file}.blockmap`
 * (shared/releases/blockmaps.ts): no feed could offer them.
 */
export function checkUpdateFile(declared: FileType | undefined, fileName: string, target: FileTarget): void {
  const fileType = fileTypeOf(declared, fileName);
  const problem = updateFileProblem({ fileType, fileName, platform: target.platform }) ?? blockmapFileProblem({ fileType, fileName });
  if (problem) throw validationError([{ field: 'fileType', message: problem }]);
}

/**
 * Refuses (409) an upload naming a channel or status other than those of its version, when the
 * version exists: checked before any byte is stored or reserved, and again by the publication.
 */
export async function checkVersionTakes(store: Store, applicationId: string, version: string, release: UploadRelease): Promise<void> {
  if (release.channel === undefined && release.status === undefined) return;
  const existing = await store.versions.getVersion(applicationId, version);
  const mismatch = existing && versionMismatch(existing, release);
  if (mismatch) throw conflict(mismatch);
}

/** Inserts the file, holding its name (and the MAIN slot of its platform and arch): the one place an upload is refused for a taken name or slot. */
export async function reserveFile(store: Store, file: FileRecord): Promise<FileRecord> {
  try {
    return await store.versions.insertFile(file);
  } catch (error) {
    if (!(error instanceof DuplicateError)) throw error;
    if (error.target === 'mainFile') {
      throw conflict(`version ${file.version} already has a MAIN file for platform ${file.platform ?? DEFAULT_PLATFORM} and arch ${file.arch ?? DEFAULT_ARCH}; `
        + 'upload this one with another fileType, platform or arch');
    }
    throw conflict(`version ${file.version} already has a file named ${file.fileName}`);
  }
}

/**
 * Gives a reservation up after a failure. False when the file turned out published (a failure after
 * its publication), or when the store could not say: its bytes must then stay. When the store
 * refuses the release, the file stays pending and is logged.
 */
export async function releaseFile(store: Store, logger: Logger, file: Pick<FileRecord, 'fileId' | 'applicationId' | 'version'>): Promise<boolean> {
  try {
    const released = await store.versions.setFileStatus(file.fileId, 'pending', 'failed', null, new Date());
    return released !== null || (await store.versions.getFile(file.fileId))?.status !== 'available';
  } catch (error) {
    logger.error({ err: error, fileId: file.fileId, applicationId: file.applicationId, version: file.version },
      'could not release the reservation of a failed upload; its file name stays taken and its bytes are kept');
    return false;
  }
}

/** Queues the verification of an upload (job id = upload id: queuing it again adds nothing); 503 when Redis refuses. */
export async function queueVerification(jobs: JobQueues, uploadId: string, retry: string): Promise<void> {
  try {
    await jobs.enqueue('verify-upload', { uploadId });
  } catch {
    throw redisUnavailable(`could not queue the verification; ${retry} again shortly`);
  }
}
