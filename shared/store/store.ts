import type { ReleaseStatus } from '../releases/lifecycle';
import type {
  Attestation,
  AttestationKey,
  AdminKey,
  AccessToken,
  AccessTokenUsage,
  AdoptionCount,
  CheckBatch,
  CheckEvent,
  FunnelCheckBatch,
  InstallArrival,
  InstallOfferRecord,
  FailureMessageCount,
  UpdateReport,
  RolloutPlanRecord,
  CustomerAdoption,
  CustomerVersionSeen,
  ApiKey,
  Application,
  ApplicationLogo,
  AuditEntry,
  AuditOutcome,
  Customer,
  DailyCount,
  DownloadBreakdown,
  ReleaseDownload,
  DistributionEvent,
  EventType,
  FileRecord,
  FileStatus,
  InitialReleaseStatus,
  PackageInfo,
  RepositoryKey,
  RepositoryKeyRing,
  ShareLink,
  TokenUse,
  TokenUseOutcome,
  UploadSession,
  UploadStatus,
  Version,
  VersionWithFiles,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookEndpoint,
  WebhookOutboxEntry,
  WebhookOutboxPosition,
  LicenceAcceptance,
  TufOnlineDocuments,
  TufRepositoryRecord,
  TufRootRecord,
  SigningKeyKind,
} from './models';

export interface Page<T> {
  items: T[];
  total: number;
}

export interface ApplicationQuery {
  page: number;
  pageSize: number;
  tag?: string;
  customerId?: string;
  /** Only these applications (an access token's own list); none when empty. */
  applicationIds?: readonly string[];
  /** Part of the name or the id, ignoring ASCII letter case. */
  search?: string;
  includeDeleted?: boolean;
}

export type ApplicationPatch = Partial<Pick<Application, 'name' | 'description' | 'tags' | 'customerIds' | 'updateSigningKey' | 'sparklePublicKey' | 'defaultVersionStatus' | 'licenceText' | 'licenceRevision'
  | 'displayName' | 'accentColour' | 'supportUrl'>>;
export type CustomerPatch = Partial<Pick<Customer, 'name' | 'isActive' | 'notes' | 'tier' | 'updatesUntil' | 'versionRange'>>;
/** A version's fields any change may set (not its status, which only transitionVersion changes). */
export type VersionPatch = Partial<Pick<Version, 'releaseNotes' | 'requiredTier' | 'channel' | 'rolloutPercentage' | 'bundleVersion' | 'minimumSystemVersion' | 'critical' | 'yankReason' | 'rollbackTo'>>;

/** What upsertVersion applies: the patch, and what only a version the call creates takes. */
export interface VersionUpsert extends VersionPatch {
  /** The status of a version the call creates (published when left out). */
  initialStatus?: InitialReleaseStatus;
  /** The channel of a version the call creates, when the patch names none (the default channel when neither does). */
  initialChannel?: string;
}

/**
 * What an upload asks of its file's version. The notes and tier are written to it; the channel and
 * status only describe it: a version the upload creates gets them (the default channel, published,
 * when left out), and an existing version must already have the ones named (an upload never changes them).
 */
export interface UploadRelease extends Pick<VersionPatch, 'releaseNotes' | 'requiredTier'> {
  channel?: string;
  status?: InitialReleaseStatus;
  /**
   * The status of a version the upload creates when it names none (its application's
   * defaultVersionStatus); it never describes an existing version, so it is not checked against one.
   */
  createdStatus?: InitialReleaseStatus;
}

/** Publishing an uploaded file: the digests computed from its bytes and what its upload asks of the version. */
export interface FilePublication {
  /** `sha256:<hex>`, the file's checksum. */
  checksum: string;
  /** SHA-512 of the bytes, base64. */
  sha512: string;
  /** SHA-1 of the bytes, hex. */
  sha1: string;
  /** What the package says of itself (a `.deb` or an `.rpm`), read at upload; null for other files. */
  packageInfo?: PackageInfo | null;
  release: UploadRelease;
}

/**
 * What publishFile did. `published`: the file is available and the version has the upload's fields.
 * `version-differs`: the version exists in another channel or status than the upload named (the
 * API's 409); nothing was written. `not-pending`: the file failed or does not exist (its upload was
 * settled without it); nothing was written.
 */
export type FilePublicationResult =
  | { outcome: 'published'; file: FileRecord; version: Version }
  | { outcome: 'version-differs'; version: Version }
  | { outcome: 'not-pending'; file: FileRecord | null };

/** Which versions a listing returns; a filter left out selects all, an empty list selects none. */
export interface VersionFilter {
  channels?: readonly string[];
  statuses?: readonly ReleaseStatus[];
}

/**
 * What transitionVersion did. `applied`: the version now has the status (`from` is the one it had;
 * equal to the new one when it was already there) and the patch. `invalid-transition`: the lifecycle
 * does not allow `from` to `to` (the API's 409); nothing was written. `not-found`: no such version.
 */
