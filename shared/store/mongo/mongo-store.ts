import type { Connection } from 'mongoose';
import type {
  ApiKey,
  Application,
  Customer,
  DailyCount,
  DistributionEvent,
  FileRecord,
  FileStatus,
  ShareLink,
  UploadSession,
  UploadStatus,
  Version,
  VersionWithFiles,
} from '../models';
import type {
  ActivityQuery,
  ApplicationPatch,
  ApplicationQuery,
  CustomerPatch,
  DailyCountQuery,
  Page,
  Store,
  UploadSessionPatch,
  VersionPatch,
} from '../store';
import { MongoUploadsAndLinks } from './uploads-and-links';
import { MongoAccounts } from './accounts';
import { MongoActivity } from './activity';
import { MongoApplications } from './applications';
import { openConnection } from './connection';
import { bindModels } from './models';
import { MongoVersionsAndFiles } from './versions-and-files';

/**
 * Production store on MongoDB (standalone or replica set; no transactions). Each concern lives in its
 * own module; this class only opens the connection and routes the Store methods to them.
 */
export class MongoStore implements Store {
  readonly kind = 'mongodb' as const;
  private readonly applications: MongoApplications;
  private readonly versionsAndFiles: MongoVersionsAndFiles;
  private readonly accounts: MongoAccounts;
  private readonly uploadsAndLinks: MongoUploadsAndLinks;
  private readonly activity: MongoActivity;

  private constructor(private readonly connection: Connection) {
    const models = bindModels(connection);
    this.applications = new MongoApplications(models);
    this.versionsAndFiles = new MongoVersionsAndFiles(models);
    this.accounts = new MongoAccounts(models);
    this.uploadsAndLinks = new MongoUploadsAndLinks(models);
    this.activity = new MongoActivity(models);
  }

