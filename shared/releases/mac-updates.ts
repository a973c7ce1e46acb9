import type { FileType } from './file-types';
import { isZipArchive, nupkgName, NUPKG_NAME_PATTERN, ZIP_NAME_PATTERN } from './file-names';
import { FileTarget, selectMainFile } from './platforms';

/*
 * What a Mac update client can install. electron-updater's MacUpdater and Squirrel.Mac both install
 * a `.zip` of the app; a `.dmg` or `.pkg` is a fine download for a person but neither client can
 * update from one (MacUpdater fails with "ZIP file not provided"). So a version's macOS build is
 * offered by those feeds only through a `.zip`: its MAIN file when that is the zip, or an UPDATE file
 * (the zip uploaded beside a MAIN `.dmg`, which stays what downloads of the version answer).
 */

/** What the rules read of a file. */
export interface MacUpdateCandidate extends FileTarget {
  fileType: FileType;
  fileName: string;
}

/**
 * What an UPDATE file must be: a .zip (any case) for platform macos, or a NuGet update package
 * (`-full.nupkg`, `-delta.nupkg`) Squirrel.Windows and Velopack update from, of any platform; the
 * patterns as the API description states them (shared/releases/file-names.ts).
 */
export const MAC_UPDATE_FILE = { fileType: 'UPDATE', platform: 'macos', namePattern: ZIP_NAME_PATTERN } as const;
export const PACKAGE_UPDATE_FILE = { fileType: 'UPDATE', namePattern: NUPKG_NAME_PATTERN } as const;

/**
 * The files a Mac update client may be given among a version's files: its `.zip` MAIN and UPDATE
 * files, an UPDATE one in place of a MAIN one of the same platform and arch.
 */
export function macUpdateFiles<F extends MacUpdateCandidate>(files: readonly F[]): F[] {
  const zips = files.filter((file) => (file.fileType === 'MAIN' || file.fileType === 'UPDATE') && isZipArchive(file.fileName));
  const updates = zips.filter((file) => file.fileType === 'UPDATE');
  return zips.filter((file) => file.fileType === 'UPDATE' || !updates.some((update) => update.platform === file.platform && update.arch === file.arch));
}

/** Why an upload cannot carry fileType UPDATE with this name and platform; null when it can (or is another type). */
export function updateFileProblem(file: { fileType: FileType; fileName: string; platform: string }): string | null {
  if (file.fileType !== MAC_UPDATE_FILE.fileType) return null;
  if (nupkgName(file.fileName)) return null;
  return isZipArchive(file.fileName) && file.platform === MAC_UPDATE_FILE.platform
    ? null
    : 'fileType UPDATE is the .zip Mac update clients install beside a .dmg or .pkg MAIN file (its name must end in .zip and its platform be macos), '
      + 'or a Squirrel.Windows or Velopack package named <id>-<version>-full.nupkg or -delta.nupkg';
}

/**
 * What keeps the Mac update feeds (electron-updater's latest-mac.yml, Squirrel.Mac) from offering a
 * version, one sentence per macOS MAIN build that has no `.zip` for its arch; empty when nothing does.
 */
export function macUpdateFeedProblems(files: readonly MacUpdateCandidate[]): string[] {
  const zips = macUpdateFiles(files);
  return files
    .filter((file) => file.fileType === 'MAIN' && file.platform === 'macos' && !isZipArchive(file.fileName))
    .filter((file) => selectMainFile(zips, { platform: 'macos', arch: file.arch }).kind === 'none')
    .map((file) => `no .zip for macos/${file.arch}: electron-updater and Squirrel.Mac cannot update to this version from ${file.fileName}; `
      + 'upload the app as a .zip with fileType UPDATE beside it');
}
