import type { Connection } from 'mongoose';
import type { ReleaseStatus } from '../../releases/lifecycle';
import type {
  AdminKey,
  AdoptionCount,
  CheckBatch,
  CheckEvent,
  CustomerAdoption,
  CustomerVersionSeen,
  ApiKey,
  Application,
  ApplicationLogo,
  AuditEntry,
  Customer,
  DailyCount,
  DownloadBreakdown,
  DistributionEvent,
  FileRecord,
  FileStatus,
  LicenceAcceptance,
  ShareLink,
  UploadSession,
  UploadStatus,
  Version,
  VersionWithFiles,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookEndpoint,
  WebhookOutboxEntry,
  WebhookOutboxPosition,
  AccessToken,
  AccessTokenUsage,
  TokenUse,
  TokenUseOutcome,
} from '../models';
import type {
  ActivityQuery,
  ApplicationPatch,
  ApplicationQuery,
  LogoReplacement,
  AuditQuery,
  AuditSettlement,
  CustomerDeletion,
  CustomerPatch,
  AdoptionCountQuery,
  DailyCountQuery,
  FileDeletion,
  FileDigestUpdate,
  FilePublication,
  FilePublicationResult,
  NewUploadSession,
  Page,
  Store,
  UploadSessionPatch,
  VersionDeletion,
  VersionFilter,
  VersionPatch,
  VersionTransition,
  VersionUpsert,
  WebhookAttemptResult,
  WebhookEndpointPatch,
  AccessTokenPatch,
} from '../store';
import { DEFAULT_STORE_OPTIONS, type StoreOptions } from '../options';
import { MongoUploadsAndLinks } from './uploads-and-links';
import { MongoAccounts } from './accounts';
import { MongoAccessTokens } from './access-tokens';
import { MongoActivity } from './activity';
import { MongoApplications } from './applications';
import { MongoAudit } from './audit';
import { DependencyUnavailableError } from '../../errors';
import { openConnection } from './connection';
import { bindModels } from './models';
import { translateUnavailable } from './unavailable';
import { MongoWebhooks } from './webhooks';
import { MongoVersionsAndFiles } from './versions-and-files';
import { MongoAdoption } from './adoption';

/**
 * Production store on MongoDB (standalone or replica set; no transactions). Each concern lives in its
 * own module; this class only opens the connection and routes the Store methods to them, turning a
 * database that cannot serve into DependencyUnavailableError (unavailable.ts).
 */
export class MongoStore implements Store {
  readonly kind = 'mongodb' as const;
  private readonly applications: MongoApplications;
  private readonly versionsAndFiles: MongoVersionsAndFiles;
  private readonly accounts: MongoAccounts;
  private readonly accessTokens: MongoAccessTokens;
  private readonly uploadsAndLinks: MongoUploadsAndLinks;
  private readonly activity: MongoActivity;
  private readonly adoption: MongoAdoption;
  private readonly webhooks: MongoWebhooks;
  private readonly audit: MongoAudit;

  private constructor(private readonly connection: Connection, options: StoreOptions) {
    const models = bindModels(connection);
    this.applications = new MongoApplications(models);
    this.versionsAndFiles = new MongoVersionsAndFiles(models, options);
    this.accounts = new MongoAccounts(models);
    this.accessTokens = new MongoAccessTokens(models);
    this.uploadsAndLinks = new MongoUploadsAndLinks(models);
    this.activity = new MongoActivity(models, options);
    this.adoption = new MongoAdoption(models);
    this.webhooks = new MongoWebhooks(models);
    this.audit = new MongoAudit(models);
  }

  /**
   * Connects and creates the indexes the schemas declare that are missing. It drops none: an older
   * release running beside this one during a rolling deploy keeps the indexes it relies on. Obsolete
   * indexes are dropped by the migration step (index-migration.ts, `npm run migrate`), which also
   * fills in the fields documents of earlier releases lack; until then they read with their defaults.
   */
  static async connect(uri: string, options: StoreOptions = DEFAULT_STORE_OPTIONS): Promise<MongoStore> {
    const connection = await openConnection(uri).catch((error: unknown) => {
      throw translateUnavailable(error);
    });
    try {
      const store = new MongoStore(connection, options);
      for (const model of Object.values(connection.models)) await model.createIndexes();
      return store;
    } catch (error) {
      await connection.close();
      throw translateUnavailable(error);
    }
  }

