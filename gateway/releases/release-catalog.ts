import type { OfferedRelease, ReleaseFile } from '../../shared/contract/releases';
import { AppError, ErrorDetail, forbidden, gone, notFound } from '../../shared/errors';
import { BLOCKMAP_FILE } from '../../shared/releases/blockmaps';
import { channelOffers, defaultChannel } from '../../shared/releases/channels';
import { customerAnswerFor, isOfferedToCustomers } from '../../shared/releases/lifecycle';
import {
  Arch,
  DEFAULT_ARCH,
  DEFAULT_PLATFORM,
  fileMatchesRequest,
  MainFileSelection,
  Platform,
  selectFileOfType,
  selectMainFile,
  TargetRequest,
} from '../../shared/releases/platforms';
import { MAX_ROLLOUT_PERCENTAGE } from '../../shared/policy';
import { isInRollout } from '../../shared/releases/rollout';
import { LATEST_VERSION } from '../../shared/releases/version-order';
import type { AccessTokenLimits, Application, FileRecord, SigningKeyKind, Version, VersionWithFiles } from '../../shared/store/models';
import { tierAllows } from '../../shared/tiers';
import type { CatalogCache } from './catalog-cache';
import type { Eventually } from '../http/eventually';
import { BoundedMap } from '../../shared/cache/bounded-map';
import type { CacheLookups } from '../../shared/metrics/process-metrics';
import { Entitlement, entitles, outsideWindowMessage } from '../../shared/releases/maintenance-window';
import { MaintenanceStep } from './maintenance-step';
import { rollbackTarget } from './rollback-step';
import { SigningKeyStep } from './signing-key-step';

/** Who asks: a customer as they stand now (an inactive one is refused before the catalogue is asked). */
export interface ReleaseCaller {
  customerId: string;
  tier: string;
  /** An access token's restrictions, when the caller came with one: never more than the customer, often less. */
  token?: { record: Pick<AccessTokenLimits, 'applications' | 'channels' | 'platforms'> };
  /** The maintenance window of the customer (and its token), when one limits it (shared/releases/maintenance-window.ts). */
  entitlement?: Entitlement;
}

/** Which releases: one application, a channel and what it cascades to, and optional platform and arch selectors. */
export interface ReleaseSelector {
  applicationId: string;
  /** A configured channel; the most stable one (the first of CHANNELS) when left out. */
  channel?: string;
  platform?: Platform;
  arch?: Arch;
}

// What the catalogue offers, in the shape the releases listing presents.
export type { OfferedRelease, ReleaseFile } from '../../shared/contract/releases';

/**
 * The newest release offered to the caller that has a MAIN file matching the selectors: `found` with
 * that file, `ambiguous` when several of its MAIN files fit equally (the selectors do not decide), or
 * `none`.
 */
export type LatestRelease =
  | { kind: 'found'; release: OfferedRelease; file: ReleaseFile }
  | { kind: 'ambiguous'; release: OfferedRelease; choices: readonly ReleaseFile[] }
  | { kind: 'none' };

/** A download request: an exact version or `latest`, a file by id (or by name), else the MAIN file the selectors pick. */
export interface FileRequest extends ReleaseSelector {
  /** An exact version (its channel is then not asked) or LATEST_VERSION. */
  version: string;
  /** Any available file of an exact version; `latest` always answers with a MAIN file. */
  fileId?: string;
  /** The update feeds' file links name a file by its name in the version. */
  fileName?: string;
}

/** A latest link's request: the selectors, and the type of file (an extension, `dmg`) when it names one. */
export interface LatestBuildRequest extends ReleaseSelector {
  fileType?: string;
}

export interface GrantedFile {
  application: Application;
  version: Version;
  file: ReleaseFile;
}

/** What the rules read from the configuration. */
export interface ReleaseRules {
  /** Tiers, lowest first. */
  tiers: readonly string[];
  /** Channels, most stable first. */
  channels: readonly string[];
}

const NO_RELEASE: LatestRelease = Object.freeze({ kind: 'none' });

/** Extensions a release remembers its file for: more than any application ships (dmg, zip, exe, msi, AppImage, deb, rpm, ...). */
const FILE_TYPES_REMEMBERED_PER_RELEASE = 32;