export type VersionTransition =
  | { outcome: 'applied'; from: ReleaseStatus; version: Version }
  | { outcome: 'invalid-transition'; from: ReleaseStatus; to: ReleaseStatus }
  | { outcome: 'not-found' };

/**
 * What deleteVersion did. `deleted`: the draft and every file record it had (their bytes are the
 * caller's to delete) are gone. `not-draft`: the version is published or yanked (the API's 409);
 * nothing was written. `not-found`: no such version.
 */
export type VersionDeletion =
  | { outcome: 'deleted'; version: Version; files: FileRecord[] }
  | { outcome: 'not-draft'; version: Version }
  | { outcome: 'not-found' };

/**
 * What deleteFile did. `deleted`: the file record is gone (its bytes are the caller's to delete).
 * `refused`: the file is pending (its upload is under way), or available in a version that is
 * published or yanked (shipped files are immutable), as `reason` says; nothing was written.
 * `not-found`: no such file.
 */
export type FileDeletion =
  | { outcome: 'deleted'; file: FileRecord }
  | { outcome: 'refused'; file: FileRecord; reason: 'pending' | 'published' | 'yanked' }
  | { outcome: 'not-found' };

/** What PATCH may change of an access token. */
export type AccessTokenPatch = Partial<Omit<AccessToken, 'tokenId' | 'customerId' | 'tokenHash' | 'prefix' | 'createdAt' | 'updatedAt' | 'lastUsedAt' | 'revokedAt'>>;

/** What replaceApplicationLogo did: the application as written, and the logo it had before (null for none). */
export interface LogoReplacement {
  application: Application;
  previous: ApplicationLogo | null;
}

/**
 * What startReleasePurge did. `started`: the application is marked for the purge of its releases
 * (`startedAt`: when it first was; a repeat keeps it) and can no longer be restored. `not-deleted`:
 * it is live. `too-recent`: it was deleted after `deletedBefore`. `not-found`: no such application.
 * Only `started` wrote anything.
 */
export type ReleasePurgeStart =
  | { outcome: 'started'; application: Application; startedAt: Date }
  | { outcome: 'not-deleted' | 'too-recent'; application: Application }
  | { outcome: 'not-found' };

/** What deletePurgedReleases removed: the application's version and file records. */
export interface PurgedReleases {
  versions: number;
  files: number;
}

/** What deleteCustomer did: the customer as it was, and how many of its records were revoked or anonymised. */
export interface CustomerDeletion {
  customer: Customer;
  revokedKeys: number;
  revokedShareLinks: number;
  anonymisedEvents: number;
}

/**
 * An upload session as createUploadSession takes it: the release fields default to platform and arch
 * `any`, no channel, no status; `multipart` to null (a single-PUT upload).
 */
export type NewUploadSession = Omit<UploadSession, 'platform' | 'arch' | 'channel' | 'versionStatus' | 'multipart'>
  & Partial<Pick<UploadSession, 'platform' | 'arch' | 'channel' | 'versionStatus' | 'multipart'>>;

/** The digests setFileDigests records beside the checksum (SHA-256), which the file has from its upload. */
export interface FileDigestUpdate {
  /** SHA-512 of the bytes, base64. */
  sha512: string;
  /** SHA-1 of the bytes, hex. */
  sha1: string;
}

export type UploadSessionPatch = Partial<Pick<UploadSession, 'status' | 'expectedChecksum' | 'failureReason' | 'releaseNotes'>>;

/** What an endpoint change may set; its events are its subscriptions, kept in step. */
export type WebhookEndpointPatch = Partial<Pick<WebhookEndpoint,
  'url' | 'events' | 'description' | 'isActive' | 'disabledReason' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt' | 'failingSince'>>;

/** What one delivery attempt leaves: it counts one more attempt. */
export type WebhookAttemptResult = Pick<WebhookDelivery, 'status' | 'responseStatus' | 'responseBody' | 'error' | 'deliveredAt'>;

/** Position in the activity feed: events strictly older than this (timestamp, then eventId) come next. */
export interface ActivityPosition {
  timestamp: Date;
  eventId: string;
}

export interface ActivityQuery {
  type?: EventType;
  applicationId?: string;
  after?: ActivityPosition;
  limit: number;
}

/** Position in the audit log: entries strictly older than this (timestamp, then entryId) come next. */
export interface AuditPosition {
  timestamp: Date;
  entryId: string;
}

export interface AuditQuery {
  action?: string;
  applicationId?: string;
  /** The admin key's id, or `root`. */
  actor?: string;
  /** The target exactly as recorded (`acme`, `acme/key_1`, `desktop-app/1.2.0`). */
  target?: string;
  /** Entries at or after `from` and before `before`. */
  from?: Date;
  before?: Date;
  after?: AuditPosition;
  limit: number;
}

/** How an audited request ended; a target or application left undefined keeps what the entry has. */
export interface AuditSettlement {
  outcome: Exclude<AuditOutcome, 'pending'>;
  status: number;
  target?: string;
  applicationId?: string;
}

