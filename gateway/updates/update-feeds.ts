import { valid as validSemVer } from 'semver';
import { notFound } from '../../shared/errors';
import { macUpdateFiles } from '../../shared/releases/mac-updates';
import { ARCHS, Arch, Platform, selectMainFile } from '../../shared/releases/platforms';
import { compareOrderKeys, versionOrderKey } from '../../shared/releases/version-order';
import type { Version } from '../../shared/store/models';
import type { ElectronChannelFile, OperatingSystem } from '../../shared/releases/update-client-names';
import { andThen, Eventually } from '../http/eventually';
import type { OfferedRelease, ReleaseCaller, ReleaseCatalog, ReleaseFile, ReleaseSelector } from '../releases/release-catalog';
import type { ChannelFileRequest, RunningVersion } from './update-schemas';
import { DigestedFile, electronFileUrl, electronUpdateInfo, hasSha512, tauriUpdateAnswer } from './feed-documents';
import type { SignatureTexts } from './signature-texts';

/** A release a Tauri client can take: its MAIN file for the target and the SIGNATURE file of the same platform and arch. */
interface TauriOffer {
  release: OfferedRelease;
  main: ReleaseFile;
  signature: ReleaseFile;
}

/** What an update check answers: nothing newer (204), or the offered version and the answer's JSON bytes. */
export type UpdateCheck = { kind: 'up-to-date' } | { kind: 'update'; version: string; body: Buffer };

/** electron-updater's channel file: the version it offers and its YAML bytes. */
export interface ElectronChannelAnswer {
  version: string;
  body: Buffer;
}

/** What Squirrel.Mac's check finds: nothing newer, or the release and its macOS MAIN file to link to. */
export type SquirrelMacCheck = { kind: 'up-to-date' } | SquirrelMacUpdate;
export type SquirrelMacUpdate = { kind: 'update'; release: OfferedRelease; file: ReleaseFile };

/** The macOS build a Squirrel.Mac client asks about: its arch and channel. */
export interface SquirrelMacTarget {
  arch: Arch;
  channel?: string;
}

const UP_TO_DATE = Object.freeze({ kind: 'up-to-date' as const });

/**
 * The electron-updater, Tauri and Squirrel.Mac feeds, answered from the release catalogue: which
 * releases the caller is offered is the catalogue's answer; here only what each client can take is
 * picked from it (SemVer versions; for electron-updater files with a SHA-512, for Tauri a signature)
 * and shaped for it. What is derived is kept with the catalogue's own objects (its offered lists,
 * releases and versions), so it lives and is dropped with them: a burst of checks serializes each
 * answer once.
 */
export class UpdateFeeds {
  /** Per offered list, by platform and arch (`` for none): nested maps, so a lookup builds no key string. */
  private readonly electronPicks = new WeakMap<readonly OfferedRelease[], ByTarget<OfferedRelease | null>>();
  private readonly electronDocuments = new WeakMap<OfferedRelease, ByTarget<ElectronChannelAnswer>>();
  private readonly tauriPicks = new WeakMap<readonly OfferedRelease[], ByTarget<TauriOffer | null>>();
  private readonly squirrelPicks = new WeakMap<readonly OfferedRelease[], ByTarget<SquirrelMacUpdate | null>>();
  /** Per release, by the signature file's id. */
  private readonly tauriDocuments = new WeakMap<OfferedRelease, Map<string, Buffer>>();
  /** Versions are frozen records of the catalogue, replaced on every change. */
  private readonly orderKeys = new WeakMap<Version, string>();

  constructor(
    private readonly releases: ReleaseCatalog,
    private readonly signatures: SignatureTexts,
    /** Absolute base of the file links in Tauri answers. */
    private readonly publicBaseUrl: string,
  ) {}

  /** electron-updater's channel file (`latest.yml`, `beta-mac.yml`, ...) with the version it offers; 404 when there is no such file or no build. */
  electronChannelFile(caller: ReleaseCaller, applicationId: string, channelFile: ChannelFileRequest): Eventually<ElectronChannelAnswer> {
    const asked = channelFile.file;
    if (!asked) throw notFound(`no channel file ${channelFile.fileName}: electron-updater asks for <channel>[-mac|-linux[-<arch>]].yml`);
    const selector: ReleaseSelector = { applicationId, channel: asked.channel, platform: asked.platform, arch: asked.arch ?? undefined };
    return andThen(this.releases.releases(caller, selector), (offered) => {
      const release = this.electronPick(offered, asked);
      if (!release) throw notFound(`no version of ${applicationId} for ${describe(asked.platform, asked.arch)} in channel ${asked.channel}`);
      return this.electronDocument(release, asked);
    }, undefined);
  }