/**
 * The one answer to "which versions and files may this customer have" for an application: the
 * download URL and share links, the releases listing and the update feeds all ask here.
 *
 * Rules. The application is live and lists the customer, else 404 revealing nothing (asked before any
 * version is read). Drafts do not exist. A yanked version is never offered, and naming it answers 410.
 * Offered (the listing and `latest`): published, in the asked channel or a more stable one, at or
 * below the customer's tier, inside its staged rollout, with a MAIN file matching the selectors.
 * An exact version is granted whatever its channel or rollout, at or below the customer's tier.
 *
 * Records come from the catalog cache (one load per application, dropped on every change through the
 * invalidation bus); what is derived from them (per-version file selections, the offered list per
 * channel, tier and selectors) is kept with the record array and dropped with it. Answers are
 * synchronous when the application's records are cached, as they are for every request of a burst
 * after the first.
 */
export class ReleaseCatalog {
  private readonly indexes = new WeakMap<readonly VersionWithFiles[], ReleaseIndex>();
  private readonly customers = new WeakMap<Application, ReadonlySet<string>>();
  /** Per offered release, its file of each type asked for by latest links (extensions come from requests, so bounded). */
  private readonly typedFiles = new WeakMap<OfferedRelease, BoundedMap<string, LatestRelease>>();

  constructor(
    private readonly catalog: CatalogCache,
    private readonly rules: ReleaseRules,
    /** Grants answered from the cached records (hits) or after reading them (misses), for the metrics. */
    private readonly lookups: CacheLookups = { hits: 0, misses: 0 },
  ) {}

  /** The newest release offered to the caller; throws 404 when the caller has no access to the application. */
  latest(caller: ReleaseCaller, selector: ReleaseSelector): Eventually<LatestRelease> {
    const index = this.cachedIndex(caller, selector.applicationId);
    if (index) return index.latest(caller, selector, this.rules);
    return this.indexFromStore(caller, selector.applicationId).then(({ index: loaded }) => loaded.latest(caller, selector, this.rules));
  }

  /**
   * The release an install running `running` is rolled back to: when that version was yanked with
   * `rollbackTo` and the target is offered to the caller for the selectors (rollback-step.ts); else null.
   * With `kind`, for an updater that checks signatures of that kind, the target must also be one the
   * install's key verifies (the signing-key step), else null.
   */
  rollback(caller: ReleaseCaller, selector: ReleaseSelector, running: string, kind?: SigningKeyKind): Eventually<OfferedRelease | null> {
    const application = this.catalog.cachedApplication(selector.applicationId);
    const index = this.cachedIndex(caller, selector.applicationId);
    if (index && (application || !kind)) return this.rollbackIn(application, index, caller, selector, running, kind);
    return this.indexFromStore(caller, selector.applicationId)
      .then(({ application: listed, index: loaded }) => this.rollbackIn(listed, loaded, caller, selector, running, kind));
  }

  private rollbackIn(
    application: Application | undefined, index: ReleaseIndex, caller: ReleaseCaller, selector: ReleaseSelector, running: string, kind: SigningKeyKind | undefined,
  ): OfferedRelease | null {
    const version = index.entry(running)?.version;
    const offered = index.releases(caller, selector, this.rules);
    return rollbackTarget(version, kind && application ? SIGNING_KEYS.offered(application, version, kind, offered) : offered);
  }

  /**
   * The releases offered to an install running `running` whose updater checks update signatures of
   * `kind` (Tauri: minisign; Sparkle): every release offered to the caller, unless the running version
   * was signed under a key the application has replaced; then only those signed under that key
   * (signing-key-step.ts). Throws 404 when the caller has no access.
   */
  releasesFor(caller: ReleaseCaller, selector: ReleaseSelector, running: string | undefined, kind: SigningKeyKind): Eventually<readonly OfferedRelease[]> {
    const application = this.catalog.cachedApplication(selector.applicationId);
    const index = this.cachedIndex(caller, selector.applicationId);
    if (application && index) return this.signedFor(application, index, caller, selector, running, kind);
    return this.indexFromStore(caller, selector.applicationId)
      .then(({ application: listed, index: loaded }) => this.signedFor(listed, loaded, caller, selector, running, kind));
  }

