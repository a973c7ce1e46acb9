import type {
  ApiKey,
  Application,
  Customer,
  DailyCount,
  DistributionEvent,
  EventType,
  FileRecord,
  FileStatus,
  ShareLink,
  UploadSession,
  UploadStatus,
  Version,
  VersionWithFiles,
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
  includeDeleted?: boolean;
}

export type ApplicationPatch = Partial<Pick<Application, 'name' | 'description' | 'tags' | 'customerIds'>>;
export type CustomerPatch = Partial<Pick<Customer, 'name' | 'isActive' | 'notes' | 'tier'>>;
export type VersionPatch = Partial<Pick<Version, 'releaseNotes' | 'requiredTier'>>;
export type UploadSessionPatch = Partial<Pick<UploadSession, 'status' | 'expectedChecksum' | 'failureReason' | 'releaseNotes'>>;

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

export interface DailyCountQuery {
  version?: string;
  /** Inclusive YYYY-MM-DD bounds. */
  from?: string;
  to?: string;
}

/**
 * The one persistence port. Adapters: SQLite (embedded default) and MongoDB (production).
 * Both pass test/contract/store.contract.test.ts. Unique-constraint violations throw DuplicateError
 * with a target naming the collision ('applicationId', 'customerId', 'fileName', 'mainFile', ...).
 * Every limit, page and pageSize is a whole number of at least 1; any other value throws a RangeError
 * (shared/store/bounds.ts).
 */
export interface Store {
  readonly kind: 'sqlite' | 'mongodb';

  // Applications
  createApplication(app: Application): Promise<Application>;
  getApplication(applicationId: string, options?: { includeDeleted?: boolean }): Promise<Application | null>;
  listApplications(query: ApplicationQuery): Promise<Page<Application>>;
  updateApplication(applicationId: string, patch: ApplicationPatch, at: Date): Promise<Application | null>;
  /** Soft delete; null when the application is unknown or already deleted. */
  softDeleteApplication(applicationId: string, at: Date): Promise<Application | null>;
  /** Undo a soft delete; null when the application is unknown or not deleted. */
  restoreApplication(applicationId: string, at: Date): Promise<Application | null>;

  // Versions and files
  /** Creates the version when it does not exist; applies `patch` fields that are not undefined. */
  upsertVersion(applicationId: string, version: string, patch: VersionPatch, at: Date): Promise<Version>;
  getVersion(applicationId: string, version: string): Promise<Version | null>;
  updateVersion(applicationId: string, version: string, patch: VersionPatch, at: Date): Promise<Version | null>;
  /** Versions newest first, each with its files (oldest file first). */
  listVersions(applicationId: string): Promise<VersionWithFiles[]>;
  /**
   * Refuses a second live (pending or available) file of the same name, or a second live MAIN file, in
   * one version; a MAIN file colliding on both reports 'mainFile'.
   */
  insertFile(file: FileRecord): Promise<FileRecord>;
  getFile(fileId: string): Promise<FileRecord | null>;
  /** The available file to serve: `fileId` within that version, else the version's MAIN file. */
  findAvailableFile(applicationId: string, version: string, fileId?: string): Promise<FileRecord | null>;
  /** Moves a file between statuses; only from `from`. Failed files stop reserving their name. */
  setFileStatus(fileId: string, from: FileStatus, to: FileStatus, checksum: string | null, at: Date): Promise<FileRecord | null>;

  // Customers and keys
  createCustomer(customer: Customer): Promise<Customer>;
  getCustomer(customerId: string): Promise<Customer | null>;
  listCustomers(page: number, pageSize: number): Promise<Page<Customer>>;
  updateCustomer(customerId: string, patch: CustomerPatch, at: Date): Promise<Customer | null>;
  /** The ids among `customerIds` that do not exist. */
  findMissingCustomers(customerIds: string[]): Promise<string[]>;
  createApiKey(key: ApiKey): Promise<ApiKey>;
  /** Keys that are not revoked, oldest first. */
  listApiKeys(customerId: string): Promise<ApiKey[]>;
  findApiKeyByHash(keyHash: string): Promise<ApiKey | null>;
  /** Revokes a key of that customer; null when unknown or already revoked. */
  revokeApiKey(customerId: string, keyId: string, at: Date): Promise<ApiKey | null>;
  touchApiKey(keyId: string, at: Date): Promise<void>;

  // Large-upload sessions
  createUploadSession(session: UploadSession): Promise<UploadSession>;
  getUploadSession(uploadId: string): Promise<UploadSession | null>;
  /** Compare-and-set: applies the patch only when the current status is one of `from`. */
  updateUploadSession(uploadId: string, from: UploadStatus[], patch: UploadSessionPatch, at: Date): Promise<UploadSession | null>;
  /** Sessions still `issued` whose expiresAt is at or before `now`. */
  listExpiredUploadSessions(now: Date, limit: number): Promise<UploadSession[]>;

  // Share links
  createShareLink(link: ShareLink): Promise<ShareLink>;
  getShareLink(tokenHash: string): Promise<ShareLink | null>;
  /** Revokes a link created by that customer; null when unknown, someone else's or already revoked. */
  revokeShareLink(tokenHash: string, customerId: string, at: Date): Promise<ShareLink | null>;
  markShareLinkExpired(tokenHash: string, at: Date): Promise<void>;
  /** Deletes links that expired before `before`; returns how many. */
  purgeShareLinks(before: Date, limit: number): Promise<number>;

  // Events and statistics
  /** Inserts events; an eventId already stored is skipped, so a retried insert never duplicates. */
  insertEvents(events: DistributionEvent[]): Promise<void>;
  /** Newest first by (timestamp, eventId). */
  listEvents(query: ActivityQuery): Promise<DistributionEvent[]>;
  /**
   * Folds up to `limit` not-yet-counted download events into daily counters. Idempotent: a repeated or
   * interrupted call never counts an event twice. Returns how many events it folded (two concurrent
   * calls finishing the same batch may both report it; the stored counts stay exact).
   */
  rollupEvents(limit: number): Promise<number>;
  /** Daily counters of one application, newest date first. */
  listDailyCounts(applicationId: string, query: DailyCountQuery): Promise<DailyCount[]>;

  ping(): Promise<void>;
  close(): Promise<void>;
}