/** One selection of adoption counters: a dimension left out is ALL. Dates are inclusive YYYY-MM-DD. */
export interface AdoptionCountQuery {
  channel: string;
  platform: string;
  arch: string;
  from: string;
  to: string;
}

export interface DailyCountQuery {
  version?: string;
  /** Only versions now in this channel. */
  channel?: string;
  /** Inclusive YYYY-MM-DD bounds. */
  from?: string;
  to?: string;
}

/*
 * The persistence ports, one per concern. Adapters: SQLite (embedded default) and MongoDB (production);
 * each implements every port in one module per concern, and both pass the store contract
 * (test/contract/store/). Unique-constraint violations throw DuplicateError with a target naming the collision ('applicationId', 'customerId', 'fileName', 'mainFile', ...).
 * Every limit, page and pageSize is a whole number of at least 1, and every rolloutPercentage one
 * from 1 to 100; any other value throws a RangeError (shared/store/bounds.ts).
 * Records stored before a field existed read back with its default: versions in the store's default
 * channel, published since their creation, to everyone; files, sessions and events for platform
 * and arch `any`, files without SHA-512.
 */

/** Applications, their customers and licence acceptances. */
export interface ApplicationStore {
  createApplication(app: Application): Promise<Application>;
  getApplication(applicationId: string, options?: { includeDeleted?: boolean }): Promise<Application | null>;
  listApplications(query: ApplicationQuery): Promise<Page<Application>>;
  /**
   * Writes the fields the patch names. A licence revision never goes backwards, in one write: the
   * stored one is kept when the patch names a lower one or none (a licence removed keeps its last
   * revision, so a licence given again asks past every acceptance of an earlier one).
   */
  updateApplication(applicationId: string, patch: ApplicationPatch, at: Date): Promise<Application | null>;
  /** Soft delete; null when the application is unknown or already deleted. */
  softDeleteApplication(applicationId: string, at: Date): Promise<Application | null>;
  /** Undo a soft delete; null when the application is unknown, not deleted, or its releases' purge has started. */
  restoreApplication(applicationId: string, at: Date): Promise<Application | null>;
  /**
   * Adds one customer to a live application's customers, or removes one, in one write that leaves the
   * other customers as they are (concurrent grants and revocations all land). A grant already given,
   * or a revocation of a customer not in the list, writes nothing and returns the application as it
   * is. Null when no live application has that id.
   */
  grantApplicationAccess(applicationId: string, customerId: string, at: Date): Promise<Application | null>;
  revokeApplicationAccess(applicationId: string, customerId: string, at: Date): Promise<Application | null>;
  /**
   * Records a customer's acceptance of a licence revision. Accepting a revision again keeps the first
   * acceptance (its time and address) and returns it, concurrent acceptances included.
   */
  recordLicenceAcceptance(acceptance: LicenceAcceptance): Promise<LicenceAcceptance>;
  /**
   * Sets (or with null removes) a live application's logo, in one write, and returns the application
   * with the logo it replaced, so the caller deletes the replaced bytes once nothing points at them.
   * Null when no live application has that id.
   */
  replaceApplicationLogo(applicationId: string, logo: ApplicationLogo | null, at: Date): Promise<LogoReplacement | null>;
  /**
   * Marks a soft-deleted application, deleted at or before `deletedBefore`, for the purge of its
   * releases, in one conditional write (see ReleasePurgeStart); from then on it is never restored.
   * The mark is not part of the application record: releasePurgeStartedAt reads it.
   */
  startReleasePurge(applicationId: string, deletedBefore: Date, at: Date): Promise<ReleasePurgeStart>;
  /** When the purge of the application's releases started, or null when it has not (or no such application). */
  releasePurgeStartedAt(applicationId: string): Promise<Date | null>;
  /** The customer's acceptance of that revision of the application's licence, or null. */
  getLicenceAcceptance(applicationId: string, customerId: string, revision: number): Promise<LicenceAcceptance | null>;
  /** The application's package-repository signing keys; null when it has none yet. One indexed read. */
  getRepositoryKeys(applicationId: string): Promise<RepositoryKeyRing | null>;
  /**
   * Writes the application's repository keys when its ring is still at `expectedRevision` (0: none
   * yet), in one conditional write, and returns the ring written (revision + 1); null when another
   * writer got there first (two gateways generating a first key at once: one key wins).
   */
  replaceRepositoryKeys(applicationId: string, expectedRevision: number, keys: readonly RepositoryKey[]): Promise<RepositoryKeyRing | null>;
}