  /**
   * Tauri's dynamic-server check: the newest signed SemVer release for the target, if newer than the
   * caller's. A caller who may use the application but is offered no signed build for its target is
   * up to date (Tauri's updater takes any answer but 204 and a valid 200 as a failure).
   */
  tauriCheck(
    caller: ReleaseCaller,
    applicationId: string,
    target: { platform: OperatingSystem; arch: Arch; channel?: string },
    running: RunningVersion,
    /** The base of the answer's link: the caller's (callerBaseUrl), which keeps an access token given in the path. */
    baseUrl = this.publicBaseUrl,
  ): Eventually<UpdateCheck> {
    const selector: ReleaseSelector = { applicationId, channel: target.channel, platform: target.platform, arch: target.arch };
    const answer = (offer: TauriOffer): Eventually<UpdateCheck> =>
      andThen(this.tauriDocument(applicationId, offer, baseUrl), (body): UpdateCheck => ({ kind: 'update', version: offer.release.version.version, body }), undefined);
    // Signed under a key the application replaced, the install is offered only releases signed under it.
    return andThen(this.releases.releasesFor(caller, selector, running.version, 'minisign'), (offered) => {
      const offer = this.tauriPick(offered, target.platform, target.arch);
      if (offer && this.isNewer(offer.release.version, running)) return answer(offer);
      // Nothing newer: an install of a yanked version is offered its rollback, which the app takes
      // when its updater's version comparator accepts an older version (README).
      return andThen(this.releases.rollback(caller, selector, running.version), (target): Eventually<UpdateCheck> => {
        const back = target && validSemVer(target.version.version) ? tauriOffer(target, selector.platform as Platform, selector.arch as Arch) : null;
        return back ? answer(back) : UP_TO_DATE;
      }, undefined);
    }, undefined);
  }

  /**
   * Squirrel.Mac's check: the newest release offered for macOS and the arch, with its MAIN file,
   * when newer than the caller's (Squirrel installs whatever it is given, so an equal version is no
   * update); up to date too when no macOS build is offered to the caller.
   */
  squirrelMacCheck(caller: ReleaseCaller, applicationId: string, target: SquirrelMacTarget, running: RunningVersion): Eventually<SquirrelMacCheck> {
    const selector: ReleaseSelector = { applicationId, channel: target.channel, platform: 'macos', arch: target.arch };
    return andThen(this.releases.releases(caller, selector), (offered): Eventually<SquirrelMacCheck> => {
      const latest = this.squirrelPick(offered, target.arch);
      if (latest && this.isNewer(latest.release.version, running)) return latest;
      // Nothing newer: an install of a yanked version is given its rollback, which Squirrel.Mac
      // installs as it installs any answer; otherwise (no .zip for its arch either) up to date.
      return andThen(this.releases.rollback(caller, selector, running.version), (back): SquirrelMacCheck => {
        const selection = back ? selectMainFile(macUpdateFiles(back.files), { platform: 'macos', arch: target.arch }) : null;
        return back && selection?.kind === 'match' ? { kind: 'update', release: back, file: selection.file } : UP_TO_DATE;
      }, undefined);
    }, undefined);
  }

  /** The newest offered release with a `.zip` Squirrel.Mac can install for the arch, with that file. */
  private squirrelPick(offered: readonly OfferedRelease[], arch: Arch): SquirrelMacUpdate | null {
    const picks = targetMap(this.squirrelPicks, offered, 'macos');
    let pick = picks.get(arch);
    if (pick === undefined) {
      pick = null;
      for (const release of offered) {
        const selection = selectMainFile(macUpdateFiles(release.files), { platform: 'macos', arch });
        if (selection.kind === 'match') {
          pick = { kind: 'update', release, file: selection.file };
          break;
        }
      }
      picks.set(arch, pick);
    }
    return pick;
  }

  /** Whether an offered version ranks above the one the client runs, by the version order. */
  private isNewer(version: Version, running: RunningVersion): boolean {
    let key = this.orderKeys.get(version);
    if (key === undefined) {
      key = versionOrderKey(version.version);
      this.orderKeys.set(version, key);
    }
    return compareOrderKeys(key, running.orderKey) > 0;
  }

