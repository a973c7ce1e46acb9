import type { ObjectStorage } from '../storage/object-storage';
import type { FileRecord, PackageInfo } from '../store/models';
import { readDebControl } from './deb-control';
import { packageIdentity } from './package-identity';
import { archOfPackage, packageFormatOfName } from './package-arches';
import { PackageFormatError } from './read-prefix';
import { readRpmHeader } from './rpm-header';

/**
 * What an upload learns of a package file (`.deb`, `.rpm`) from its own headers: the fields the
 * repositories list, or why the upload is refused. `info` is null for a file that is no package by
 * its name, and for one whose headers cannot be read (`unreadable` says why): such a file stays a
 * download, and no repository lists it. A package that reads and contradicts its upload is refused.
 */
export type PackageReading = { info: PackageInfo | null; problem?: undefined; unreadable?: string } | { info?: undefined; problem: string };

/** The package's headers from the stored bytes at `key`, checked against the upload's version and arch. */
export async function readPackageInfo(storage: ObjectStorage, file: Pick<FileRecord, 'fileName' | 'version' | 'arch'>, key: string): Promise<PackageReading> {
  const format = packageFormatOfName(file.fileName);
  if (!format) return { info: null };
  let info: PackageInfo;
  try {
    info = format === 'deb'
      ? { format, fields: [...(await readDebControl(await storage.getStream(key))).fields].map(([name, value]) => [name, value] as [string, string]) }
      : { format, ...(await readRpmHeader(await storage.getStream(key))) };
  } catch (error) {
    if (error instanceof PackageFormatError) return { info: null, unreadable: `${file.fileName} is not a readable ${format === 'deb' ? 'Debian' : 'rpm'} package: ${error.message}` };
    throw error;
  }
  const problem = contradiction(info, file);
  return problem ? { problem } : { info };
}

/**
 * Whether the package contradicts its upload: its version is not the upload's (Debian: the upstream
 * part, without epoch and revision; rpm: Version, or Version-Release; `~` stands for SemVer's `-`),
 * or its arch maps to another of ours (`all`/`noarch` fit any; an upload for `any` takes every arch).
 */
function contradiction(info: PackageInfo, file: Pick<FileRecord, 'fileName' | 'version' | 'arch'>): string | undefined {
  const { name, version, arch } = packageIdentity(info);
  if (info.format === 'deb') {
    if (!name) return `${file.fileName} has no Package field in its control file`;
    if (!version) return `${file.fileName} has no Version field in its control file`;
  }
  const candidates = info.format === 'deb' ? debianVersions(version) : [info.version, `${info.version}-${info.release}`];
  const semver = (value: string) => value.replace(/~/g, '-');
  if (!candidates.some((candidate) => candidate === file.version || semver(candidate) === file.version)) {
    return `${file.fileName} is version ${version} (its ${info.format === 'deb' ? 'control file' : 'rpm header'} says so), the upload names version ${file.version}`;
  }
  const ours = archOfPackage(info.format, arch);
  if (!ours) return `${file.fileName} is built for ${arch || 'no architecture'}, which has no arch here`;
  const uploadArch = file.arch ?? 'any';
  if (ours !== 'any' && uploadArch !== 'any' && ours !== uploadArch) {
    return `${file.fileName} is built for ${arch} (arch ${ours}), the upload names arch ${uploadArch}`;
  }
  return undefined;
}

/** A Debian version and its upstream part: `[epoch:]upstream[-revision]`. */
function debianVersions(version: string): string[] {
  const withoutEpoch = version.replace(/^\d+:/, '');
  const dash = withoutEpoch.lastIndexOf('-');
  return dash > 0 ? [version, withoutEpoch, withoutEpoch.slice(0, dash)] : [version, withoutEpoch];
}
