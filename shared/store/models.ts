import type { ACCESS_TOKEN_RESET_PERIODS, LOGO_CONTENT_TYPES } from '../policy';
import type { ReleaseStatus } from '../releases/lifecycle';
import type { Arch, Platform } from '../releases/platforms';
import type { FileType } from '../releases/file-types';
import type { Scope } from '../scopes';

/** Records held by the store. Dates are Date objects here; presenters turn them into ISO strings. */

export interface Application {
  applicationId: string;
  name: string;
  description: string | null;
  tags: string[];
  customerIds: string[];
  /**
   * The minisign public key update signatures must verify under (shared/signing/minisign.ts), in the
   * form `tauri signer generate` prints; null when the application has none.
   */
  updateSigningKey: string | null;
  /**
   * The Ed25519 public key Sparkle signatures must verify under (shared/signing/sparkle.ts): base64 of
   * its 32 bytes, the app's `SUPublicEDKey`; null when the application has none.
   */
  sparklePublicKey: string | null;
  /**
   * Keys the application used before its current ones, newest retirement last: a key replaced by a
   * change of updateSigningKey or sparklePublicKey is kept here, so releases signed under it still
   * verify and installs that trust it are offered them (gateway/releases/signing-key-step.ts).
   */
  retiredSigningKeys: RetiredSigningKey[];
  /**
   * The status of a version an upload creates without naming one: `draft` (kept from customers until
   * published) or `published` (offered at once). Applications stored before the field read `published`.
   */
  defaultVersionStatus: InitialReleaseStatus;
  /**
   * The licence (Markdown) a customer must accept before any download of the application, and its
   * revision (1 and up): an acceptance holds for one revision, so a new revision asks again. Both null
   * when the application has none (applications stored before licences read so).
   */
  licenceText: string | null;
  licenceRevision: number | null;
  /**
   * How the customer portal presents the application: a name for people (else `name`), an accent
   * colour (`#rrggbb`), a support link (https). Null when unset (applications stored before read so).
   */
  displayName: string | null;
  accentColour: string | null;
  supportUrl: string | null;
  /** The portal's logo of the application (its bytes in object storage under logoStorageKey); null when none. */
  logo: ApplicationLogo | null;
  /** false while soft-deleted. */
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** Which update signatures a key checks: minisign's (Tauri, updateSigningKey) or Sparkle's EdDSA (sparklePublicKey). */
export type SigningKeyKind = 'minisign' | 'sparkle';

/** A key an application no longer signs with, as it was set, and when it was replaced. */
export interface RetiredSigningKey {
  kind: SigningKeyKind;
  key: string;
  /** As versions' signedUnder names it: a minisign key's id (null if unreadable), a Sparkle key itself. */
  keyId: string | null;
  retiredAt: Date;
}

/**
 * The keys a version's update signatures verified under, per kind: the minisign key id (16 uppercase
 * hex digits) and the Sparkle public key (base64); null while no signature of that kind verified.
 */
export interface SignedUnder {
  minisign: string | null;
  sparkle: string | null;
}

/** An application's logo as the record holds it: what its stored bytes are, and when they were set. */
export interface ApplicationLogo {
  contentType: (typeof LOGO_CONTENT_TYPES)[number];
  size: number;
  /** SHA-256 of the bytes, hex: the object's key and the answer's ETag. */
  sha256: string;
  updatedAt: Date;
}

/** A customer's acceptance of one revision of an application's licence; the first acceptance of a revision is kept. */
export interface LicenceAcceptance {
  applicationId: string;
  customerId: string;
  revision: number;
  acceptedAt: Date;
  /** The address the acceptance came from, as the download events record it. */
  clientIp: string | null;
}

export interface Version {
  applicationId: string;
  version: string;
  releaseNotes: string | null;
  requiredTier: string | null;
  /** One release channel (shared/releases/channels.ts); the store's default channel when none was named. */
  channel: string;
  /** Lifecycle (shared/releases/lifecycle.ts); changed only by Store.transitionVersion. */
  status: ReleaseStatus;
  /** 1 to 100 (shared/releases/rollout.ts). */
  rolloutPercentage: number;
  /** When the version first became published; kept through yanks. */
  publishedAt: Date | null;
  /** The app's bundle version (CFBundleVersion), which Sparkle compares; null: the version string is. */
  bundleVersion: string | null;
  /** The oldest operating system version the release runs on (Sparkle's minimumSystemVersion); null: any. */
  minimumSystemVersion: string | null;
  /** A critical update, which Sparkle installs without letting the user skip it. */
  critical: boolean;
  /** Why it was yanked, in the words of whoever yanked it; null unless yanked with a reason. */
  yankReason: string | null;
  /**
   * Yanked with a rollback: the version feeds offer instead to installs running this one, in the form
   * each client accepts a downgrade (gateway/releases/rollback-step.ts); null otherwise.
   */
  rollbackTo: string | null;
  /** The keys its update signatures verified under, recorded by their verification. */
  signedUnder: SignedUnder;
  createdAt: Date;
  updatedAt: Date;
}

/** What a version can be created as: an upload ships it at once or keeps it as a draft. */
export type InitialReleaseStatus = Extract<ReleaseStatus, 'draft' | 'published'>;

export type FileStatus = 'pending' | 'available' | 'failed';

export interface FileRecord {
  fileId: string;
  applicationId: string;
  version: string;
  fileName: string;
  fileSize: number;
  contentType: string;
  /** `sha256:<hex>` once known (available); null while a large upload is pending. */
  checksum: string | null;
  fileType: FileType;
  status: FileStatus;
  /** Object storage key; never leaves the process. */
  storageKey: string;
  /*
   * The four fields below are set on every file a store returns. They are optional here only for
   * the files callers give insertFile, which default to platform and arch `any` and no SHA-512 or SHA-1.
   */
  platform?: Platform;
  arch?: Arch;
  /** SHA-512 of the bytes, base64; null until computed (files stored before digests were kept). */
  sha512?: string | null;
  /** SHA-1 of the bytes, hex (Squirrel.Windows and Velopack list it); null until computed, as SHA-512. */
  sha1?: string | null;
  /**
   * A SIGNATURE file's: why it no longer verifies under its application's update-signing key, found
   * when the key changed (null when it verifies or is not checked). Such a signature is not offered
   * to update clients. Set on every file a store returns.
   */
  signatureProblem?: string | null;
  /**
   * A `.deb`'s control paragraph or an `.rpm`'s header fields, read from its bytes at upload
   * (shared/packages/): what the package repositories list. Null for other files, for packages
   * whose headers could not be read, and for files stored before they were read. Set on every file a store returns.
   */
  packageInfo?: PackageInfo | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a package says of itself, kept with its file. */
export type PackageInfo = DebPackageInfo | RpmPackageInfo;

export interface DebPackageInfo {
  format: 'deb';
  /** The control paragraph's fields in order (Package, Version, Architecture, Depends, Description...). */
  fields: Array<[string, string]>;
}

export interface RpmPackageInfo {
  format: 'rpm';
  name: string;
  epoch: number;
  version: string;
  release: string;
  arch: string;
  summary: string;
  description: string;
  url: string | null;
  license: string | null;
  vendor: string | null;
  group: string | null;
  packager: string | null;
  buildTime: number;
  buildHost: string | null;
  sourceRpm: string | null;
  /** Installed size, bytes. */
  installedSize: number;
  /** Byte range of the main header in the file (repodata's rpm:header-range). */
  headerStart: number;
  headerEnd: number;
  provides: RpmDependency[];
  requires: RpmDependency[];
  conflicts: RpmDependency[];
  obsoletes: RpmDependency[];
  files: string[];
  changelog: Array<{ author: string; date: number; text: string }>;
}

export interface RpmDependency {
  name: string;
  /** EQ, LT, LE, GT, GE, or null for an unversioned dependency. */
  flags: 'EQ' | 'LT' | 'LE' | 'GT' | 'GE' | null;
  epoch: string | null;
  version: string | null;
  release: string | null;
  pre: boolean;
}

/**
 * An application's OpenPGP keys that sign its package repositories (shared/signing/repository-keys.ts):
 * the current one (retiresAt null) and those rotated out, which still sign until retiresAt. The private
 * key is sealed (AES-256-GCM, shared/secrets.ts) under the configured repository key secret.
 */
export interface RepositoryKey {
  fingerprint: string;
  /** ASCII-armoured public key. */
  publicKey: string;
  sealedPrivateKey: string;
  algorithm: 'ed25519' | 'rsa4096';
  /** How it came: generated by the service or imported by the vendor. */
  origin: 'generated' | 'imported';
  createdAt: Date;
  retiresAt: Date | null;
}

/** An application's repository keys with the revision their last write left (compare-and-set). */
export interface RepositoryKeyRing {
  applicationId: string;
  revision: number;
  keys: RepositoryKey[];
}

export interface VersionWithFiles extends Version {
  files: FileRecord[];
}

/**
 * A maintenance window (shared/releases/maintenance-window.ts): the releases a customer, or one of its
 * access tokens, is entitled to. Null fields do not limit; records stored before the fields read null.
 */
export interface MaintenanceWindow {
  /** Releases published at or after this instant are not offered. */
  updatesUntil: Date | null;
  /** A semver range (`<3`, `2.x`) the offered versions must satisfy. */
  versionRange: string | null;
}

export interface Customer extends MaintenanceWindow {
  customerId: string;
  name: string;
  tier: string;
  isActive: boolean;
  notes: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ApiKey {
  keyId: string;
  customerId: string;
  /** SHA-256 hex of the whole key `<customerId>.<secret>`; the key itself is never stored. */
  keyHash: string;
  /** First characters of the key, enough for a person to recognise it. */
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** How often an access token's counts start again (UTC calendar periods); null: never. */
export type TokenResetPeriod = (typeof ACCESS_TOKEN_RESET_PERIODS)[number];

/** What an access token allows besides its customer's own rights; every null is "no limit". */
export interface AccessTokenLimits extends MaintenanceWindow {
  /** Downloads in a period. */
  maxDownloads: number | null;
  /** Distinct client addresses in a period. */
  maxClients: number | null;
  /** Bytes (the sizes of the files downloaded) in a period. */
  maxBytes: number | null;
  validFrom: Date | null;
  validUntil: Date | null;
  /** A subset of the customer's applications; null: every application the customer may download. */
  applications: string[] | null;
  channels: string[] | null;
  platforms: string[] | null;
  resetEvery: TokenResetPeriod | null;
}

/** A customer's access token (entitlement): a credential for downloads and update feeds only, with limits. */
export interface AccessToken extends AccessTokenLimits {
  tokenId: string;
  customerId: string;
  /** SHA-256 hex of the whole token; the token itself is never stored. */
  tokenHash: string;
  /** First characters of the token, enough for a person to recognise it. */
  prefix: string;
  name: string | null;
  createdAt: Date;
  updatedAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** A token's counts in one period (from periodStart). */
export interface AccessTokenUsage {
  downloads: number;
  /** Distinct client addresses. */
  clients: number;
  bytes: number;
}

/** Which count a refused use would have taken past its limit. */
export type TokenLimitReached = 'downloads' | 'clients' | 'bytes';

/** One download to count against a token, with the limits it is held to. */
export interface TokenUse {
  tokenId: string;
  periodStart: Date;
  /** Keyed hash of the client's address (the address itself is never stored). */
  clientHash: string;
  /** 1 for a whole download; 0 for a byte range of one, which counts its bytes and its client only. */
  downloads: 0 | 1;
  bytes: number;
  maxDownloads: number | null;
  maxClients: number | null;
  maxBytes: number | null;
}

export type TokenUseOutcome =
  | { outcome: 'counted'; usage: AccessTokenUsage }
  | { outcome: 'refused'; limit: TokenLimitReached; usage: AccessTokenUsage };

/** A scoped admin key (shared/scopes.ts); the keys of ADMIN_API_KEYS are configuration, not records. */
export interface AdminKey {
  keyId: string;
  /** What a person calls it ("CI for desktop-client"). */
  name: string;
  /** SHA-256 hex of the whole key `adm_<secret>`; the key itself is never stored. */
  keyHash: string;
  /** First characters of the key, enough for a person to recognise it. */
  prefix: string;
  scopes: Scope[];
  /** The applications the key is limited to; null for every application. */
  applicationIds: string[] | null;
  createdAt: Date;
  /** After this instant the key is refused (401); null: it does not expire. */
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * How an audited request ended: `pending` until its answer is known (and for good when the process
 * ended first), `succeeded` (2xx), `refused` (4xx: nothing changed) or `failed` (5xx).
 */
export const AUDIT_OUTCOMES = ['pending', 'succeeded', 'refused', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** One management write, recorded before its handler runs and settled with its outcome. */
export interface AuditEntry {
  /** Unique; with the timestamp, the audit log's order. */
  entryId: string;
  /** When the request was taken. */
  timestamp: Date;
  /** The admin key's id, or `root` for a key of ADMIN_API_KEYS. */
  actor: string;
  /** What was done, as the route declares it (`application.update`). */
  action: string;
  /** What it was done to (`desktop-client/1.2.0`); null until known for what the request creates. */
  target: string | null;
  /** The application it concerned, when it concerned one. */
  applicationId: string | null;
  requestId: string;
  outcome: AuditOutcome;
  /** The HTTP status answered; null while pending. */
  status: number | null;
  /** What an automatic change was decided on (a rollout plan's steps and halts); absent for requests. */
  details?: RolloutDecisionDetails;
}

/** The figures and bar a rollout plan's automatic step or halt was taken on, as its audit entry keeps them. */
export interface RolloutDecisionDetails {
  /** The percentage the version stands at after the change, and the one it stood at before. */
  percentage: number;
  fromPercentage: number;
  /** Why it halted (null for a step). */
  reason: string | null;
  figures: { offered: number; matured: number; arrived: number; stuck: number; successRate: number | null; failureReports: number };
  /** The plan's halt bar. */
  thresholds: { minOffered: number; minSuccessRate: number; maxFailureReports: number };
}

/** `aborted`: given up by an admin before completion (its name released, its bytes discarded). */
export type UploadStatus = 'issued' | 'verifying' | 'completed' | 'failed' | 'expired' | 'aborted';

/** What a multipart upload session adds: the object store's upload and the part size every part but the last has. */
export interface MultipartSession {
  /** The object store's id of its multipart upload; never leaves the process. */
  storageUploadId: string;
  partSize: number;
}

export interface UploadSession {
  uploadId: string;
  applicationId: string;
  version: string;
  fileName: string;
  fileSize: number;
  contentType: string;
  fileType: FileType;
  releaseNotes: string | null;
  requiredTier: string | null;
  /** The pending file's platform and arch. */
  platform: Platform;
  arch: Arch;
  /** The version's channel and initial status the upload asked for; null when it named none. */
  channel: string | null;
  versionStatus: InitialReleaseStatus | null;
  /** The pending file this session reserves. */
  fileId: string;
  /** Where the bytes land: a staging key for a single PUT, the file's own key for a multipart upload (assembled there at completion). */
  storageKey: string;
  /** null for a single-PUT large upload. */
  multipart: MultipartSession | null;
  status: UploadStatus;
  /** Checksum the client declared at completion, normalised to lowercase hex. */
  expectedChecksum: string | null;
  failureReason: string | null;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface ShareLink {
  /** SHA-256 hex of the token; the token itself is never stored. */
  tokenHash: string;
  customerId: string;
  applicationId: string;
  version: string;
  fileId: string;
  expiresAt: Date;
  revokedAt: Date | null;
  /** Set by the expiry job; correctness relies on expiresAt, this only records that the job ran. */
  expiredAt: Date | null;
  /** Uses (GETs) the link allows; null: no cap, and uses are not counted. */
  maxDownloads: number | null;
  /** Uses counted so far, only for a capped link (Store.countShareLinkUse). */
  downloadCount: number;
  createdAt: Date;
}

export type EventType = 'upload' | 'download';

/** A customer's download of a release's file, as the update funnel links it to offers (shared/rollouts/download-links.ts). */
export interface ReleaseDownload {
  customerId: string;
  eventId: string;
  at: Date;
}

export interface DistributionEvent {
  /** Unique; a repeated insert of the same id is ignored. */
  eventId: string;
  type: EventType;
  applicationId: string;
  version: string;
  fileId: string;
  /** null for uploads by an admin. */
  customerId: string | null;
  clientIp: string | null;
  userAgent: string | null;
  /** The file's platform and arch (`any` for events stored before files had them). */
  platform: Platform;
  arch: Arch;
  timestamp: Date;
}

export interface DailyCount {
  applicationId: string;
  version: string;
  /** Platform of the downloaded files (`any` for downloads counted before files had one). */
  platform: Platform;
  /** UTC calendar date, YYYY-MM-DD. */
  date: string;
  count: number;
}

/** Downloads of a selection of daily counters split by arch, and the customers who downloaded most. */
export interface DownloadBreakdown {
  /** Per arch of the downloaded file, archs without downloads left out. */
  byArch: Partial<Record<Arch, number>>;
  /** Most downloads first, then customerId ascending. */
  topCustomers: { customerId: string; downloads: number }[];
}

/** An endpoint that receives signed webhook deliveries (shared/webhooks/). */
export interface WebhookEndpoint {
  webhookId: string;
  url: string;
  /** Event types it subscribes to (shared/webhooks/events.ts). */
  events: string[];
  description: string | null;
  /** false when an admin turned it off or it was disabled for failing (then disabledReason says why). */
  isActive: boolean;
  disabledReason: string | null;
  /** Sealed signing secret (shared/secrets.ts sealSecret); the secret itself is never stored. */
  secret: string;
  /** The secret before the last rotation, sealed, still signing until previousSecretExpiresAt. */
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  /** Start of the current run of failed deliveries; null once one succeeds. */
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event's delivery to one endpoint: the message every attempt sends again under the same id. */
/**
 * A webhook event in the outbox: written with the change it announces (before it, `pending`, and
 * made `ready` with its data once the change is written), queued by whoever wrote it and, when that
 * did not happen (the process died, Redis refused the job), by the relay-webhook-outbox job.
 */
export interface WebhookOutboxEntry {
  eventId: string;
  type: string;
  occurredAt: Date;
  state: WebhookOutboxState;
  /** The event's `data`: null while pending, unless it was known before the change (a download's). */
  data: unknown;
  /** The ids of the record the change is about: how the relay checks a pending entry's change. */
  subject: string[];
  /** When the entry was written: the relay takes entries older than their writer needs, oldest first. */
  writtenAt: Date;
}

export type WebhookOutboxState = 'pending' | 'ready';

/** Where the relay got to: entries strictly after this (writtenAt, then eventId) come next. */
export interface WebhookOutboxPosition {
  writtenAt: Date;
  eventId: string;
}

export interface WebhookDelivery {
  /** The `webhook-id` of every attempt. */
  deliveryId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  /** The exact body every attempt sends. */
  payload: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastAttemptAt: Date | null;
  /** The receiver's status code at the last attempt; null when it gave none (refused, unreachable, timed out). */
  responseStatus: number | null;
  /** The start of the receiver's last response body (shared/policy.ts WEBHOOK_RESPONSE_READ_MAX_BYTES). */
  responseBody: string | null;
  /** Why the last attempt did not count as delivered; null once delivered. */
  error: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The update client families whose checks are recorded. Each sends the running version differently:
 * Tauri and Squirrel.Mac in the check's path, Squirrel.Windows and Velopack in the `id`/`localVersion`
 * query of their feed, Sparkle in its User-Agent (`<App>/<version> Sparkle/<version>`);
 * electron-updater sends none with its channel file (its User-Agent is `electron-builder`), so its
 * checks record `unknown` unless the app adds a header (see docs/adoption.md).
 */
export const UPDATE_CLIENT_FAMILIES = ['electron-updater', 'tauri', 'squirrel-mac', 'squirrel-windows', 'sparkle', 'velopack'] as const;
export type UpdateClientFamily = (typeof UPDATE_CLIENT_FAMILIES)[number];

/** The running version of a check whose client did not say. */
export const UNKNOWN_VERSION = 'unknown';

/** One answered update check. No address is stored: `installHash` is keyed with a key that changes every UTC day. */
export interface CheckEvent {
  eventId: string;
  applicationId: string;
  customerId: string;
  client: UpdateClientFamily;
  platform: Platform;
  arch: Arch;
  channel: string;
  /** What the client says it runs; UNKNOWN_VERSION when it does not say. */
  runningVersion: string;
  /** The version the answer offered; null when it offered none (up to date). */
  offeredVersion: string | null;
  /** The install identity the client sent (electron-updater's `x-user-staging-id`), null when none. */
  installId: string | null;
  /** Keyed hash of (customer, install identity or address, user agent) under the day's key (shared/adoption/install-hash.ts). */
  installHash: string;
  timestamp: Date;
}

/** Check events claimed by one adoption rollup batch; `batchId` names it to the adapter that finishes it. */
/**
 * A claimed batch's checks folded as the rollup needs them, not one by one: the checks of each exact
 * (application, UTC day, channel, platform, arch, running version) with their distinct install
 * hashes, and the latest report of each (application, customer, running version).
 */
export interface CheckBatch {
  batchId: string;
  /** How many checks the batch holds. */
  checks: number;
  /** Ordered by application, date, channel, platform, arch and running version. */
  groups: CheckGroup[];
  /** Ordered by application, customer and version. */
  reports: CustomerVersionSeen[];
}

/** The checks of one exact selection on one UTC day in a claimed batch. */
export interface CheckGroup {
  applicationId: string;
  date: string;
  channel: string;
  platform: string;
  arch: string;
  runningVersion: string;
  checks: number;
  /** The distinct install hashes among them, in ascending order. */
  installHashes: string[];
}

/** A dimension of an adoption counter that counts every value. */
export const ALL = '*';

/**
 * One adoption counter: a UTC day's checks and estimated distinct installs for one application,
 * per channel, platform, arch and running version, each of which may be ALL.
 */
export interface AdoptionCount {
  applicationId: string;
  date: string;
  channel: string;
  platform: string;
  arch: string;
  version: string;
  checks: number;
  installs: number;
}

/** When a customer's installs last reported running a version of an application. */
export interface CustomerVersionSeen {
  applicationId: string;
  customerId: string;
  version: string;
  lastReportedAt: Date;
}

/** A customer's reported versions, newest report first. */
export interface CustomerAdoption {
  customerId: string;
  versions: { version: string; lastReportedAt: Date }[];
}

/** An online key of an application's TUF repository: the private half sealed, never stored in plain text. */
export interface TufStoredKey {
  keyId: string;
  /** The raw ed25519 public key, hex. */
  publicKey: string;
  /** The PKCS#8 private key, sealed (shared/secrets.ts `sealSecret`) under the key sealing service secrets. */
  sealedPrivateKey: string;
}

/** The online metadata of a TUF repository, each document as the exact bytes served. */
export interface TufOnlineDocuments {
  targets: string;
  /** Channel name → its delegated targets role. */
  channels: Record<string, string>;
  snapshot: string;
  timestamp: string;
}

/** An application's TUF repository: the service's online keys and the online metadata it last signed. */
export interface TufRepositoryRecord {
  applicationId: string;
  keys: { targets: TufStoredKey; snapshot: TufStoredKey; timestamp: TufStoredKey };
  /** Null until the vendor's first root is uploaded and the online roles are first signed. */
  metadata: TufOnlineDocuments | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A root of an application's TUF repository as the vendor signed and uploaded it. */
export interface TufRootRecord {
  applicationId: string;
  version: number;
  /** The signed root, the exact bytes served as `{version}.root.json`. */
  document: string;
  createdAt: Date;
}

/** The public-key algorithms an attestation's signature may be checked with. */
export const ATTESTATION_KEY_ALGORITHMS = ['ed25519', 'ecdsa-p256'] as const;
export type AttestationKeyAlgorithm = (typeof ATTESTATION_KEY_ALGORITHMS)[number];

/** A public key a vendor registered for an application: its attestations' signatures are checked with it. */
export interface AttestationKey {
  applicationId: string;
  /** The key's id: a DSSE signature's `keyid`, a Sigstore bundle's public-key hint. */
  keyId: string;
  algorithm: AttestationKeyAlgorithm;
  /** SPKI PEM. */
  publicKeyPem: string;
  createdAt: Date;
}

export const ATTESTATION_FORMATS = ['dsse', 'sigstore-bundle'] as const;
export type AttestationFormat = (typeof ATTESTATION_FORMATS)[number];

/** What the offline check of an attestation's signature found when it was added. */
export const ATTESTATION_VERIFICATIONS = ['verified', 'unverified', 'failed'] as const;
export type AttestationVerification = (typeof ATTESTATION_VERIFICATIONS)[number];

/** An in-toto statement about a file, as uploaded (a DSSE envelope or a Sigstore bundle), with what was read from it. */
export interface Attestation {
  attestationId: string;
  applicationId: string;
  version: string;
  fileId: string;
  format: AttestationFormat;
  predicateType: string;
  /** The subject digest that matched the file: `sha256` or `sha512`. */
  digestAlgorithm: 'sha256' | 'sha512';
  /** From a SLSA provenance predicate: who built it and from which source (null when not stated). */
  builderId: string | null;
  sourceRepository: string | null;
  sourceCommit: string | null;
  verification: AttestationVerification;
  /** The registered key that verified it, when one did. */
  verifiedKeyId: string | null;
  /** Why it is unverified or failed (null when verified). */
  verificationDetail: string | null;
  /** The envelope or bundle exactly as uploaded (JSON text). */
  document: string;
  createdAt: Date;
}

/** An install offered a release (the update funnel): the first offer, and when the install first checked in running it. */
export interface InstallOfferRecord {
  applicationId: string;
  version: string;
  /** `id:<install identity>` when the client sent one, else `h:<install hash>` (which changes every UTC day). */
  installKey: string;
  customerId: string;
  platform: string;
  arch: string;
  channel: string;
  offeredAt: Date;
  /** The first check, at or after the offer, running this release; null while there is none. */
  arrivedAt: Date | null;
}

/** A check that ran a release: the install arrived if it had been offered that release before. */
export interface InstallArrival {
  applicationId: string;
  version: string;
  installKey: string;
  at: Date;
}

/** Checks the update funnel read and has not yet moved its position past; `position` names them to the store. */
export interface FunnelCheckBatch {
  position: string;
  events: CheckEvent[];
}

/** Where a version's rollout plan stands: running (steps taken as health allows), halted (health fell below the bar), or stopped by an admin. */
export const ROLLOUT_PLAN_STATES = ['running', 'halted', 'stopped'] as const;
export type RolloutPlanStatus = (typeof ROLLOUT_PLAN_STATES)[number];

/** A version's rollout plan and where it stands (shared/rollouts/rollout-plan.ts decides its steps). */
export interface RolloutPlanRecord {
  applicationId: string;
  version: string;
  /** The plan as given: `{steps: [{percentage, after}], halt: {minOffered, minSuccessRate, maxFailureReports}}`. */
  plan: { steps: { percentage: number; after: string }[]; halt: { minOffered: number; minSuccessRate: number; maxFailureReports: number } };
  status: RolloutPlanStatus;
  /** The index of the step last taken. */
  step: number;
  startedAt: Date;
  /** When the health last fell below the bar (null while it has not, or since an admin resumed). */
  haltedAt: Date | null;
  haltReason: string | null;
  updatedAt: Date;
}

/** What an app may report about an update (POST /v1/updates/{applicationId}/reports). */
export const UPDATE_REPORT_EVENTS = ['download_failed', 'install_failed', 'started'] as const;
export type UpdateReportEvent = (typeof UPDATE_REPORT_EVENTS)[number];

/** One report an install sent: never trusted for access, counted in its release's health. */
export interface UpdateReport {
  reportId: string;
  applicationId: string;
  customerId: string;
  installId: string | null;
  fromVersion: string;
  toVersion: string;
  event: UpdateReportEvent;
  message: string | null;
  receivedAt: Date;
}

/** A failure message and how often a release's installs reported it. */
export interface FailureMessageCount {
  message: string;
  reports: number;
}
