import { AppError, notFound } from '../../../shared/errors';
import { NupkgName, nupkgName, nupkgOfVersion } from '../../../shared/releases/file-names';
import { Arch, ARCHS, Platform } from '../../../shared/releases/platforms';
import { compareOrderKeys, versionOrderKey } from '../../../shared/releases/version-order';
import type { FileRecord, VersionWithFiles } from '../../../shared/store/models';
import type { FileRequest, GrantedFile, OfferedRelease, ReleaseCaller, ReleaseCatalog, ReleaseFile } from '../../releases/release-catalog';
import { andThen, Eventually, isPending } from '../../http/eventually';
import type { FeedSources } from '../engine/feed-family';
import type { RunningVersion } from '../update-schemas';

/** A NuGet update package a feed lists: its file (with its SHA-1) and what its name says. */
export interface PackageFile {
  release: OfferedRelease;
  file: ReleaseFile & { sha1: string };
  name: NupkgName;
}

/** A release with a full package, and its delta package when it has one. */
interface PackagedRelease {
  release: OfferedRelease;
  orderKey: string;
  full: PackageFile;
  delta: PackageFile | null;
}

/**
 * What a Squirrel.Windows or Velopack client is given: the newest offered full package, preceded by
 * the deltas from the client's version to it (oldest first) when every one of them exists.
 */
export interface PackageUpdate {
  deltas: readonly PackageFile[];
  full: PackageFile;
}

/** Which packages: one application, a channel (the most stable when left out), a platform and arch when the client gives them. */
export interface PackageTarget {
  channel?: string;
  platform?: Platform;
  arch?: Arch;
  /** The client's package id: only packages of that id are listed. */
  packageId?: string;
}

/**
 * What the Squirrel.Windows and Velopack feeds pick from the releases the caller is offered (access,
 * tier, channel cascade, staged rollout, no drafts, no yanked: the catalogue's answer): the NuGet
 * packages each offered release has, its `-full.nupkg` and `-delta.nupkg` files (MAIN or UPDATE,
 * named for the release's version) that have a SHA-1 (both clients check it; a file stored before
 * SHA-1 was kept waits for the digest backfill). Pure: the engine keeps the documents made of them.
 */

/**
 * The update for a client running `local` (none at the first install): null when the caller is
 * offered no release with a full package. An install of a yanked version with nothing newer is given
 * its rollback's full package (Velopack installs it with AllowVersionDowngrade; Squirrel.Windows never
 * installs an older version and stays).
 */
export function packageUpdate(offered: readonly OfferedRelease[], target: PackageTarget, local: RunningVersion | undefined, sources: Pick<FeedSources, 'rollback' | 'versions'>): Eventually<PackageUpdate | null> {
  const packaged = offered.flatMap((release) => packagedRelease(release, target));
  if (packaged.length === 0) return null;
  // Bounded by the releases, whatever versions clients send: an unknown one is the full package alone.
  const installed = local === undefined ? -1 : packaged.findIndex((item) => item.orderKey === local.orderKey);
  const update: PackageUpdate = { full: packaged[0].full, deltas: deltaChain(packaged, installed, sources.versions()) };
  if (local === undefined || installed >= 0 || compareOrderKeys(packaged[0].orderKey, local.orderKey) > 0) return update;
  return andThen(sources.rollback(local.version), (back): PackageUpdate => {
    const item = back && packaged.find((entry) => entry.release === back);
    return item ? { full: item.full, deltas: [] } : update;
  }, undefined);
}

/**
 * The full package of the version a client runs, for a client offered nothing (Squirrel.Windows
 * takes an empty RELEASES as a failure, and its own version's entry as "no update"): granted as an
 * exact version is (whatever its channel and rollout, never a draft or yanked, within the tier).
 * Null when there is none.
 */
export function installedPackage(grant: FeedSources['grant'], applicationId: string, packageId: string, localVersion: string): Eventually<GrantedFile | null> {
  const request: FileRequest = { applicationId, version: localVersion, fileName: `${packageId}-${localVersion}-full.nupkg` };
  try {
    const granted = grant(request);
    return isPending(granted) ? granted.catch(noPackage) : granted;
  } catch (error) {
    return noPackage(error);
  }
}

