import { SPARKLE_APPCAST_MAX_ITEMS } from '../../../shared/policy';
import { macUpdateFiles } from '../../../shared/releases/mac-updates';
import { Arch, selectMainFile } from '../../../shared/releases/platforms';
import { signedFileName } from '../../../shared/releases/signed-files';
import { sparkleSignatureOf, sparkleText } from '../../../shared/signing/sparkle';
import { isPending } from '../../http/eventually';
import type { OfferedRelease, ReleaseFile } from '../../releases/release-catalog';
import { fileLink, FeedDocument, FeedFamily, FeedLinks, FeedRequest, FeedSources } from '../engine/feed-family';
import { AppcastItem, AppcastSystem, sparkleAppcast } from './sparkle-appcast';

/**
 * Sparkle's appcast (and WinSparkle's and NetSparkle's): per offered release the MAIN archive for
 * the system (and arch) with its Sparkle signature, and the `.delta` files beside it with theirs.
 * Sparkle refuses an archive without a valid EdDSA signature, so an archive (or delta) without one,
 * or whose signature no longer verifies (signatureProblem), is not offered. No item (nothing to
 * offer) is a valid feed Sparkle reads as up to date.
 */

export interface AppcastCheck extends FeedRequest {
  channel: string;
  system: AppcastSystem;
  arch?: Arch;
  /** The app's bundle version, from Sparkle's User-Agent. */
  userAgentVersion: string | undefined;
}

/** A release's signed files, without links. */
export interface SignedRelease {
  release: OfferedRelease;
  archive: SignedFile;
  deltas: readonly (SignedFile & { deltaFrom: string })[];
}

interface SignedFile {
  file: ReleaseFile;
  edSignature: string;
}

const APPCAST_CONTENT_TYPE = 'application/rss+xml; charset=utf-8';
const DELTA_SUFFIX = '.delta';

export const sparkleFeedPath = (applicationId: string, channel: string): string => `/v1/updates/${applicationId}/sparkle/${channel}/appcast.xml`;

export const sparkleAppcastFeed: FeedFamily<AppcastCheck, readonly SignedRelease[]> = {
  selector: ({ applicationId, channel, system, arch }) => ({ applicationId, channel, platform: system, arch }),
  // Sparkle names what it runs by its bundle version (the catalogue matches it to a version's bundleVersion).
  signedWith: { kind: 'sparkle', running: ({ userAgentVersion }) => userAgentVersion },
  // The channel names the feed (its link and description); the links are under the caller's base.
  key: ({ channel, system, arch }, links) => `sparkle/${system}/${arch ?? ''}/${channel}/${links.base}`,
  pick: (offered, { system, arch }, sources) => signedReleases(offered, system, arch, sources),
  document: (signed, links, request) => appcastDocument(signed, links, request),
  check: ({ applicationId, channel, system, arch, userAgentVersion }, { offeredVersion }) => ({
    applicationId, client: 'sparkle', platform: system, arch: arch ?? (system === 'macos' ? 'universal' : 'any'), channel, runningVersion: userAgentVersion, offeredVersion, installId: null,
  }),
};

function appcastDocument(signed: readonly SignedRelease[], links: FeedLinks, { applicationId, channel, system }: AppcastCheck): FeedDocument {
  const link = (file: ReleaseFile) => fileLink(links, applicationId, file);
  const items: AppcastItem[] = signed.map(({ release, archive, deltas }) => ({
    version: release.version,
    archive: { ...archive, url: link(archive.file) },
    deltas: deltas.map((delta) => ({ ...delta, url: link(delta.file) })),
  }));
  const channelInfo = { title: applicationId, link: `${links.base}${sparkleFeedPath(applicationId, channel)}`, description: `Updates of ${applicationId} in channel ${channel}` };
  // Newest first: the release Sparkle would install, if newer than what it runs.
  return { contentType: APPCAST_CONTENT_TYPE, body: sparkleAppcast(channelInfo, items, system), offeredVersion: signed[0]?.release.version.version ?? null };
}