  // Applications
  createApplication(app: Application): Promise<Application> {
    return this.guard(this.applications.createApplication(app));
  }
  getApplication(applicationId: string, options?: { includeDeleted?: boolean }): Promise<Application | null> {
    return this.guard(this.applications.getApplication(applicationId, options));
  }
  replaceApplicationLogo(applicationId: string, logo: ApplicationLogo | null, at: Date): Promise<LogoReplacement | null> {
    return this.guard(this.applications.replaceApplicationLogo(applicationId, logo, at));
  }
  recordLicenceAcceptance(acceptance: LicenceAcceptance): Promise<LicenceAcceptance> {
    return this.guard(this.applications.recordLicenceAcceptance(acceptance));
  }
  getLicenceAcceptance(applicationId: string, customerId: string, revision: number): Promise<LicenceAcceptance | null> {
    return this.guard(this.applications.getLicenceAcceptance(applicationId, customerId, revision));
  }
  listApplications(query: ApplicationQuery): Promise<Page<Application>> {
    return this.guard(this.applications.listApplications(query));
  }
  updateApplication(applicationId: string, patch: ApplicationPatch, at: Date): Promise<Application | null> {
    return this.guard(this.applications.updateApplication(applicationId, patch, at));
  }
  softDeleteApplication(applicationId: string, at: Date): Promise<Application | null> {
    return this.guard(this.applications.softDeleteApplication(applicationId, at));
  }
  restoreApplication(applicationId: string, at: Date): Promise<Application | null> {
    return this.guard(this.applications.restoreApplication(applicationId, at));
  }
  grantApplicationAccess(applicationId: string, customerId: string, at: Date): Promise<Application | null> {
    return this.guard(this.applications.grantApplicationAccess(applicationId, customerId, at));
  }
  revokeApplicationAccess(applicationId: string, customerId: string, at: Date): Promise<Application | null> {
    return this.guard(this.applications.revokeApplicationAccess(applicationId, customerId, at));
  }

  // Versions and files
  upsertVersion(applicationId: string, version: string, patch: VersionUpsert, at: Date): Promise<Version> {
    return this.guard(this.versionsAndFiles.upsertVersion(applicationId, version, patch, at));
  }
  getVersion(applicationId: string, version: string): Promise<Version | null> {
    return this.guard(this.versionsAndFiles.getVersion(applicationId, version));
  }
  updateVersion(applicationId: string, version: string, patch: VersionPatch, at: Date): Promise<Version | null> {
    return this.guard(this.versionsAndFiles.updateVersion(applicationId, version, patch, at));
  }
  transitionVersion(applicationId: string, version: string, to: ReleaseStatus, at: Date, patch?: VersionPatch): Promise<VersionTransition> {
    return this.guard(this.versionsAndFiles.transitionVersion(applicationId, version, to, at, patch));
  }
  listVersions(applicationId: string, filter?: VersionFilter): Promise<VersionWithFiles[]> {
    return this.guard(this.versionsAndFiles.listVersions(applicationId, filter));
  }
  insertFile(file: FileRecord): Promise<FileRecord> {
    return this.guard(this.versionsAndFiles.insertFile(file));
  }
  getFile(fileId: string): Promise<FileRecord | null> {
    return this.guard(this.versionsAndFiles.getFile(fileId));
  }
  publishFile(fileId: string, publication: FilePublication, at: Date): Promise<FilePublicationResult> {
    return this.guard(this.versionsAndFiles.publishFile(fileId, publication, at));
  }
  deleteVersion(applicationId: string, version: string): Promise<VersionDeletion> {
    return this.guard(this.versionsAndFiles.deleteVersion(applicationId, version));
  }
  deleteFile(fileId: string): Promise<FileDeletion> {
    return this.guard(this.versionsAndFiles.deleteFile(fileId));
  }
  setFileStatus(fileId: string, from: FileStatus, to: FileStatus, checksum: string | null, at: Date): Promise<FileRecord | null> {
    return this.guard(this.versionsAndFiles.setFileStatus(fileId, from, to, checksum, at));
  }
  setFileDigests(fileId: string, digests: FileDigestUpdate): Promise<FileRecord | null> {
    return this.guard(this.versionsAndFiles.setFileDigests(fileId, digests));
  }

  setSignatureProblem(fileId: string, problem: string | null): Promise<FileRecord | null> {
    return this.guard(this.versionsAndFiles.setSignatureProblem(fileId, problem));
  }
  listFilesMissingDigests(limit: number, afterFileId?: string): Promise<FileRecord[]> {
    return this.guard(this.versionsAndFiles.listFilesMissingDigests(limit, afterFileId));
  }