/**
 * The file a package link names: `<id>-<version>[-<suffix>]-{full,delta}.nupkg` is looked for in
 * the version its name gives, then in that version without each `-` suffix in turn (Velopack's
 * channel suffix), as a download URL grants an exact version (404, 410 yanked, 403 above the tier).
 */
export function grantPackage(releases: ReleaseCatalog, caller: ReleaseCaller, applicationId: string, fileName: string): Eventually<GrantedFile> {
  const name = nupkgName(fileName);
  if (!name) throw notFound(`no package named ${fileName}`);
  const candidates = versionCandidates(name.version);
  const attempt = (index: number): Eventually<GrantedFile> => {
    const request: FileRequest = { applicationId, version: candidates[index], fileName };
    const next = (error: unknown): Eventually<GrantedFile> => {
      if (index + 1 < candidates.length && isNotFound(error)) return attempt(index + 1);
      throw error;
    };
    try {
      const granted = releases.grant(caller, request);
      return isPending(granted) ? granted.catch(next) : granted;
    } catch (error) {
      return next(error);
    }
  };
  return attempt(0);
}

/** A release's full and delta packages for the target; none when it has no full package. */
function packagedRelease(release: OfferedRelease, target: PackageTarget): PackagedRelease[] {
  const packages: PackageFile[] = [];
  for (const file of release.files) {
    if (file.fileType !== 'MAIN' && file.fileType !== 'UPDATE') continue;
    if (!hasSha1(file)) continue;
    const name = nupkgName(file.fileName);
    if (!name || !nupkgOfVersion(name, release.version.version)) continue;
    if (target.packageId !== undefined && name.packageId !== target.packageId) continue;
    packages.push({ release, file, name });
  }
  // The closest fit first: the asked arch, then x64, arm64, ... as ARCHS orders them (`any` last).
  const rank = (item: PackageFile) => (item.file.arch === target.arch ? -1 : ARCHS.indexOf(item.file.arch));
  packages.sort((a, b) => rank(a) - rank(b));
  const full = packages.find((item) => item.name.kind === 'full');
  if (!full) return [];
  const delta = packages.find((item) => item.name.kind === 'delta' && item.file.arch === full.file.arch) ?? null;
  return [{ release, orderKey: versionOrderKey(release.version.version.replace(/^[vV]/, '')), full, delta }];
}

/**
 * The deltas that take a client from `localVersion` to the newest packaged release, oldest first.
 * A delta is built against the release before it, so the chain is given only when it provably fits:
 * the client's version is one the caller is offered with a package, every packaged release newer
 * than it has its delta, and no other version of the application (yanked, another channel, outside
 * the caller's rollout or tier, without a package; drafts aside) lies between them. Empty otherwise:
 * the client takes the full package.
 */
function deltaChain(packaged: readonly PackagedRelease[], installed: number, versions: readonly VersionWithFiles[] | undefined): PackageFile[] {
  if (installed <= 0 || !versions) return [];
  const local = packaged[installed].orderKey;
  const newer = packaged.slice(0, installed);
  if (!newer.every((item) => item.delta !== null)) return [];
  const newest = newer[0].orderKey;
  const between = versions.filter((version) => {
    if (version.status === 'draft') return false;
    const key = versionOrderKey(version.version.replace(/^[vV]/, ''));
    return compareOrderKeys(key, local) > 0 && compareOrderKeys(key, newest) <= 0;
  });
  if (between.length !== newer.length) return [];
  return newer.map((item) => item.delta as PackageFile).reverse();
}

const hasSha1 = <F extends FileRecord>(file: F): file is F & { sha1: string } => typeof file.sha1 === 'string' && file.sha1.length > 0;

/** `1.2.0-beta-linux`, then `1.2.0-beta`, then `1.2.0`: the versions a package's name may belong to. */
function versionCandidates(version: string): string[] {
  const candidates = [version];
  for (let cut = version.lastIndexOf('-'); cut > 0; cut = version.lastIndexOf('-', cut - 1)) candidates.push(version.slice(0, cut));
  return candidates;
}

/** A refusal of the client's own version (absent, yanked, above the tier) is no package; a failure of the store stays one. */
function noPackage(error: unknown): null {
  if (error instanceof AppError && error.status < 500) return null;
  throw error;
}

const isNotFound = (error: unknown): boolean => error instanceof AppError && error.status === 404;