/** Versions and their files. */
export interface VersionStore {
  /**
   * Creates the version when it does not exist (in the store's default channel, rollout 100, status
   * `initialStatus` or published, publishedAt `at` when published); applies the patch's fields that
   * are not undefined. An existing version keeps its status.
   */
  upsertVersion(applicationId: string, version: string, patch: VersionUpsert, at: Date): Promise<Version>;
  getVersion(applicationId: string, version: string): Promise<Version | null>;
  updateVersion(applicationId: string, version: string, patch: VersionPatch, at: Date): Promise<Version | null>;
  /**
   * Moves an existing version to status `to` and applies `patch`, in one write, when the lifecycle
   * (shared/releases/lifecycle.ts) allows the move from its current status; naming the current status
   * applies the patch alone. The write is conditional on the status it was checked against, so of
   * concurrent transitions each is checked against the status the one before it left. publishedAt is
   * set when the version is first published.
   */
  transitionVersion(applicationId: string, version: string, to: ReleaseStatus, at: Date, patch?: VersionPatch): Promise<VersionTransition>;
  /**
   * The versions the filter selects, newest first by the version order (shared/releases/version-order.ts:
   * precedence, then creation time, then the version string, each descending), each with its files
   * (oldest file first).
   */
  listVersions(applicationId: string, filter?: VersionFilter): Promise<VersionWithFiles[]>;
  /**
   * Refuses a second live (pending or available) file of the same name in one version, or a second
   * live MAIN file for the same platform and arch in one version; a MAIN file colliding on both reports
   * 'mainFile'. Returns the file as stored, defaults included.
   */
  insertFile(file: FileRecord): Promise<FileRecord>;
  getFile(fileId: string): Promise<FileRecord | null>;
  /**
   * Publishes a pending file with its digests and writes what its upload asks of the version
   * (upsertVersion with the notes and tier; channel and status for a version it creates). The version
   * is written only for a file that becomes available here, or was already (a repeat completes an
   * interrupted publication): an upload whose file was failed meanwhile (a verification that resumed
   * after its upload was settled) changes nothing. The file's status is checked and changed
   * conditionally, and the version's channel and status are checked first (see FilePublicationResult).
   * SQLite does it all in one transaction. MongoDB, without transactions, writes the file and then the
   * version: a failure between them leaves the version's fields to a repeat of the publication.
   */
  publishFile(fileId: string, publication: FilePublication, at: Date): Promise<FilePublicationResult>;
  /**
   * Deletes a draft version and all its file records (pending, available and failed), checked and
   * written together (SQLite: one IMMEDIATE transaction; MongoDB: the version's delete conditional on
   * its status, then its files). Published and yanked versions stay (see VersionDeletion).
   */
  deleteVersion(applicationId: string, version: string): Promise<VersionDeletion>;
  /**
   * Deletes a file record: a failed one always (a failed upload stops being listed); an available one
   * only while its version is a draft; never a pending one (see FileDeletion). The file's status is
   * checked by the write (SQLite: one IMMEDIATE transaction with the version's status; MongoDB: a delete
   * conditional on the file's status, after reading the version's).
   */
  deleteFile(fileId: string): Promise<FileDeletion>;
  /**
   * Deletes every version and file record of an application whose releases' purge has started
   * (startReleasePurge), whatever their status: the only way a published file's record goes. Null,
   * nothing deleted, when its purge has not started. Its bytes are the caller's to delete first.
   */
  deletePurgedReleases(applicationId: string): Promise<PurgedReleases | null>;
  /**
   * Moves a pending file to `to`; only from `from`, and only from `pending` (null otherwise, nothing
   * written): an available file's status and checksum are never changed here (publishFile makes a file
   * available; a published file's bytes and digests never change), a failed one stays failed. Failed
   * files stop reserving their name and MAIN slot.
   */
  setFileStatus(fileId: string, from: FileStatus, to: FileStatus, checksum: string | null, at: Date): Promise<FileRecord | null>;
  /**
   * Points a pending file at the object `storageKey` (its content-addressed key, once its bytes are
   * hashed); null, nothing written, when the file is not pending. Written before the bytes are placed
   * there, so from then on fileObjectShared counts the file and no other file's deletion removes them.
   */
  claimFileObject(fileId: string, storageKey: string): Promise<FileRecord | null>;
  /**
   * Whether a file record other than `exceptFileId` that is not failed (pending or available) points at
   * the object `storageKey`: its bytes may be deleted only when none does. Read through an index on the
   * storage key.
   */
  fileObjectShared(storageKey: string, exceptFileId: string): Promise<boolean>;
  /**
   * Records digests computed from the file's bytes where the file has none (updatedAt stays: the file
   * did not change): a digest already recorded is never replaced. Null when unknown.
   */
  setFileDigests(fileId: string, digests: FileDigestUpdate): Promise<FileRecord | null>;
  /** Records why a SIGNATURE file no longer verifies, or null once it does (updatedAt stays: the file did not change); null when unknown. */
  setSignatureProblem(fileId: string, problem: string | null): Promise<FileRecord | null>;
  /**
   * Records the key a version's update signature of `kind` verified under (a minisign key id, a
   * Sparkle public key); updatedAt stays. Null when the version is unknown.
   */
  recordSigningKey(applicationId: string, version: string, kind: SigningKeyKind, key: string): Promise<Version | null>;
  /**
   * Up to `limit` available files without a SHA-512 or a SHA-1, by fileId, after `afterFileId` when given: a
   * backfill pages with the last fileId it was given, and resumes from it after a restart.
   */
  listFilesMissingDigests(limit: number, afterFileId?: string): Promise<FileRecord[]>;
}

