import type { FileType } from './file-types';
import { isBlockmapName } from './blockmaps';

/*
 * What a file's name says about it, in one place: the macOS `.zip` Mac update clients install, and
 * the NuGet packages Squirrel.Windows and Velopack update from. Patterns are written as strings
 * without flags (letters as [Xx] classes), so the API description's JSON Schema states the same rule.
 */

/** A `.zip` archive, any case. */
export const ZIP_NAME_PATTERN = '\\.[Zz][Ii][Pp]$';

/**
 * A Squirrel.Windows or Velopack update package: `<id>-<version>-full.nupkg` or `-delta.nupkg`
 * (Velopack adds `-<channel>` after the version outside Windows' default channel:
 * `App-1.2.0-linux-full.nupkg`). Both clients tell a delta by the `-delta.nupkg` ending, in any case.
 */
export const NUPKG_NAME_PATTERN = '^(.+)-([Ff][Uu][Ll][Ll]|[Dd][Ee][Ll][Tt][Aa])\\.[Nn][Uu][Pp][Kk][Gg]$';

const ZIP_NAME = new RegExp(ZIP_NAME_PATTERN);
const NUPKG_NAME = new RegExp(NUPKG_NAME_PATTERN);
/**
 * Where the version starts in `<id>-<version>`: the first `-` or `.` followed by two dot-separated
 * numbers, as Velopack's ReleaseEntryName reads it (Squirrel's `^([\w-]+)-\d+\.` agrees on the names
 * its packager writes), so an id may hold dashes and digits (`My-App2-1.0.0`).
 */
const VERSION_START = /[.-](0|[1-9]\d*)\.(0|[1-9]\d*)($|[^\d])/;

export const isZipArchive = (fileName: string): boolean => ZIP_NAME.test(fileName);

/** A NuGet update package's parts as its name gives them. */
export interface NupkgName {
  packageId: string;
  /** The version as written, with Velopack's channel suffix when there is one (`1.2.0-linux`). */
  version: string;
  kind: 'full' | 'delta';
}

/** The parts of a `-full.nupkg` or `-delta.nupkg` name; null for any other name. */
export function nupkgName(fileName: string): NupkgName | null {
  const match = NUPKG_NAME.exec(fileName);
  if (!match) return null;
  const [, stem, kind] = match;
  const start = VERSION_START.exec(stem);
  if (!start || start.index === 0) return null;
  return { packageId: stem.slice(0, start.index), version: stem.slice(start.index + 1), kind: kind.toLowerCase() as NupkgName['kind'] };
}

/**
 * Whether a package named for `packageVersion` belongs to the release `releaseVersion`: the same
 * version (a leading `v` of the release's aside), or it followed by Velopack's `-<channel>` suffix.
 */
export function nupkgOfVersion(name: NupkgName, releaseVersion: string): boolean {
  const version = releaseVersion.replace(/^[vV]/, '');
  return name.version === version || name.version.startsWith(`${version}-`);
}

/**
 * The type of a file an upload does not declare one for: electron-builder's `{file}.blockmap` is a
 * BLOCKMAP (shared/releases/blockmaps.ts), a NuGet update package an UPDATE file (beside the
 * installer people download, the MAIN file), anything else the version's MAIN file.
 */
export function fileTypeOfName(fileName: string): FileType {
  if (isBlockmapName(fileName)) return 'BLOCKMAP';
  return nupkgName(fileName) ? 'UPDATE' : 'MAIN';
}