  private signedFor(application: Application, index: ReleaseIndex, caller: ReleaseCaller, selector: ReleaseSelector, running: string | undefined, kind: SigningKeyKind): readonly OfferedRelease[] {
    const offered = index.releases(caller, selector, this.rules);
    if (running === undefined) return offered;
    // Sparkle names what it runs by its bundle version (CFBundleVersion), when the version has one.
    const entry = kind === 'sparkle' ? index.bundled(running) ?? index.entry(running) : index.entry(running);
    return SIGNING_KEYS.offered(application, entry?.version, kind, offered);
  }

  /**
   * What a latest link answers (`/v1/downloads/latest/...`): the newest release offered to the
   * caller for the selectors and its MAIN file, as `latest` answers; with a file type (an extension,
   * `dmg`), the newest offered release holding a MAIN or UPDATE file of that type for the selectors,
   * and that file. No access to the application 404 NOT_FOUND; nothing offered 404 NO_MATCHING_BUILD;
   * several files and no selector that decides 400.
   */
  latestBuild(caller: ReleaseCaller, request: LatestBuildRequest): Eventually<GrantedFile> {
    const application = this.catalog.cachedApplication(request.applicationId);
    const versions = application && this.catalog.cachedReleases(request.applicationId);
    if (application && versions) {
      this.lookups.hits += 1;
      return this.latestBuildFrom(caller, request, this.listed(application, caller, request.applicationId), this.indexOf(versions));
    }
    this.lookups.misses += 1;
    return this.indexFromStore(caller, request.applicationId).then(({ application: listed, index }) => this.latestBuildFrom(caller, request, listed, index));
  }

  private latestBuildFrom(caller: ReleaseCaller, request: LatestBuildRequest, application: Application, index: ReleaseIndex): GrantedFile {
    const latest = request.fileType === undefined
      ? index.latest(caller, request, this.rules)
      : this.firstOfType(index.releases(caller, request, this.rules), request, request.fileType.toLowerCase());
    if (latest.kind === 'found') return { application, version: latest.release.version, file: latest.file };
    if (latest.kind === 'ambiguous') throw ambiguity(latest.release.version, latest.choices);
    const fileType = request.fileType === undefined ? '' : `, file type ${request.fileType}`;
    throw new AppError(404, 'NO_MATCHING_BUILD', `no build of ${request.applicationId} is available for ${describeSelector(request, this.rules)}${fileType}`);
  }

  private firstOfType(offered: readonly OfferedRelease[], target: TargetRequest, extension: string): LatestRelease {
    for (const release of offered) {
      const latest = this.ofType(release, target, extension);
      if (latest.kind !== 'none') return latest;
    }
    return NO_RELEASE;
  }

  /** One release's file of a type for the selectors, kept with the release object (dropped with the catalogue's records). */
  private ofType(release: OfferedRelease, target: TargetRequest, extension: string): LatestRelease {
    let byExtension = this.typedFiles.get(release);
    if (!byExtension) {
      byExtension = new BoundedMap(FILE_TYPES_REMEMBERED_PER_RELEASE);
      this.typedFiles.set(release, byExtension);
    }
    let latest = byExtension.get(extension);
    if (!latest) {
      // The release's files are those matching the selectors it was offered for.
      const selection = selectFileOfType(release.files, target, extension);
      latest = selection.kind === 'match' ? { kind: 'found', release, file: selection.file }
        : selection.kind === 'ambiguous' ? { kind: 'ambiguous', release, choices: selection.choices } : NO_RELEASE;
      byExtension.set(extension, Object.freeze(latest));
    }
    return latest;
  }

  /** The application, when it is live and lists the caller; throws 404 otherwise, as every customer route does. */
  application(caller: ReleaseCaller, applicationId: string): Eventually<Application> {
    const cached = this.catalog.cachedApplication(applicationId);
    if (cached) return this.listed(cached, caller, applicationId);
    return this.catalog.application(applicationId).then((application) => this.listed(application, caller, applicationId));
  }