/** Customers with their API keys, and admin keys. */
export interface AccountStore {
  createCustomer(customer: Customer): Promise<Customer>;
  getCustomer(customerId: string): Promise<Customer | null>;
  /**
   * Customers in creation order; with `search`, only those whose id or name starts with it, letters
   * compared without case (a prefix, so both adapters answer from an index rather than a scan).
   */
  listCustomers(page: number, pageSize: number, search?: string): Promise<Page<Customer>>;
  updateCustomer(customerId: string, patch: CustomerPatch, at: Date): Promise<Customer | null>;
  /**
   * Deletes a customer: its record goes, its keys, access tokens and share links are revoked at `at`, its id leaves
   * every application's customerIds, its licence acceptances are removed (a customer created again
   * with the id accepts again), and its activity is anonymised (customerId, clientIp and
   * userAgent of its events set to null); events stay, so statistics keep counting them. null when
   * the customer is unknown. SQLite does it in one IMMEDIATE transaction; MongoDB deletes the record
   * last, so a deletion cut short is finished by a repeat.
   */
  deleteCustomer(customerId: string, at: Date): Promise<CustomerDeletion | null>;
  /** The ids among `customerIds` that do not exist. */
  findMissingCustomers(customerIds: string[]): Promise<string[]>;
  createApiKey(key: ApiKey): Promise<ApiKey>;
  /** Keys that are not revoked, oldest first. */
  listApiKeys(customerId: string): Promise<ApiKey[]>;
  findApiKeyByHash(keyHash: string): Promise<ApiKey | null>;
  /** Revokes a key of that customer; null when unknown or already revoked. */
  revokeApiKey(customerId: string, keyId: string, at: Date): Promise<ApiKey | null>;
  touchApiKey(keyId: string, at: Date): Promise<void>;

  // Admin keys
  createAdminKey(key: AdminKey): Promise<AdminKey>;
  /** Keys that are not revoked (expired ones included), oldest first. */
  listAdminKeys(): Promise<AdminKey[]>;
  findAdminKeyByHash(keyHash: string): Promise<AdminKey | null>;
  /** null when unknown or already revoked. */
  revokeAdminKey(keyId: string, at: Date): Promise<AdminKey | null>;
  /** Moves lastUsedAt forward to `at`, never back (uses recorded by several processes arrive out of order). */
  touchAdminKey(keyId: string, at: Date): Promise<void>;
}

/** Access tokens and their counted use. */
export interface AccessTokenStore {
  createAccessToken(token: AccessToken): Promise<AccessToken>;
  /** A customer's tokens that are not revoked, oldest first. */
  listAccessTokens(customerId: string): Promise<AccessToken[]>;
  /** One of the customer's tokens, revoked ones included; null when unknown. */
  getAccessToken(customerId: string, tokenId: string): Promise<AccessToken | null>;
  findAccessTokenByHash(tokenHash: string): Promise<AccessToken | null>;
  /** Changes a token's limits (a field left undefined stays); null when unknown or revoked. */
  updateAccessToken(customerId: string, tokenId: string, patch: AccessTokenPatch, at: Date): Promise<AccessToken | null>;
  /** null when unknown or already revoked. */
  revokeAccessToken(customerId: string, tokenId: string, at: Date): Promise<AccessToken | null>;
  /** Moves lastUsedAt forward to `at`, never back. */
  touchAccessToken(tokenId: string, at: Date): Promise<void>;
  /** The token's counts in the period starting at `periodStart` (zeros when nothing was counted). */
  getAccessTokenUsage(tokenId: string, periodStart: Date): Promise<AccessTokenUsage>;
  /**
   * Counts one download (or a byte range of one: its bytes and client, `downloads: 0`) against a
   * token in one atomic conditional write: counted, or refused naming the limit it would pass, with
   * nothing changed; a token whose downloads are spent is refused ranges too. However many processes
   * count at once, no count passes its limit. Counts of earlier periods are dropped when a new period starts.
   */
  countAccessTokenUse(use: TokenUse): Promise<TokenUseOutcome>;
  /** Takes back one counted use (`downloads` as counted) and its bytes (a download that could not be recorded); never below 0. */
  uncountAccessTokenUse(tokenId: string, periodStart: Date, bytes: number, downloads: 0 | 1): Promise<void>;
}

/** Large and multipart upload sessions. */
export interface UploadStore {
  /** Returns the session as stored, defaults included. */
  createUploadSession(session: NewUploadSession): Promise<UploadSession>;
  getUploadSession(uploadId: string): Promise<UploadSession | null>;
  /** Compare-and-set: applies the patch only when the current status is one of `from`. */
  updateUploadSession(uploadId: string, from: UploadStatus[], patch: UploadSessionPatch, at: Date): Promise<UploadSession | null>;
  /** Sessions still `issued` whose expiresAt is at or before `now`. */
  listExpiredUploadSessions(now: Date, limit: number): Promise<UploadSession[]>;
}