  /**
   * Connects and creates the indexes the schemas declare that are missing. It drops none: an older
   * release running beside this one during a rolling deploy keeps the indexes it relies on. Obsolete
   * indexes are dropped by the migration step (index-migration.ts, `npm run migrate`).
   */
  static async connect(uri: string): Promise<MongoStore> {
    const connection = await openConnection(uri);
    try {
      const store = new MongoStore(connection);
      for (const model of Object.values(connection.models)) await model.createIndexes();
      return store;
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  // Applications
  createApplication(app: Application): Promise<Application> {
    return this.applications.createApplication(app);
  }
  getApplication(applicationId: string, options?: { includeDeleted?: boolean }): Promise<Application | null> {
    return this.applications.getApplication(applicationId, options);
  }
  listApplications(query: ApplicationQuery): Promise<Page<Application>> {
    return this.applications.listApplications(query);
  }
  updateApplication(applicationId: string, patch: ApplicationPatch, at: Date): Promise<Application | null> {
    return this.applications.updateApplication(applicationId, patch, at);
  }
  softDeleteApplication(applicationId: string, at: Date): Promise<Application | null> {
    return this.applications.softDeleteApplication(applicationId, at);
  }
  restoreApplication(applicationId: string, at: Date): Promise<Application | null> {
    return this.applications.restoreApplication(applicationId, at);
  }

  // Versions and files
  upsertVersion(applicationId: string, version: string, patch: VersionPatch, at: Date): Promise<Version> {
    return this.versionsAndFiles.upsertVersion(applicationId, version, patch, at);
  }
  getVersion(applicationId: string, version: string): Promise<Version | null> {
    return this.versionsAndFiles.getVersion(applicationId, version);
  }
  updateVersion(applicationId: string, version: string, patch: VersionPatch, at: Date): Promise<Version | null> {
    return this.versionsAndFiles.updateVersion(applicationId, version, patch, at);
  }
  listVersions(applicationId: string): Promise<VersionWithFiles[]> {
    return this.versionsAndFiles.listVersions(applicationId);
  }
  insertFile(file: FileRecord): Promise<FileRecord> {
    return this.versionsAndFiles.insertFile(file);
  }
  getFile(fileId: string): Promise<FileRecord | null> {
    return this.versionsAndFiles.getFile(fileId);
  }
  findAvailableFile(applicationId: string, version: string, fileId?: string): Promise<FileRecord | null> {
    return this.versionsAndFiles.findAvailableFile(applicationId, version, fileId);
  }
  setFileStatus(fileId: string, from: FileStatus, to: FileStatus, checksum: string | null, at: Date): Promise<FileRecord | null> {
    return this.versionsAndFiles.setFileStatus(fileId, from, to, checksum, at);
  }

  // Customers and keys
  createCustomer(customer: Customer): Promise<Customer> {
    return this.accounts.createCustomer(customer);
  }
  getCustomer(customerId: string): Promise<Customer | null> {
    return this.accounts.getCustomer(customerId);
  }
  listCustomers(page: number, pageSize: number): Promise<Page<Customer>> {
    return this.accounts.listCustomers(page, pageSize);
  }
  updateCustomer(customerId: string, patch: CustomerPatch, at: Date): Promise<Customer | null> {
    return this.accounts.updateCustomer(customerId, patch, at);
  }
  findMissingCustomers(customerIds: string[]): Promise<string[]> {
    return this.accounts.findMissingCustomers(customerIds);
  }
  createApiKey(key: ApiKey): Promise<ApiKey> {
    return this.accounts.createApiKey(key);
  }
  listApiKeys(customerId: string): Promise<ApiKey[]> {
    return this.accounts.listApiKeys(customerId);
  }
  findApiKeyByHash(keyHash: string): Promise<ApiKey | null> {
    return this.accounts.findApiKeyByHash(keyHash);
  }
  revokeApiKey(customerId: string, keyId: string, at: Date): Promise<ApiKey | null> {
    return this.accounts.revokeApiKey(customerId, keyId, at);
  }
  touchApiKey(keyId: string, at: Date): Promise<void> {
    return this.accounts.touchApiKey(keyId, at);
  }

  // Large-upload sessions
  createUploadSession(session: UploadSession): Promise<UploadSession> {
    return this.uploadsAndLinks.createUploadSession(session);
  }
  getUploadSession(uploadId: string): Promise<UploadSession | null> {
    return this.uploadsAndLinks.getUploadSession(uploadId);
  }
  updateUploadSession(uploadId: string, from: UploadStatus[], patch: UploadSessionPatch, at: Date): Promise<UploadSession | null> {
    return this.uploadsAndLinks.updateUploadSession(uploadId, from, patch, at);
  }
  listExpiredUploadSessions(now: Date, limit: number): Promise<UploadSession[]> {
    return this.uploadsAndLinks.listExpiredUploadSessions(now, limit);
  }

  // Share links
  createShareLink(link: ShareLink): Promise<ShareLink> {
    return this.uploadsAndLinks.createShareLink(link);
  }
  getShareLink(tokenHash: string): Promise<ShareLink | null> {
    return this.uploadsAndLinks.getShareLink(tokenHash);
  }
  revokeShareLink(tokenHash: string, customerId: string, at: Date): Promise<ShareLink | null> {
    return this.uploadsAndLinks.revokeShareLink(tokenHash, customerId, at);
  }
  markShareLinkExpired(tokenHash: string, at: Date): Promise<void> {
    return this.uploadsAndLinks.markShareLinkExpired(tokenHash, at);
  }
  purgeShareLinks(before: Date, limit: number): Promise<number> {
    return this.uploadsAndLinks.purgeShareLinks(before, limit);
  }

  // Events and statistics
  insertEvents(events: DistributionEvent[]): Promise<void> {
    return this.activity.insertEvents(events);
  }
  listEvents(query: ActivityQuery): Promise<DistributionEvent[]> {
    return this.activity.listEvents(query);
  }
  rollupEvents(limit: number): Promise<number> {
    return this.activity.rollupEvents(limit);
  }
  listDailyCounts(applicationId: string, query: DailyCountQuery): Promise<DailyCount[]> {
    return this.activity.listDailyCounts(applicationId, query);
  }

  async ping(): Promise<void> {
    const db = this.connection.db;
    if (!db) throw new Error('MongoDB connection is closed');
    await db.command({ ping: 1 });
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