  /** Every release offered to the caller, newest first by the version order; throws 404 when the caller has no access. */
  releases(caller: ReleaseCaller, selector: ReleaseSelector): Eventually<readonly OfferedRelease[]> {
    const index = this.cachedIndex(caller, selector.applicationId);
    if (index) return index.releases(caller, selector, this.rules);
    return this.indexFromStore(caller, selector.applicationId).then(({ index: loaded }) => loaded.releases(caller, selector, this.rules));
  }

  /**
   * The file a download request names, or the refusal, in this order: no access to the application
   * 404; `latest`: nothing offered 404, several MAIN files and no selector that decides 400; an
   * exact version: absent or a draft 404, yanked 410, no such file (or no MAIN file matching) 404,
   * several MAIN files and no selector that decides 400, above the customer's tier 403.
   */
  grant(caller: ReleaseCaller, request: FileRequest): Eventually<GrantedFile> {
    const application = this.catalog.cachedApplication(request.applicationId);
    const versions = application && this.catalog.cachedReleases(request.applicationId);
    if (application && versions) {
      this.lookups.hits += 1;
      return this.grantFrom(caller, request, this.listed(application, caller, request.applicationId), this.indexOf(versions));
    }
    this.lookups.misses += 1;
    return this.indexFromStore(caller, request.applicationId).then(({ application: listed, index }) => this.grantFrom(caller, request, listed, index));
  }

  /**
   * A blockmap electron-updater asks for at its file link plus `.blockmap`: of the version it is
   * offered, and (the same link with the versions swapped) of the version it runs, which may since
   * have been superseded, left its channel, been yanked or been raised above the customer's tier.
   * So a blockmap is granted to whoever may use the application, for any version customers have had
   * (published or yanked), whatever its channel, rollout or tier: it holds the sizes and checksums of
   * a build's blocks, none of its bytes, and the bytes the client then fetches are the new file's,
   * granted by the download rules. A draft does not exist (404); a name that is no BLOCKMAP file, 404.
   */
  grantBlockmap(caller: ReleaseCaller, request: { applicationId: string; version: string; fileName: string }): Eventually<GrantedFile> {
    const application = this.catalog.cachedApplication(request.applicationId);
    const versions = application && this.catalog.cachedReleases(request.applicationId);
    if (application && versions) {
      this.lookups.hits += 1;
      return blockmapOf(this.listed(application, caller, request.applicationId), this.indexOf(versions), request.version, request.fileName);
    }
    this.lookups.misses += 1;
    return this.indexFromStore(caller, request.applicationId).then(({ application: listed, index }) => blockmapOf(listed, index, request.version, request.fileName));
  }

  private grantFrom(caller: ReleaseCaller, request: FileRequest, application: Application, index: ReleaseIndex): GrantedFile {
    if (request.version === LATEST_VERSION) {
      const latest = index.latest(caller, request, this.rules);
      if (latest.kind === 'found') return { application, version: latest.release.version, file: latest.file };
      if (latest.kind === 'ambiguous') throw ambiguity(latest.release.version, latest.choices);
      throw notFound(`no version of ${request.applicationId} is available for ${describeSelector(request, this.rules)}`);
    }
    const entry = index.entry(request.version);
    const answer = entry ? customerAnswerFor(entry.version.status) : 'not-found';
    if (!entry || answer === 'not-found') throw notFound('version not found');
    if (answer === 'gone') throw gone(`version ${request.version} has been withdrawn`);
    const file = request.fileId !== undefined ? entry.file(request.fileId)
      : request.fileName !== undefined ? entry.fileNamed(request.fileName)
        : entry.mainFile(request);
    if (!file) throw notFound(request.platform || request.arch ? `version ${request.version} has no MAIN file for ${describeTarget(request)}` : 'version not found');
    if (!tierAllows(this.rules.tiers, caller.tier, entry.version.requiredTier)) throw forbidden('tier access required');
    if (caller.token) refuseOutsideToken(caller.token.record, entry.version, file);
    if (caller.entitlement && !entitles(caller.entitlement, entry.version)) throw forbidden(outsideWindowMessage(caller.entitlement, entry.version.version));
    return { application, version: entry.version, file };
  }