/**
 * The newest releases with a signed archive, at most SPARKLE_APPCAST_MAX_ITEMS: the MAIN archive
 * when it is signed, else the `.zip` uploaded beside it (Sparkle installs either) when that is.
 */
export async function signedReleases(offered: readonly OfferedRelease[], system: AppcastSystem, arch: Arch | undefined, sources: Pick<FeedSources, 'signature'>): Promise<readonly SignedRelease[]> {
  const signed: SignedRelease[] = [];
  for (const release of offered) {
    if (signed.length >= SPARKLE_APPCAST_MAX_ITEMS) break;
    const main = archiveOf(release, system, arch);
    if (!main) continue;
    for (const archive of [main, ...updateZipsOf(release, main)]) {
      const signatures = await signaturesByFile(release, archive, sources);
      const archiveSignature = signatures.get(archive.fileId);
      if (!archiveSignature) continue;
      const deltas = release.files
        .filter((file) => file.fileName.endsWith(DELTA_SUFFIX) && file.fileType !== 'SIGNATURE' && sameTarget(file, archive) && signatures.has(file.fileId))
        .map((file) => ({ file, edSignature: signatures.get(file.fileId) as string, deltaFrom: deltaFromOf(file.fileName) }))
        .filter((delta) => delta.deltaFrom.length > 0);
      signed.push({ release, archive: { file: archive, edSignature: archiveSignature }, deltas });
      break;
    }
  }
  return signed;
}

/**
 * The Sparkle signatures of a release's files for the archive's target, by the id of the file each
 * signs: the one its name names (`{file}.sig`), else the MAIN archive, as the upload check decided.
 */
async function signaturesByFile(release: OfferedRelease, archive: ReleaseFile, sources: Pick<FeedSources, 'signature'>): Promise<Map<string, string>> {
  const byFile = new Map<string, string>();
  const candidates = release.files.filter((file) => file.fileType === 'SIGNATURE' && !file.signatureProblem && sameTarget(file, archive));
  for (const signature of candidates) {
    const text = sources.signature(signature);
    const bytes = sparkleSignatureOf(isPending(text) ? await text : text);
    if (!bytes) continue;
    const named = signedFileName(signature.fileName);
    const signed = release.files.find((file) => file.fileName === named && file.fileType !== 'SIGNATURE' && sameTarget(file, archive));
    // The newest upload of several for one file wins: files are oldest first.
    byFile.set((signed ?? archive).fileId, sparkleText(bytes));
  }
  return byFile;
}

/**
 * The release's MAIN archive for the system: the closest fit for the arch asked; with none asked and
 * builds per arch, the universal one, else none (the feed URL must then name `arch`).
 */
function archiveOf(release: OfferedRelease, system: AppcastSystem, arch: Arch | undefined): ReleaseFile | undefined {
  const mains = release.files.filter((file) => file.fileType === 'MAIN');
  const selection = selectMainFile(mains, { platform: system, arch });
  if (selection.kind === 'match') return selection.file;
  if (selection.kind === 'ambiguous') return selection.choices.find((file) => file.arch === 'universal');
  return undefined;
}

/** The `.zip` UPDATE files beside a macOS MAIN archive, for its platform and arch. */
function updateZipsOf(release: OfferedRelease, main: ReleaseFile): ReleaseFile[] {
  if (main.platform !== 'macos') return [];
  return macUpdateFiles(release.files).filter((file) => file.fileType === 'UPDATE' && sameTarget(file, main));
}

const sameTarget = (file: ReleaseFile, archive: ReleaseFile): boolean => file.platform === archive.platform && file.arch === archive.arch;

/**
 * The bundle version a delta updates from, as `generate_appcast` names deltas
 * (`{App}{newBuild}-{oldBuild}.delta`): what follows the last `-`. Bundle versions hold no `-`
 * (CFBundleVersion is dot-separated numbers).
 */
export function deltaFromOf(fileName: string): string {
  const stem = fileName.slice(0, -DELTA_SUFFIX.length);
  const dash = stem.lastIndexOf('-');
  return dash < 0 ? '' : stem.slice(dash + 1);
}
