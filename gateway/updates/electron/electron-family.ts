import { valid as validSemVer } from 'semver';
import { stringify } from 'yaml';
import { notFound } from '../../../shared/errors';
import { macUpdateFiles } from '../../../shared/releases/mac-updates';
import { ARCHS, Arch, Platform, selectMainFile } from '../../../shared/releases/platforms';
import type { ElectronChannelFile } from '../../../shared/releases/update-client-names';
import type { FileRecord, Version } from '../../../shared/store/models';
import type { OfferedRelease } from '../../releases/release-catalog';
import type { FeedDocument, FeedFamily, FeedRequest } from '../engine/feed-family';
import { relativeFileUrl } from '../engine/feed-family';

/**
 * electron-updater's channel file (`latest.yml`, `beta-mac.yml`, `latest-linux-arm64.yml`, ...):
 * the newest offered SemVer release with files the client can take, as electron-builder writes it.
 */

export interface ChannelFileCheck extends FeedRequest {
  /** The file's name as asked, and what it names. */
  fileName: string;
  file: ElectronChannelFile;
  /** The client's install identity (`x-user-staging-id`) and the version the app says it runs (`X-App-Version`), for the check's event. */
  installId: string | null;
  appVersion: string | undefined;
}

const YAML_CONTENT_TYPE = 'text/yaml; charset=utf-8';

/** A file as the feeds serve it: its SHA-512 is known (files without one are not served until the digest backfill reaches them). */
export type DigestedFile = FileRecord & { sha512: string };

export const hasSha512 = <F extends FileRecord>(file: F): file is F & DigestedFile => typeof file.sha512 === 'string' && file.sha512.length > 0;

export const electronChannelFile: FeedFamily<ChannelFileCheck, OfferedRelease | null> = {
  selector: ({ applicationId, file }) => ({ applicationId, channel: file.channel, platform: file.platform, arch: file.arch ?? undefined }),
  // The document holds relative links only: the same for every caller of the selection.
  key: ({ file }) => `electron/${file.platform}/${file.arch ?? ''}`,
  pick: (offered, { file }) => offered.find((release) => validSemVer(release.version.version) && electronFiles(release, file).length > 0) ?? null,
  document: (release, _links, { applicationId, file }): FeedDocument => {
    if (!release) throw notFound(`no version of ${applicationId} for ${describe(file.platform, file.arch)} in channel ${file.channel}`);
    return { contentType: YAML_CONTENT_TYPE, body: Buffer.from(electronUpdateInfo(release.version, electronFiles(release, file))), offeredVersion: release.version.version };
  },
  check: ({ applicationId, file, appVersion, installId }, { offeredVersion }) => ({
    applicationId, client: 'electron-updater', platform: file.platform, arch: file.arch ?? 'any', channel: file.channel, runningVersion: appVersion, offeredVersion, installId,
  }),
};

/**
 * electron-updater's UpdateInfo, as electron-builder writes `latest.yml`: `files` with url, sha512
 * and size (the client picks one by extension and arch), and the first file again as the legacy
 * `path` and `sha512`. Written as YAML 1.1, the schema js-yaml reads it with, so a date-like string
 * stays a string. No `stagingPercentage`: the staged rollout is decided here, per customer.
 */
export function electronUpdateInfo(version: Version, files: readonly DigestedFile[]): string {
  const [first] = files;
  const info: Record<string, unknown> = {
    version: version.version,
    files: files.map((file) => ({ url: relativeFileUrl(file), sha512: file.sha512, size: file.fileSize })),
    path: relativeFileUrl(first),
    sha512: first.sha512,
    releaseDate: (version.publishedAt ?? version.createdAt).toISOString(),
  };
  if (version.releaseNotes !== null) info.releaseNotes = version.releaseNotes;
  return stringify(info, { version: '1.1', lineWidth: 0 });
}

/**
 * The MAIN files a channel file lists: Linux clients ask per arch, so one; Windows and macOS clients
 * ask one file for every arch and pick by name, so every closest fit (x64 and arm64 builds alike),
 * x64 first, the pick of a client whose arch no file name holds. For macOS only `.zip` files, MAIN or
 * UPDATE, which is what MacUpdater installs (shared/releases/mac-updates.ts). Files without a SHA-512
 * yet are left out: the client verifies it.
 */
function electronFiles(release: OfferedRelease, asked: ElectronChannelFile): DigestedFile[] {
  const mains = asked.platform === 'macos' ? macUpdateFiles(release.files) : release.files.filter((file) => file.fileType === 'MAIN');
  const selection = selectMainFile(mains, { platform: asked.platform, arch: asked.arch ?? undefined });
  const files = selection.kind === 'match' ? [selection.file] : selection.kind === 'ambiguous' ? [...selection.choices] : [];
  return files.filter(hasSha512).sort((a, b) => ARCHS.indexOf(a.arch) - ARCHS.indexOf(b.arch));
}

function describe(platform: Platform, arch: Arch | null | undefined): string {
  return arch ? `platform ${platform}, arch ${arch}` : `platform ${platform}`;
}