  private cachedIndex(caller: ReleaseCaller, applicationId: string): ReleaseIndex | undefined {
    const application = this.catalog.cachedApplication(applicationId);
    const versions = application && this.catalog.cachedReleases(applicationId);
    if (!application || !versions) return undefined;
    this.listed(application, caller, applicationId);
    return this.indexOf(versions);
  }

  private async indexFromStore(caller: ReleaseCaller, applicationId: string): Promise<{ application: Application; index: ReleaseIndex }> {
    // Refused before any version is read: a customer without access learns nothing about versions.
    const application = this.listed(await this.catalog.application(applicationId), caller, applicationId);
    return { application, index: this.indexOf(await this.catalog.releases(applicationId)) };
  }

  private listed(application: Application | null, caller: ReleaseCaller, applicationId: string): Application {
    if (!application || !this.lists(application, caller.customerId) || !tokenReaches(caller, applicationId)) throw notFound(`application ${applicationId} not found`);
    return application;
  }

  /** One Set lookup instead of a scan of the application's list; the Set lives as long as the record. */
  private lists(application: Application, customerId: string): boolean {
    let customers = this.customers.get(application);
    if (!customers) {
      customers = new Set(application.customerIds);
      this.customers.set(application, customers);
    }
    return customers.has(customerId);
  }

  private indexOf(versions: readonly VersionWithFiles[]): ReleaseIndex {
    let index = this.indexes.get(versions);
    if (!index) {
      index = new ReleaseIndex(versions);
      this.indexes.set(versions, index);
    }
    return index;
  }
}

function blockmapOf(application: Application, index: ReleaseIndex, version: string, fileName: string): GrantedFile {
  const entry = index.entry(version);
  if (!entry || customerAnswerFor(entry.version.status) === 'not-found') throw notFound('version not found');
  const file = entry.fileNamed(fileName);
  if (!file || file.fileType !== BLOCKMAP_FILE.fileType) throw notFound(`version ${version} has no blockmap ${fileName}`);
  return { application, version: entry.version, file };
}

/** One offered release, with what `latest` answers when it is the caller's newest. */
interface Offer {
  release: OfferedRelease;
  rolloutPercentage: number;
  latest: LatestRelease;
}

interface OfferList {
  offers: readonly Offer[];
  /** The releases of `offers`, for callers whom no staged rollout leaves out. */
  releases: readonly OfferedRelease[];
  staged: boolean;
}

/** One application's customer-visible versions, with what requests derive from them, computed once per kind of request. */
class ReleaseIndex {
  private readonly newestFirst: readonly ReleaseEntry[];
  private readonly byName = new Map<string, ReleaseEntry>();
  private byBundleVersion: Map<string, ReleaseEntry> | undefined;
  /** By channel, platform, arch and tier: bounded by the configuration, not by callers. */
  private readonly offerLists: Nested<Nested<Nested<Map<string, OfferList>>>> = new Map();

  constructor(versions: readonly VersionWithFiles[]) {
    this.newestFirst = versions.map((version) => new ReleaseEntry(version));
    for (const entry of this.newestFirst) this.byName.set(entry.version.version, entry);
  }

  entry(version: string): ReleaseEntry | undefined {
    return this.byName.get(version);
  }

  /** The version whose bundle version (Sparkle's CFBundleVersion) this is, the newest when several share it. */
  bundled(bundleVersion: string): ReleaseEntry | undefined {
    if (!this.byBundleVersion) {
      this.byBundleVersion = new Map();
      for (const entry of [...this.newestFirst].reverse()) {
        if (entry.version.bundleVersion !== null) this.byBundleVersion.set(entry.version.bundleVersion, entry);
      }
    }
    return this.byBundleVersion.get(bundleVersion);
  }

  latest(caller: ReleaseCaller, selector: ReleaseSelector, rules: ReleaseRules): LatestRelease {
    for (const offer of this.offersFor(caller, selector, rules).offers) {
      if (inRollout(caller, selector.applicationId, offer) && (!caller.token || tokenOffers(caller.token.record, offer.latest))) return offer.latest;
    }
    return NO_RELEASE;
  }

