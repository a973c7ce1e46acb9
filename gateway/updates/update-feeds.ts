import { valid as validSemVer } from 'semver';
import { notFound } from '../../shared/errors';
import { defaultChannel } from '../../shared/releases/channels';
import { ARCHS, Arch, Platform, selectMainFile } from '../../shared/releases/platforms';
import { compareVersionPrecedence } from '../../shared/releases/version-order';
import { ElectronChannelFile, OperatingSystem, parseElectronChannelFile } from '../../shared/releases/update-client-names';
import { andThen, Eventually } from '../http/eventually';
import type { OfferedRelease, ReleaseCaller, ReleaseCatalog, ReleaseFile, ReleaseSelector } from '../downloads/release-catalog';
import { DigestedFile, electronFileUrl, electronUpdateInfo, hasSha512, tauriUpdateAnswer } from './feed-documents';
import type { SignatureTexts } from './signature-texts';

/** A release a Tauri client can take: its MAIN file for the target and the SIGNATURE file of the same platform and arch. */
interface TauriOffer {
  release: OfferedRelease;
  main: DigestedFile;
  signature: ReleaseFile;
}

/** What an update check answers: nothing newer (204), or the serialized answer. */
export type UpdateCheck = { kind: 'up-to-date' } | { kind: 'update'; json: string };

const UP_TO_DATE: UpdateCheck = Object.freeze({ kind: 'up-to-date' });

/**
 * The electron-updater and Tauri feeds, answered from the release catalogue: which releases the
 * caller is offered is the catalogue's answer; here only what each client can take is picked from
 * it (SemVer versions, files with a SHA-512, for Tauri a signature) and shaped for it. What is
 * derived is kept with the catalogue's own objects (its offered lists and releases), so it lives and
 * is dropped with them: a burst of checks serializes each answer once.
 */
export class UpdateFeeds {
  private readonly electronPicks = new WeakMap<readonly OfferedRelease[], Map<string, OfferedRelease | null>>();
  private readonly electronDocuments = new WeakMap<OfferedRelease, Map<string, string>>();
  private readonly tauriPicks = new WeakMap<readonly OfferedRelease[], Map<string, TauriOffer | null>>();
  private readonly tauriDocuments = new WeakMap<OfferedRelease, Map<string, string>>();

  constructor(
    private readonly releases: ReleaseCatalog,
    private readonly signatures: SignatureTexts,
    private readonly channels: readonly string[],
    /** Absolute base of the file links in Tauri answers. */
    private readonly publicBaseUrl: string,
  ) {}

  /** electron-updater's channel file (`latest.yml`, `beta-mac.yml`, ...) as YAML; 404 when there is no such file or no build. */
  electronChannelFile(caller: ReleaseCaller, applicationId: string, channelFile: string): Eventually<string> {
    const asked = parseElectronChannelFile(channelFile, this.channels);
    if (!asked) throw notFound(`no channel file ${channelFile}: electron-updater asks for <channel>[-mac|-linux[-<arch>]].yml`);
    const selector: ReleaseSelector = { applicationId, channel: asked.channel, platform: asked.platform, arch: asked.arch ?? undefined };
    return andThen(this.releases.releases(caller, selector), (offered) => {
      const release = this.electronPick(offered, asked);
      if (!release) throw notFound(`no version of ${applicationId} for ${describe(asked.platform, asked.arch)} in channel ${asked.channel}`);
      return this.electronDocument(release, asked);
    }, undefined);
  }

  /** Tauri's dynamic-server check: the newest signed SemVer release for the target, if newer than the caller's. */
  tauriCheck(caller: ReleaseCaller, applicationId: string, target: { platform: OperatingSystem; arch: Arch; channel?: string }, currentVersion: string): Eventually<UpdateCheck> {
    const selector: ReleaseSelector = { applicationId, channel: target.channel, platform: target.platform, arch: target.arch };
    return andThen(this.releases.releases(caller, selector), (offered) => {
      const offer = this.tauriPick(offered, target.platform, target.arch);
      if (!offer) {
        throw notFound(`no signed version of ${applicationId} for ${describe(target.platform, target.arch)} in channel ${target.channel ?? defaultChannel(this.channels)}`);
      }
      if (compareVersionPrecedence(offer.release.version.version, currentVersion) <= 0) return UP_TO_DATE;
      return andThen(this.tauriDocument(applicationId, offer), (json): UpdateCheck => ({ kind: 'update', json }), undefined);
    }, undefined);
  }