  // Customers and keys
  createCustomer(customer: Customer): Promise<Customer> {
    return this.guard(this.accounts.createCustomer(customer));
  }
  getCustomer(customerId: string): Promise<Customer | null> {
    return this.guard(this.accounts.getCustomer(customerId));
  }
  listCustomers(page: number, pageSize: number, search?: string): Promise<Page<Customer>> {
    return this.guard(this.accounts.listCustomers(page, pageSize, search));
  }
  updateCustomer(customerId: string, patch: CustomerPatch, at: Date): Promise<Customer | null> {
    return this.guard(this.accounts.updateCustomer(customerId, patch, at));
  }
  deleteCustomer(customerId: string, at: Date): Promise<CustomerDeletion | null> {
    return this.guard(this.accounts.deleteCustomer(customerId, at));
  }
  findMissingCustomers(customerIds: string[]): Promise<string[]> {
    return this.guard(this.accounts.findMissingCustomers(customerIds));
  }
  // Access tokens
  createAccessToken(token: AccessToken): Promise<AccessToken> {
    return this.guard(this.accessTokens.createAccessToken(token));
  }
  listAccessTokens(customerId: string): Promise<AccessToken[]> {
    return this.guard(this.accessTokens.listAccessTokens(customerId));
  }
  getAccessToken(customerId: string, tokenId: string): Promise<AccessToken | null> {
    return this.guard(this.accessTokens.getAccessToken(customerId, tokenId));
  }
  findAccessTokenByHash(tokenHash: string): Promise<AccessToken | null> {
    return this.guard(this.accessTokens.findAccessTokenByHash(tokenHash));
  }
  updateAccessToken(customerId: string, tokenId: string, patch: AccessTokenPatch, at: Date): Promise<AccessToken | null> {
    return this.guard(this.accessTokens.updateAccessToken(customerId, tokenId, patch, at));
  }
  revokeAccessToken(customerId: string, tokenId: string, at: Date): Promise<AccessToken | null> {
    return this.guard(this.accessTokens.revokeAccessToken(customerId, tokenId, at));
  }
  touchAccessToken(tokenId: string, at: Date): Promise<void> {
    return this.guard(this.accessTokens.touchAccessToken(tokenId, at));
  }
  getAccessTokenUsage(tokenId: string, periodStart: Date): Promise<AccessTokenUsage> {
    return this.guard(this.accessTokens.getAccessTokenUsage(tokenId, periodStart));
  }
  countAccessTokenUse(use: TokenUse): Promise<TokenUseOutcome> {
    return this.guard(this.accessTokens.countAccessTokenUse(use));
  }
  uncountAccessTokenUse(tokenId: string, periodStart: Date, bytes: number): Promise<void> {
    return this.guard(this.accessTokens.uncountAccessTokenUse(tokenId, periodStart, bytes));
  }
  createApiKey(key: ApiKey): Promise<ApiKey> {
    return this.guard(this.accounts.createApiKey(key));
  }
  listApiKeys(customerId: string): Promise<ApiKey[]> {
    return this.guard(this.accounts.listApiKeys(customerId));
  }
  findApiKeyByHash(keyHash: string): Promise<ApiKey | null> {
    return this.guard(this.accounts.findApiKeyByHash(keyHash));
  }
  revokeApiKey(customerId: string, keyId: string, at: Date): Promise<ApiKey | null> {
    return this.guard(this.accounts.revokeApiKey(customerId, keyId, at));
  }
  touchApiKey(keyId: string, at: Date): Promise<void> {
    return this.guard(this.accounts.touchApiKey(keyId, at));
  }

  // Admin keys
  createAdminKey(key: AdminKey): Promise<AdminKey> {
    return this.guard(this.accounts.createAdminKey(key));
  }
  listAdminKeys(): Promise<AdminKey[]> {
    return this.guard(this.accounts.listAdminKeys());
  }
  findAdminKeyByHash(keyHash: string): Promise<AdminKey | null> {
    return this.guard(this.accounts.findAdminKeyByHash(keyHash));
  }
  revokeAdminKey(keyId: string, at: Date): Promise<AdminKey | null> {
    return this.guard(this.accounts.revokeAdminKey(keyId, at));
  }
  touchAdminKey(keyId: string, at: Date): Promise<void> {
    return this.guard(this.accounts.touchAdminKey(keyId, at));
  }