  releases(caller: ReleaseCaller, selector: ReleaseSelector, rules: ReleaseRules): readonly OfferedRelease[] {
    const list = this.offersFor(caller, selector, rules);
    if (!list.staged && !caller.token) return list.releases;
    return list.offers
      .filter((offer) => inRollout(caller, selector.applicationId, offer) && (!caller.token || tokenOffers(caller.token.record, offer.latest)))
      .map((offer) => offer.release);
  }

  /** The releases offered to the caller's tier, then the steps that depend on the caller: its maintenance window. */
  private offersFor(caller: ReleaseCaller, selector: ReleaseSelector, rules: ReleaseRules): OfferList {
    const list = this.offerList(caller.tier, selector, rules);
    return caller.entitlement ? MAINTENANCE.within(list, caller.entitlement) : list;
  }

  private offerList(tier: string, selector: ReleaseSelector, rules: ReleaseRules): OfferList {
    const channel = selector.channel ?? defaultChannel(rules.channels);
    const byTier = inner(inner(inner(this.offerLists, channel), selector.platform ?? ''), selector.arch ?? '');
    let list = byTier.get(tier);
    if (!list) {
      list = this.buildOfferList(channel, tier, selector, rules);
      byTier.set(tier, list);
    }
    return list;
  }

  private buildOfferList(channel: string, tier: string, target: TargetRequest, rules: ReleaseRules): OfferList {
    const offers: Offer[] = [];
    for (const entry of this.newestFirst) {
      const { version } = entry;
      if (!isOfferedToCustomers(version.status) || !channelOffers(rules.channels, channel, version.channel)) continue;
      if (!tierAllows(rules.tiers, tier, version.requiredTier)) continue;
      const selection = entry.selection(target);
      if (selection.kind === 'none') continue;
      const release: OfferedRelease = Object.freeze({ version, files: entry.matching(target) });
      const latest: LatestRelease = selection.kind === 'match'
        ? { kind: 'found', release, file: selection.file }
        : { kind: 'ambiguous', release, choices: selection.choices };
      offers.push({ release, rolloutPercentage: version.rolloutPercentage, latest: Object.freeze(latest) });
    }
    return {
      offers,
      releases: Object.freeze(offers.map((offer) => offer.release)),
      staged: offers.some((offer) => offer.rolloutPercentage < MAX_ROLLOUT_PERCENTAGE),
    };
  }
}

/** Offered lists cut to the releases an install's update key verifies. */
const SIGNING_KEYS = new SigningKeyStep();

/** Offered lists cut to a maintenance window: the offers it admits, in the same order. */
const MAINTENANCE = new MaintenanceStep<OfferList>((list, admits) => {
  const offers = list.offers.filter((offer) => admits(offer.release.version));
  return {
    offers,
    releases: Object.freeze(offers.map((offer) => offer.release)),
    staged: offers.some((offer) => offer.rolloutPercentage < MAX_ROLLOUT_PERCENTAGE),
  };
});

function inRollout(caller: ReleaseCaller, applicationId: string, offer: Offer): boolean {
  return offer.rolloutPercentage >= MAX_ROLLOUT_PERCENTAGE
    || isInRollout(caller.customerId, applicationId, offer.release.version.version, offer.rolloutPercentage);
}

type TokenRestrictions = Pick<AccessTokenLimits, 'applications' | 'channels' | 'platforms'>;

/** Whether the caller's token (if any) names the application among those it may download. */
function tokenReaches(caller: ReleaseCaller, applicationId: string): boolean {
  const applications = caller.token?.record.applications;
  return !applications || applications.includes(applicationId);
}

/** Whether a token's channels and platforms take an offered release (its MAIN file, when it has one for the request). */
function tokenOffers(token: TokenRestrictions, latest: LatestRelease): boolean {
  if (latest.kind === 'none') return false;
  if (token.channels && !token.channels.includes(latest.release.version.channel)) return false;
  return latest.kind !== 'found' || !token.platforms || token.platforms.includes(latest.file.platform);
}

/** 403 for a file of a channel or a platform the token does not take. */
function refuseOutsideToken(token: TokenRestrictions, version: Version, file: ReleaseFile): void {
  if (token.channels && !token.channels.includes(version.channel)) throw forbidden(`this access token does not download from channel ${version.channel}`);
  if (token.platforms && !token.platforms.includes(file.platform)) throw forbidden(`this access token does not download files for ${file.platform}`);
}