/** Share links and their counted use. */
export interface ShareLinkStore {
  createShareLink(link: ShareLink): Promise<ShareLink>;
  /** A customer's links, newest first, at most `limit` (revoked and expired ones included until purged). */
  listShareLinks(customerId: string, limit: number): Promise<ShareLink[]>;
  getShareLink(tokenHash: string): Promise<ShareLink | null>;
  /** Revokes a link created by that customer; null when unknown, someone else's or already revoked. */
  revokeShareLink(tokenHash: string, customerId: string, at: Date): Promise<ShareLink | null>;
  markShareLinkExpired(tokenHash: string, at: Date): Promise<void>;
  /**
   * Counts one use of a capped link in one conditional write: the link with its new count, or null
   * when it is unknown, has no cap or has been used maxDownloads times. However many processes count
   * at once, a link is never counted past its cap.
   */
  countShareLinkUse(tokenHash: string): Promise<ShareLink | null>;
  /** Takes back one counted use (a download that could not be recorded); never below 0. */
  uncountShareLinkUse(tokenHash: string): Promise<void>;
  /** Deletes links that expired before `before`; returns how many. */
  purgeShareLinks(before: Date, limit: number): Promise<number>;
}

/** Download events and the statistics folded from them. */
export interface ActivityStore {
  /** Inserts events; an eventId already stored is skipped, so a retried insert never duplicates. */
  insertEvents(events: DistributionEvent[]): Promise<void>;
  /** One stored event, null when it is not stored. */
  getEvent(eventId: string): Promise<DistributionEvent | null>;
  /** Newest first by (timestamp, eventId). */
  listEvents(query: ActivityQuery): Promise<DistributionEvent[]>;
  /**
   * Folds up to `limit` not-yet-counted download events into daily counters. Idempotent: a repeated or
   * interrupted call never counts an event twice. Returns how many events it folded (two concurrent
   * calls finishing the same batch may both report it; the stored counts stay exact).
   */
  rollupEvents(limit: number): Promise<number>;
  /**
   * When the download event waiting longest to be counted happened (the first the next rollup folds);
   * null when every download is counted. How far statistics lag behind downloads.
   */
  oldestUncountedEventAt(): Promise<Date | null>;
  /** Daily counters of one application, per version, platform and date: newest date first, then version and platform ascending. */
  listDailyCounts(applicationId: string, query: DailyCountQuery): Promise<DailyCount[]>;
  /**
   * The same counters' downloads per arch and the `topCustomers` customers with most downloads (ties by
   * customerId). Counted from the rollups that knew archs and customers: earlier downloads are in neither.
   */
  listDownloadBreakdown(applicationId: string, query: DailyCountQuery, topCustomers: number): Promise<DownloadBreakdown>;
  /**
   * A release's downloads by customers (downloads without a customer left out) at `from` ≤ time ≤ `to`,
   * ordered by customer, time and event id, those after `after` (null: from the first), at most `limit`.
   * Read through an index of the release's downloads by customer, never other releases' events.
   */
  listReleaseDownloads(applicationId: string, version: string, range: { from: Date; to: Date }, after: ReleaseDownload | null, limit: number): Promise<ReleaseDownload[]>;
}

/**
 * Update checks gathered for one write. A check beyond the capacity is refused (RangeError) and the
 * window keeps those it holds; `write()` stores the checks pushed (none: nothing), once per window.
 */
export interface CheckWindow {
  push(check: CheckEvent): void;
  readonly length: number;
  write(): Promise<void>;
}

/** Update checks and the adoption figures folded from them. */
export interface AdoptionStore {
  /** Inserts check events; a write repeated with the same events (a retry) stores them once. */
  insertCheckEvents(events: CheckEvent[]): Promise<void>;
  /**
   * Opens a window of up to `capacity` checks (a gateway's write window, a whole number of at least
   * 1): gathered in the form this store writes them, then stored by its `write()` as
   * insertCheckEvents stores them.
   */
  openCheckWindow(capacity: number): CheckWindow;
  /**
   * Claims up to `limit` check events not yet rolled up (or the batch an interrupted rollup left
   * unfinished, which comes first); null when there is none. Claiming twice before a finish claims
   * the same batch.
   */
  claimCheckBatch(limit: number): Promise<CheckBatch | null>;
  /**
   * Adds a claimed batch's figures: `checks` added exactly once per batch, `installs` raised to the
   * estimate given (never lowered), customers' last reports moved forward only. A batch finished
   * already changes nothing. Returns false when this batch was already finished.
   */
  finishCheckBatch(batchId: string, counts: AdoptionCount[], seen: CustomerVersionSeen[]): Promise<boolean>;
  /** Deletes up to `limit` rolled-up check events older than `before` that the update funnel has read too; returns how many. */
  purgeCheckEvents(before: Date, limit: number): Promise<number>;
  /** The counters of one application for one (channel, platform, arch) selection (ALL for none), every version, within the inclusive dates. */
  listAdoptionCounts(applicationId: string, query: AdoptionCountQuery): Promise<AdoptionCount[]>;
  /** Customers (by customerId ascending) with the versions their installs last reported. */
  listCustomerAdoption(applicationId: string, page: number, pageSize: number): Promise<Page<CustomerAdoption>>;
}

