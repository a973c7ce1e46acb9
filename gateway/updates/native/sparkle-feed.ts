import { SPARKLE_APPCAST_MAX_ITEMS } from '../../../shared/policy';
import { macUpdateFiles } from '../../../shared/releases/mac-updates';
import { Arch, selectMainFile } from '../../../shared/releases/platforms';
import { sparkleSignatureOf, sparkleText } from '../../../shared/signing/sparkle';
import { signedFileName } from '../../../shared/releases/signed-files';
import { andThen, Eventually, isPending } from '../../http/eventually';
import type { OfferedRelease, ReleaseCaller, ReleaseCatalog, ReleaseFile } from '../../releases/release-catalog';
import { electronFileUrl } from '../feed-documents';
import type { SignatureTexts } from '../signature-texts';
import { AppcastItem, AppcastSystem, sparkleAppcast } from './sparkle-appcast';
import { electronFeedPath } from '../update-feeds';

/** What a Sparkle client asks for: its channel (cascading to the more stable ones), its system, and an arch when builds differ by arch. */
export interface AppcastRequest {
  applicationId: string;
  channel: string;
  system: AppcastSystem;
  arch?: Arch;
}

/** A release's signed files, without links: what the offered list decides, whoever asks. */
interface SignedRelease {
  release: OfferedRelease;
  archive: SignedFile;
  deltas: readonly (SignedFile & { deltaFrom: string })[];
}

interface SignedFile {
  file: ReleaseFile;
  edSignature: string;
}

const DELTA_SUFFIX = '.delta';
/** Documents kept per signed list, by feed URL (a path token makes one per caller): past this, answers are built and not kept. */
const MAX_DOCUMENTS_PER_LIST = 16;

/**
 * Sparkle's appcast, answered from the release catalogue: which releases the caller is offered is
 * the catalogue's answer (access, tier, channel cascade, rollout, no drafts, no yanked); here only
 * what Sparkle can take is picked from it: per release the MAIN archive for the system (and arch),
 * with its Sparkle signature, and the `.delta` files beside it with theirs. Sparkle refuses an archive
 * without a valid EdDSA signature, so an archive (or delta) without one, or whose signature no longer
 * verifies (signatureProblem), is not offered. The picks are kept with the catalogue's offered list,
 * so they are dropped with it; the links are made per answer, since a caller's path token is in them.
 */
/** An appcast and the newest release it offers (null: none), which the check's record names. */
export interface AppcastAnswer {
  document: Buffer;
  offeredVersion: string | null;
}

export class SparkleFeed {
  private readonly picks = new WeakMap<readonly OfferedRelease[], Map<string, Eventually<readonly SignedRelease[]>>>();
  private readonly documents = new WeakMap<readonly SignedRelease[], Map<string, Buffer>>();

  constructor(private readonly releases: ReleaseCatalog, private readonly signatures: SignatureTexts) {}

  /** The appcast's bytes for the caller; `baseUrl` is the base of its links (callerBaseUrl). Throws 404 when the caller has no access. */
  appcast(caller: ReleaseCaller, request: AppcastRequest, baseUrl: string, feedUrl: string, running?: string): Eventually<AppcastAnswer> {
    const { applicationId, channel, system, arch } = request;
    // `running`: the bundle version Sparkle's User-Agent names; signed under a replaced key, it is offered only releases signed under that key.
    return andThen(this.releases.releasesFor(caller, { applicationId, channel, platform: system, arch }, running, 'sparkle'), (offered) =>
      andThen(this.signedReleases(offered, system, arch), (signed): AppcastAnswer => {
        // Newest first: the release Sparkle would install, if newer than what it runs.
        const offeredVersion = signed[0]?.release.version.version ?? null;
        let documents = this.documents.get(signed);
        const kept = documents?.get(feedUrl);
        if (kept) return { document: kept, offeredVersion };
        const fileUrl = (file: ReleaseFile) => `${baseUrl}${electronFeedPath(applicationId)}/${electronFileUrl(file)}`;
        const items: AppcastItem[] = signed.map(({ release, archive, deltas }) => ({
          version: release.version,
          archive: { ...archive, url: fileUrl(archive.file) },
          deltas: deltas.map((delta) => ({ ...delta, url: fileUrl(delta.file) })),
        }));
        const channelInfo = { title: applicationId, link: feedUrl, description: `Updates of ${applicationId} in channel ${channel}` };
        const document = sparkleAppcast(channelInfo, items, system);
        if (!documents) {
          documents = new Map();
          this.documents.set(signed, documents);
        }
        if (documents.size < MAX_DOCUMENTS_PER_LIST) documents.set(feedUrl, document);
        return { document, offeredVersion };
      }, undefined), undefined);
  }

  private signedReleases(offered: readonly OfferedRelease[], system: AppcastSystem, arch: Arch | undefined): Eventually<readonly SignedRelease[]> {
    let byTarget = this.picks.get(offered);
    if (!byTarget) {
      byTarget = new Map();
      this.picks.set(offered, byTarget);
    }
    const key = `${system}/${arch ?? ''}`;
    let pick = byTarget.get(key);
    if (pick === undefined) {
      const picked = this.pick(offered, system, arch);
      const picks = byTarget;
      picks.set(key, picked);
      // Kept as the value once read, so later checks answer without waiting; a failed read (the
      // object store down) is not kept: the next check tries again.
      picked.then((value) => picks.set(key, value), () => picks.delete(key));
      pick = picked;
    }
    return pick;
  }

  /**
   * The newest releases with a signed archive, at most SPARKLE_APPCAST_MAX_ITEMS: the MAIN archive
   * when it is signed, else the `.zip` uploaded beside it (Sparkle installs either) when that is.
   */
  private async pick(offered: readonly OfferedRelease[], system: AppcastSystem, arch: Arch | undefined): Promise<readonly SignedRelease[]> {
    const signed: SignedRelease[] = [];
    for (const release of offered) {
      if (signed.length >= SPARKLE_APPCAST_MAX_ITEMS) break;
      const main = archiveOf(release, system, arch);
      if (!main) continue;
      for (const archive of [main, ...updateZipsOf(release, main)]) {
        const signatures = await this.signaturesByFile(release, archive);
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
  private async signaturesByFile(release: OfferedRelease, archive: ReleaseFile): Promise<Map<string, string>> {
    const byFile = new Map<string, string>();
    const candidates = release.files.filter((file) => file.fileType === 'SIGNATURE' && !file.signatureProblem && sameTarget(file, archive));
    for (const signature of candidates) {
      const text = this.signatures.text(signature);
      const bytes = sparkleSignatureOf(isPending(text) ? await text : text);
      if (!bytes) continue;
      const named = signedFileName(signature.fileName);
      const signed = release.files.find((file) => file.fileName === named && file.fileType !== 'SIGNATURE' && sameTarget(file, archive));
      // The newest upload of several for one file wins: files are oldest first.
      byFile.set((signed ?? archive).fileId, sparkleText(bytes));
    }
    return byFile;
  }
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