/** One version and its available files, with its MAIN-file selections kept per selectors. */
class ReleaseEntry {
  readonly version: Version;
  private readonly files: readonly ReleaseFile[];
  private readonly mainFiles: readonly ReleaseFile[];
  /** By platform and arch. */
  private readonly selections: Nested<Map<string, MainFileSelection<ReleaseFile>>> = new Map();

  constructor(record: VersionWithFiles) {
    const { files, ...version } = record;
    this.version = Object.freeze(version);
    this.files = Object.freeze(files.filter((file) => file.status === 'available').map(withTarget));
    this.mainFiles = this.files.filter((file) => file.fileType === 'MAIN');
  }

  /** An available file of this version by id. */
  file(fileId: string): ReleaseFile | undefined {
    return this.files.find((file) => file.fileId === fileId);
  }

  /** An available file of this version by name (names are unique among a version's live files). */
  fileNamed(fileName: string): ReleaseFile | undefined {
    return this.files.find((file) => file.fileName === fileName);
  }

  /** The MAIN file the selectors pick; undefined when none matches; throws 400 when several fit equally. */
  mainFile(target: TargetRequest): ReleaseFile | undefined {
    const selection = this.selection(target);
    if (selection.kind === 'ambiguous') throw ambiguity(this.version, selection.choices);
    return selection.kind === 'match' ? selection.file : undefined;
  }

  selection(target: TargetRequest): MainFileSelection<ReleaseFile> {
    const byArch = inner(this.selections, target.platform ?? '');
    let selection = byArch.get(target.arch ?? '');
    if (!selection) {
      selection = selectMainFile(this.mainFiles, target);
      byArch.set(target.arch ?? '', selection);
    }
    return selection;
  }

  /** The available files of any type that match the selectors. */
  matching(target: TargetRequest): readonly ReleaseFile[] {
    if (target.platform === undefined && target.arch === undefined) return this.files;
    return Object.freeze(this.files.filter((file) => fileMatchesRequest(file, target)));
  }
}

/**
 * Memos keyed by several strings nest one map per part: a lookup hashes the request's own strings,
 * whose hashes V8 keeps, where joining them into one key would build and hash a new string on every
 * request (most of what resolving `latest` cost).
 */
type Nested<V> = Map<string, V>;

/** The map under `key`, created empty the first time. */
function inner<V extends Map<string, unknown>>(outer: Nested<V>, key: string): V {
  let map = outer.get(key);
  if (!map) {
    map = new Map() as V;
    outer.set(key, map);
  }
  return map;
}

/** Stores return every file with its platform and arch; a file given without them is `any`. */
function withTarget(file: FileRecord): ReleaseFile {
  return file.platform && file.arch ? file as ReleaseFile : { ...file, platform: file.platform ?? DEFAULT_PLATFORM, arch: file.arch ?? DEFAULT_ARCH };
}

/** 400 naming the MAIN files a request could mean, and the selector values that tell them apart. */
function ambiguity(version: Version, choices: readonly ReleaseFile[]): AppError {
  const listed = choices.map((file) => `${file.platform}/${file.arch} (${file.fileName})`).join(', ');
  const details: ErrorDetail[] = [];
  for (const field of ['platform', 'arch'] as const) {
    const values = new Set<string>(choices.map((file) => file[field]));
    // `any` is what a file fits when the request names something else, not a value to ask for.
    const selectable = [...values].filter((value) => value !== 'any');
    if (values.size > 1 && selectable.length > 0) details.push({ field, message: `one of: ${selectable.join(', ')}` });
  }
  return new AppError(400, 'BAD_REQUEST', `version ${version.version} has several MAIN files for this request; select one with platform and arch: ${listed}`, details);
}

function describeTarget(target: TargetRequest): string {
  return [target.platform && `platform ${target.platform}`, target.arch && `arch ${target.arch}`].filter(Boolean).join(', ');
}

function describeSelector(selector: ReleaseSelector, rules: ReleaseRules): string {
  const target = describeTarget(selector);
  return `channel ${selector.channel ?? defaultChannel(rules.channels)}${target ? `, ${target}` : ''}`;
}