/**
 * The update funnel: each install a release was offered to, and whether it arrived, folded from the
 * check events by a worker (shared/rollouts/fold-funnel-checks.ts), its position kept apart from the
 * adoption rollup's.
 */
export interface UpdateFunnelStore {
  /**
   * Up to `limit` check events after the funnel's position, in the order stored; null when none.
   * Reading again before a finish reads the same checks (folding them twice changes nothing).
   */
  readFunnelChecks(limit: number): Promise<FunnelCheckBatch | null>;
  /** Moves the funnel's position past a batch read; a batch finished already (or read before another's finish) changes nothing. */
  finishFunnelChecks(position: string): Promise<void>;
  /** Records offers: one record per (application, version, install), keeping the earliest offer. */
  recordOffers(offers: readonly Omit<InstallOfferRecord, 'arrivedAt'>[]): Promise<void>;
  /** Marks offered installs arrived: the earliest arrival at or after the offer is kept; arrivals of installs never offered change nothing. */
  recordArrivals(arrivals: readonly InstallArrival[]): Promise<void>;
  /** A release's offers by install key, after `afterInstallKey` (null: from the first), at most `limit`. */
  listInstallOffers(applicationId: string, version: string, afterInstallKey: string | null, limit: number): Promise<InstallOfferRecord[]>;
  /** Stores one report an install sent. */
  insertUpdateReport(report: UpdateReport): Promise<void>;
  /** How many download_failed and install_failed reports name `version` as the one they were updating to. */
  countFailureReports(applicationId: string, version: string): Promise<number>;
  /** Deletes at most `limit` reports received before `before` (through an index by time); returns how many. */
  purgeUpdateReports(before: Date, limit: number): Promise<number>;
  /** The failure messages of those reports, most reported first (ties by message), at most `limit`; reports without a message are left out. */
  topFailureMessages(applicationId: string, version: string, limit: number): Promise<FailureMessageCount[]>;
}

/**
 * Rollout plans, one per version. Each change is a conditional update on where the plan stands, so of
 * two workers (or a worker and an admin) deciding at once one changes it and the other finds it
 * changed: a step is taken, and announced, once.
 */
export interface RolloutPlanStore {
  /** Sets a version's plan, running from its first step (replacing any plan it had). */
  setRolloutPlan(record: RolloutPlanRecord): Promise<void>;
  getRolloutPlan(applicationId: string, version: string): Promise<RolloutPlanRecord | null>;
  /** Running plans, by (applicationId, version), after the one given, at most `limit`. */
  listRunningRolloutPlans(after: { applicationId: string; version: string } | null, limit: number): Promise<RolloutPlanRecord[]>;
  /** Takes step `toStep` when the plan is running at `fromStep`; false when it is not (another took it, or it halted or stopped). */
  advanceRolloutPlan(applicationId: string, version: string, fromStep: number, toStep: number, at: Date): Promise<boolean>;
  /** Halts a plan running at `atStep`; false when it is not. */
  haltRolloutPlan(applicationId: string, version: string, atStep: number, reason: string, at: Date): Promise<boolean>;
  /** Runs a halted plan again from where it stands; false when it is not halted. */
  resumeRolloutPlan(applicationId: string, version: string, at: Date): Promise<boolean>;
  /** Stops a running or halted plan for good; false when it is already stopped or there is none. */
  stopRolloutPlan(applicationId: string, version: string, at: Date): Promise<boolean>;
}

