import { guessFileTarget } from '../../shared/releases/artifact-names';
import { isZipArchive } from '../../shared/releases/file-names';
import { macUpdateFeedProblems } from '../../shared/releases/mac-updates';
import type { Arch, Platform } from '../../shared/releases/platforms';
import { ApiError } from '../errors';
import type { AnswerOf, Client } from '../../shared/contract/client';

/** What the upload is about to send, as its options name it. */
export interface PlannedFile {
  fileName: string;
  fileType?: string;
  platform?: string;
  arch?: string;
}

/** A macOS installer as people download it, which no Mac update client installs. */
const MAC_INSTALLER = /\.(dmg|pkg)$/i;

/**
 * Said before a byte is sent: a macOS `.dmg` or `.pkg` uploaded as MAIN with no `.zip` for its arch
 * in the version leaves the version out of the Mac update feeds (the service's own rule,
 * shared/releases/mac-updates.ts); how to fix it. Null when the version has its zip, or the file is
 * no macOS installer.
 */
export async function macUpdateWarning(client: Client, applicationId: string, version: string, file: PlannedFile): Promise<string | null> {
  if ((file.fileType ?? 'MAIN') !== 'MAIN' || !MAC_INSTALLER.test(file.fileName) || isZipArchive(file.fileName)) return null;
  if (file.platform !== undefined && file.platform !== 'macos') return null;
  const arch = (file.arch ?? guessFileTarget(file.fileName).arch) as Arch;
  let files: AnswerOf<'listVersions'>['versions'][number]['files'] = [];
  try {
    const data = await client.listVersions({ applicationId });
    files = data.versions.find((v) => v.version === version)?.files.filter((f) => f.status !== 'failed') ?? [];
  } catch (error) {
    // A new application or one this key cannot list: the upload itself says what it must.
    if (!(error instanceof ApiError)) throw error;
  }
  const planned = { fileName: file.fileName, fileType: 'MAIN' as const, platform: 'macos' as Platform, arch };
  const existing = files.map((f) => ({ fileName: f.fileName, fileType: f.fileType, platform: f.platform as Platform, arch: f.arch as Arch }));
  const [problem] = macUpdateFeedProblems([...existing, planned]).filter((text) => text.includes(file.fileName));
  if (!problem) return null;
  const platformHint = file.platform === undefined ? ` (and give this upload --platform macos --arch ${arch}: without --platform it fits every platform and no Mac feed reads it)` : '';
  return `warning: update clients will skip ${version}: ${problem}. Fix: bds upload ${applicationId} ${version} <App.zip> --file-type UPDATE --platform macos --arch ${arch}${platformHint}`;
}