  // Audit log
  insertAuditEntry(entry: AuditEntry): Promise<AuditEntry> {
    return this.guard(this.audit.insertAuditEntry(entry));
  }
  settleAuditEntry(entryId: string, settlement: AuditSettlement): Promise<void> {
    return this.guard(this.audit.settleAuditEntry(entryId, settlement));
  }
  listAuditEntries(query: AuditQuery): Promise<AuditEntry[]> {
    return this.guard(this.audit.listAuditEntries(query));
  }

  // Large-upload sessions
  createUploadSession(session: NewUploadSession): Promise<UploadSession> {
    return this.guard(this.uploadsAndLinks.createUploadSession(session));
  }
  getUploadSession(uploadId: string): Promise<UploadSession | null> {
    return this.guard(this.uploadsAndLinks.getUploadSession(uploadId));
  }
  updateUploadSession(uploadId: string, from: UploadStatus[], patch: UploadSessionPatch, at: Date): Promise<UploadSession | null> {
    return this.guard(this.uploadsAndLinks.updateUploadSession(uploadId, from, patch, at));
  }
  listExpiredUploadSessions(now: Date, limit: number): Promise<UploadSession[]> {
    return this.guard(this.uploadsAndLinks.listExpiredUploadSessions(now, limit));
  }

  // Share links
  createShareLink(link: ShareLink): Promise<ShareLink> {
    return this.guard(this.uploadsAndLinks.createShareLink(link));
  }
  listShareLinks(customerId: string, limit: number): Promise<ShareLink[]> {
    return this.guard(this.uploadsAndLinks.listShareLinks(customerId, limit));
  }
  getShareLink(tokenHash: string): Promise<ShareLink | null> {
    return this.guard(this.uploadsAndLinks.getShareLink(tokenHash));
  }
  revokeShareLink(tokenHash: string, customerId: string, at: Date): Promise<ShareLink | null> {
    return this.guard(this.uploadsAndLinks.revokeShareLink(tokenHash, customerId, at));
  }
  markShareLinkExpired(tokenHash: string, at: Date): Promise<void> {
    return this.guard(this.uploadsAndLinks.markShareLinkExpired(tokenHash, at));
  }
  countShareLinkUse(tokenHash: string): Promise<ShareLink | null> {
    return this.guard(this.uploadsAndLinks.countShareLinkUse(tokenHash));
  }
  uncountShareLinkUse(tokenHash: string): Promise<void> {
    return this.guard(this.uploadsAndLinks.uncountShareLinkUse(tokenHash));
  }
  purgeShareLinks(before: Date, limit: number): Promise<number> {
    return this.guard(this.uploadsAndLinks.purgeShareLinks(before, limit));
  }

  // Events and statistics
  insertEvents(events: DistributionEvent[]): Promise<void> {
    return this.guard(this.activity.insertEvents(events));
  }
  getEvent(eventId: string): Promise<DistributionEvent | null> {
    return this.guard(this.activity.getEvent(eventId));
  }
  listEvents(query: ActivityQuery): Promise<DistributionEvent[]> {
    return this.guard(this.activity.listEvents(query));
  }
  rollupEvents(limit: number): Promise<number> {
    return this.guard(this.activity.rollupEvents(limit));
  }
  oldestUncountedEventAt(): Promise<Date | null> {
    return this.guard(this.activity.oldestUncountedEventAt());
  }
  listDailyCounts(applicationId: string, query: DailyCountQuery): Promise<DailyCount[]> {
    return this.guard(this.activity.listDailyCounts(applicationId, query));
  }
  listDownloadBreakdown(applicationId: string, query: DailyCountQuery, topCustomers: number): Promise<DownloadBreakdown> {
    return this.guard(this.activity.listDownloadBreakdown(applicationId, query, topCustomers));
  }

  // Update checks and adoption
  insertCheckEvents(events: CheckEvent[]): Promise<void> {
    return this.guard(this.adoption.insertCheckEvents(events));
  }
  claimCheckBatch(limit: number): Promise<CheckBatch | null> {
    return this.guard(this.adoption.claimCheckBatch(limit));
  }
  finishCheckBatch(batchId: string, counts: AdoptionCount[], seen: CustomerVersionSeen[]): Promise<boolean> {
    return this.guard(this.adoption.finishCheckBatch(batchId, counts, seen));
  }
  purgeCheckEvents(before: Date, limit: number): Promise<number> {
    return this.guard(this.adoption.purgeCheckEvents(before, limit));
  }
  listAdoptionCounts(applicationId: string, query: AdoptionCountQuery): Promise<AdoptionCount[]> {
    return this.guard(this.adoption.listAdoptionCounts(applicationId, query));
  }
  listCustomerAdoption(applicationId: string, page: number, pageSize: number): Promise<Page<CustomerAdoption>> {
    return this.guard(this.adoption.listCustomerAdoption(applicationId, page, pageSize));
  }