  private electronPick(offered: readonly OfferedRelease[], asked: ElectronChannelFile): OfferedRelease | null {
    const picks = targetMap(this.electronPicks, offered, asked.platform);
    const arch = asked.arch ?? '';
    let pick = picks.get(arch);
    if (pick === undefined) {
      pick = offered.find((release) => validSemVer(release.version.version) && electronFiles(release, asked).length > 0) ?? null;
      picks.set(arch, pick);
    }
    return pick;
  }

  private electronDocument(release: OfferedRelease, asked: ElectronChannelFile): ElectronChannelAnswer {
    const documents = targetMap(this.electronDocuments, release, asked.platform);
    const arch = asked.arch ?? '';
    let document = documents.get(arch);
    if (document === undefined) {
      document = { version: release.version.version, body: Buffer.from(electronUpdateInfo(release.version, electronFiles(release, asked))) };
      documents.set(arch, document);
    }
    return document;
  }

  private tauriPick(offered: readonly OfferedRelease[], platform: Platform, arch: Arch): TauriOffer | null {
    const picks = targetMap(this.tauriPicks, offered, platform);
    let pick = picks.get(arch);
    if (pick === undefined) {
      pick = null;
      for (const release of offered) {
        pick = validSemVer(release.version.version) ? tauriOffer(release, platform, arch) : null;
        if (pick) break;
      }
      picks.set(arch, pick);
    }
    return pick;
  }

  private tauriDocument(applicationId: string, offer: TauriOffer, baseUrl: string): Eventually<Buffer> {
    const key = offer.signature.fileId;
    // Documents are kept only for the public base: one whose link carries a caller's token is the caller's.
    const shared = baseUrl === this.publicBaseUrl;
    const cached = shared ? this.tauriDocuments.get(offer.release)?.get(key) : undefined;
    if (cached !== undefined) return cached;
    return andThen(this.signatures.text(offer.signature), (signature) => {
      const url = `${baseUrl}${electronFeedPath(applicationId)}/${electronFileUrl(offer.main)}`;
      const body = Buffer.from(JSON.stringify(tauriUpdateAnswer(offer.release.version, url, signature)));
      if (!shared) return body;
      let documents = this.tauriDocuments.get(offer.release);
      if (!documents) {
        documents = new Map();
        this.tauriDocuments.set(offer.release, documents);
      }
      documents.set(key, body);
      return body;
    }, undefined);
  }
}

/** Derived values of one catalogue object, by platform then arch. */
type ByTarget<V> = Map<string, Map<string, V>>;

/** The map of `owner`'s values for `platform`, by arch; created empty the first time. */
function targetMap<K extends object, V>(memo: WeakMap<K, ByTarget<V>>, owner: K, platform: string): Map<string, V> {
  let byPlatform = memo.get(owner);
  if (!byPlatform) {
    byPlatform = new Map();
    memo.set(owner, byPlatform);
  }
  let byArch = byPlatform.get(platform);
  if (!byArch) {
    byArch = new Map();
    byPlatform.set(platform, byArch);
  }
  return byArch;
}

/** The electron feed's base path; its file route answers every feed's file links. */
export const electronFeedPath = (applicationId: string): string => `/v1/updates/${applicationId}/electron`;

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

/**
 * A Tauri client verifies the download against the signature in the answer, so a release is only
 * offered with its MAIN file for the target and a SIGNATURE of the same platform and arch: the one
 * named `<main>.sig` (what `tauri signer sign` writes) when there are several.
 */
function tauriOffer(release: OfferedRelease, platform: Platform, arch: Arch): TauriOffer | null {
  const mains = release.files.filter((file) => file.fileType === 'MAIN');
  const selection = selectMainFile(mains, { platform, arch });
  if (selection.kind !== 'match') return null;
  const main = selection.file;
  // A signature that no longer verifies under the application's key (signatureProblem) is no signature.
  const signatures = release.files.filter((file) => file.fileType === 'SIGNATURE' && !file.signatureProblem && file.platform === main.platform && file.arch === main.arch);
  const signature = signatures.find((file) => file.fileName === `${main.fileName}.sig`) ?? signatures[signatures.length - 1];
  return signature ? { release, main, signature } : null;
}

function describe(platform: Platform, arch: Arch | null | undefined): string {
  return arch ? `platform ${platform}, arch ${arch}` : `platform ${platform}`;
}