/** Webhook endpoints, deliveries and the outbox. */
export interface WebhookStore {
  createWebhookEndpoint(endpoint: WebhookEndpoint): Promise<WebhookEndpoint>;
  getWebhookEndpoint(webhookId: string): Promise<WebhookEndpoint | null>;
  /** Oldest first. */
  listWebhookEndpoints(page: number, pageSize: number): Promise<Page<WebhookEndpoint>>;
  updateWebhookEndpoint(webhookId: string, patch: WebhookEndpointPatch, at: Date): Promise<WebhookEndpoint | null>;
  /** Starts the endpoint's run of failures at `at` unless one is under way; the endpoint as it now is, null when unknown. */
  markWebhookEndpointFailing(webhookId: string, at: Date): Promise<WebhookEndpoint | null>;
  /** Deletes the endpoint and its delivery log; false when unknown. */
  deleteWebhookEndpoint(webhookId: string): Promise<boolean>;
  /** Active endpoints subscribed to `eventType`, oldest first. */
  listSubscribedWebhookEndpoints(eventType: string): Promise<WebhookEndpoint[]>;
  /** Refuses a second delivery of the same id (DuplicateError 'deliveryId'). */
  insertWebhookDelivery(delivery: WebhookDelivery): Promise<WebhookDelivery>;
  getWebhookDelivery(deliveryId: string): Promise<WebhookDelivery | null>;
  /** An endpoint's deliveries, newest first (createdAt, then deliveryId). */
  listWebhookDeliveries(webhookId: string, page: number, pageSize: number): Promise<Page<WebhookDelivery>>;
  /** Records an attempt (attempts + 1, lastAttemptAt `at`) when the delivery is pending; null otherwise. */
  recordWebhookAttempt(deliveryId: string, result: WebhookAttemptResult, at: Date): Promise<WebhookDelivery | null>;
  /** Compare-and-set of the status alone (a redelivery, a delivery given up); null when it is not one of `from`. */
  setWebhookDeliveryStatus(deliveryId: string, from: WebhookDeliveryStatus[], to: WebhookDeliveryStatus, error: string | null, at: Date): Promise<WebhookDelivery | null>;
  /** Deletes up to `limit` deliveries created before `before`; returns how many. */
  purgeWebhookDeliveries(before: Date, limit: number): Promise<number>;
  /** Writes outbox entries; an eventId already there is left as it is (a repeat writes one). */
  addWebhookOutboxEntries(entries: WebhookOutboxEntry[]): Promise<void>;
  /** Makes pending entries ready with their data; an entry already ready, or gone, is left as it is. */
  confirmWebhookOutboxEntries(confirmed: { eventId: string; data: unknown }[]): Promise<void>;
  /** Up to `limit` entries written before `writtenBefore`, oldest first (writtenAt, then eventId), after `after` when given. */
  listWebhookOutboxEntries(writtenBefore: Date, limit: number, after?: WebhookOutboxPosition): Promise<WebhookOutboxEntry[]>;
  /** Removes entries once queued (or found to announce nothing); returns how many were there. */
  deleteWebhookOutboxEntries(eventIds: string[]): Promise<number>;
}

/** The audit log. */
export interface AuditStore {
  insertAuditEntry(entry: AuditEntry): Promise<AuditEntry>;
  /** Settles a pending entry; an entry already settled, or unknown, is left as it is. */
  settleAuditEntry(entryId: string, settlement: AuditSettlement): Promise<void>;
  /** Newest first by (timestamp, entryId). */
  listAuditEntries(query: AuditQuery): Promise<AuditEntry[]>;
}

/** Applications' TUF repositories: online keys, the vendor's roots, the online metadata last signed. */
export interface TufStore {
  /** Keeps a new repository; when the application has one already, answers that one unchanged (the first keys stay). */
  createTufRepository(record: TufRepositoryRecord): Promise<TufRepositoryRecord>;
  findTufRepository(applicationId: string): Promise<TufRepositoryRecord | null>;
  /**
   * Replaces the online metadata when the stored timestamp document is still `expectedTimestamp` (null:
   * none signed yet), so of two signers racing one wins and the other signs again from what won; false
   * when it was not (or the repository does not exist).
   */
  replaceTufMetadata(applicationId: string, expectedTimestamp: string | null, metadata: TufOnlineDocuments, at: Date): Promise<boolean>;
  /**
   * Keeps a root when its version is the next one: 1 for the first, else the latest kept plus one.
   * False otherwise (a root of that version is kept already, or one before it is missing); a root is never replaced.
   */
  addTufRoot(root: TufRootRecord): Promise<boolean>;
  findTufRoot(applicationId: string, version: number): Promise<TufRootRecord | null>;
  /** The root of the highest version kept, or null. */
  latestTufRoot(applicationId: string): Promise<TufRootRecord | null>;
  /** Applications with a repository, by id, those after `afterApplicationId`: what the re-signing job walks. */
  listTufRepositoryIds(limit: number, afterApplicationId?: string): Promise<string[]>;
}

/** Provenance attestations of files and the keys their signatures are checked with. */
export interface AttestationStore {
  /** Registers a key; false (nothing written) when the application already has a key of that id. */
  addAttestationKey(key: AttestationKey): Promise<boolean>;
  /** An application's keys, oldest first. */
  listAttestationKeys(applicationId: string): Promise<AttestationKey[]>;
  insertAttestation(attestation: Attestation): Promise<Attestation>;
  /** A file's attestations, oldest first. */
  listAttestations(fileId: string): Promise<Attestation[]>;
  countAttestations(fileId: string): Promise<number>;
}

/**
 * The store: one port per concern, each reached by its name (`store.versions.publishFile(...)`).
 * A call that finds the database unable to serve rejects with DependencyUnavailableError.
 */
export interface Store {
  readonly kind: 'sqlite' | 'mongodb';
  readonly applications: ApplicationStore;
  readonly versions: VersionStore;
  readonly accounts: AccountStore;
  readonly accessTokens: AccessTokenStore;
  readonly uploads: UploadStore;
  readonly shareLinks: ShareLinkStore;
  readonly activity: ActivityStore;
  readonly adoption: AdoptionStore;
  readonly funnel: UpdateFunnelStore;
  readonly rolloutPlans: RolloutPlanStore;
  readonly webhooks: WebhookStore;
  readonly audit: AuditStore;
  readonly tuf: TufStore;
  readonly attestations: AttestationStore;

  ping(): Promise<void>;
  close(): Promise<void>;
}