  private electronPick(offered: readonly OfferedRelease[], asked: ElectronChannelFile): OfferedRelease | null {
    const key = `${asked.platform}|${asked.arch ?? ''}`;
    let picks = this.electronPicks.get(offered);
    if (!picks) {
      picks = new Map();
      this.electronPicks.set(offered, picks);
    }
    let pick = picks.get(key);
    if (pick === undefined) {
      pick = offered.find((release) => validSemVer(release.version.version) && electronFiles(release, asked).length > 0) ?? null;
      picks.set(key, pick);
    }
    return pick;
  }

  private electronDocument(release: OfferedRelease, asked: ElectronChannelFile): string {
    const key = `${asked.platform}|${asked.arch ?? ''}`;
    let documents = this.electronDocuments.get(release);
    if (!documents) {
      documents = new Map();
      this.electronDocuments.set(release, documents);
    }
    let document = documents.get(key);
    if (document === undefined) {
      document = electronUpdateInfo(release.version, electronFiles(release, asked));
      documents.set(key, document);
    }
    return document;
  }

  private tauriPick(offered: readonly OfferedRelease[], platform: Platform, arch: Arch): TauriOffer | null {
    const key = `${platform}|${arch}`;
    let picks = this.tauriPicks.get(offered);
    if (!picks) {
      picks = new Map();
      this.tauriPicks.set(offered, picks);
    }
    let pick = picks.get(key);
    if (pick === undefined) {
      pick = null;
      for (const release of offered) {
        pick = validSemVer(release.version.version) ? tauriOffer(release, platform, arch) : null;
        if (pick) break;
      }
      picks.set(key, pick);
    }
    return pick;
  }

  private tauriDocument(applicationId: string, offer: TauriOffer): Eventually<string> {
    const key = offer.signature.fileId;
    const cached = this.tauriDocuments.get(offer.release)?.get(key);
    if (cached !== undefined) return cached;
    return andThen(this.signatures.text(offer.signature), (signature) => {
      const url = `${this.publicBaseUrl}${electronFeedPath(applicationId)}/${electronFileUrl(offer.main)}`;
      const json = JSON.stringify(tauriUpdateAnswer(offer.release.version, url, signature));
      let documents = this.tauriDocuments.get(offer.release);
      if (!documents) {
        documents = new Map();
        this.tauriDocuments.set(offer.release, documents);
      }
      documents.set(key, json);
      return json;
    }, undefined);
  }
}

/** The electron feed's base path; its file route answers every feed's file links. */
export const electronFeedPath = (applicationId: string): string => `/v1/updates/${applicationId}/electron`;

/**
 * The MAIN files a channel file lists: Linux clients ask per arch, so one; Windows and macOS clients
 * ask one file for every arch and pick by name, so every closest fit (x64 and arm64 builds alike),
 * x64 first, the pick of a client whose arch no file name holds. Files without a SHA-512 yet are left
 * out: the client verifies it.
 */
function electronFiles(release: OfferedRelease, asked: ElectronChannelFile): DigestedFile[] {
  const mains = release.files.filter((file) => file.fileType === 'MAIN');
  const selection = selectMainFile(mains, { platform: asked.platform, arch: asked.arch ?? undefined });
  const files = selection.kind === 'match' ? [selection.file] : selection.kind === 'ambiguous' ? [...selection.choices] : [];
  return files.filter(hasSha512).sort((a, b) => ARCHS.indexOf(a.arch) - ARCHS.indexOf(b.arch));
}

/**
 * A Tauri client verifies the download against the signature in the answer, so a release is only
 * offered with its MAIN file for the target and a SIGNATURE of the same platform and arch: the one
 * named `<main>.sig` (what `tauri signer sign` writes) when there are several.
 */
function tauriOffer(release: OfferedRelease, platform: Platform, arch: Arch): TauriOffer | null {
  const mains = release.files.filter((file) => file.fileType === 'MAIN');
  const selection = selectMainFile(mains, { platform, arch });
  if (selection.kind !== 'match' || !hasSha512(selection.file)) return null;
  const main = selection.file;
  const signatures = release.files.filter((file) => file.fileType === 'SIGNATURE' && file.platform === main.platform && file.arch === main.arch);
  const signature = signatures.find((file) => file.fileName === `${main.fileName}.sig`) ?? signatures[signatures.length - 1];
  return signature ? { release, main, signature } : null;
}

function describe(platform: Platform, arch: Arch | null | undefined): string {
  return arch ? `platform ${platform}, arch ${arch}` : `platform ${platform}`;
}