  // Webhooks
  createWebhookEndpoint(endpoint: WebhookEndpoint): Promise<WebhookEndpoint> {
    return this.guard(this.webhooks.createWebhookEndpoint(endpoint));
  }
  getWebhookEndpoint(webhookId: string): Promise<WebhookEndpoint | null> {
    return this.guard(this.webhooks.getWebhookEndpoint(webhookId));
  }
  listWebhookEndpoints(page: number, pageSize: number): Promise<Page<WebhookEndpoint>> {
    return this.guard(this.webhooks.listWebhookEndpoints(page, pageSize));
  }
  updateWebhookEndpoint(webhookId: string, patch: WebhookEndpointPatch, at: Date): Promise<WebhookEndpoint | null> {
    return this.guard(this.webhooks.updateWebhookEndpoint(webhookId, patch, at));
  }
  markWebhookEndpointFailing(webhookId: string, at: Date): Promise<WebhookEndpoint | null> {
    return this.guard(this.webhooks.markWebhookEndpointFailing(webhookId, at));
  }
  deleteWebhookEndpoint(webhookId: string): Promise<boolean> {
    return this.guard(this.webhooks.deleteWebhookEndpoint(webhookId));
  }
  listSubscribedWebhookEndpoints(eventType: string): Promise<WebhookEndpoint[]> {
    return this.guard(this.webhooks.listSubscribedWebhookEndpoints(eventType));
  }
  insertWebhookDelivery(delivery: WebhookDelivery): Promise<WebhookDelivery> {
    return this.guard(this.webhooks.insertWebhookDelivery(delivery));
  }
  getWebhookDelivery(deliveryId: string): Promise<WebhookDelivery | null> {
    return this.guard(this.webhooks.getWebhookDelivery(deliveryId));
  }
  listWebhookDeliveries(webhookId: string, page: number, pageSize: number): Promise<Page<WebhookDelivery>> {
    return this.guard(this.webhooks.listWebhookDeliveries(webhookId, page, pageSize));
  }
  recordWebhookAttempt(deliveryId: string, result: WebhookAttemptResult, at: Date): Promise<WebhookDelivery | null> {
    return this.guard(this.webhooks.recordWebhookAttempt(deliveryId, result, at));
  }
  setWebhookDeliveryStatus(
    deliveryId: string, from: WebhookDeliveryStatus[], to: WebhookDeliveryStatus, error: string | null, at: Date,
  ): Promise<WebhookDelivery | null> {
    return this.guard(this.webhooks.setWebhookDeliveryStatus(deliveryId, from, to, error, at));
  }
  purgeWebhookDeliveries(before: Date, limit: number): Promise<number> {
    return this.guard(this.webhooks.purgeWebhookDeliveries(before, limit));
  }
  addWebhookOutboxEntries(entries: WebhookOutboxEntry[]): Promise<void> {
    return this.guard(this.webhooks.addWebhookOutboxEntries(entries));
  }
  confirmWebhookOutboxEntries(confirmed: { eventId: string; data: unknown }[]): Promise<void> {
    return this.guard(this.webhooks.confirmWebhookOutboxEntries(confirmed));
  }
  listWebhookOutboxEntries(writtenBefore: Date, limit: number, after?: WebhookOutboxPosition): Promise<WebhookOutboxEntry[]> {
    return this.guard(this.webhooks.listWebhookOutboxEntries(writtenBefore, limit, after));
  }
  deleteWebhookOutboxEntries(eventIds: string[]): Promise<number> {
    return this.guard(this.webhooks.deleteWebhookOutboxEntries(eventIds));
  }


  async ping(): Promise<void> {
    const db = this.connection.db;
    if (!db) throw new DependencyUnavailableError('database');
    await this.guard(db.command({ ping: 1 }));
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  /** Settles as `operation` does, except that MongoDB failing to serve rejects with DependencyUnavailableError. */
  private guard<T>(operation: Promise<T>): Promise<T> {
    return operation.catch((error: unknown) => {
      throw translateUnavailable(error);
    });
  }
}
