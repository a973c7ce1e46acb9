import mongoose, { type Connection } from 'mongoose';
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
import { MongoAccess } from './access';
import { MongoAccounts } from './accounts';
import { MongoActivity } from './activity';
import { MongoApplications } from './applications';
import { bindModels } from './models';
import { MongoVersionsAndFiles } from './versions-and-files';

/**
 * Production store on MongoDB (standalone or replica set; no transactions). Each concern lives in its
 * own module; this class only opens the connection and routes the Store methods to them.
 */
export class MongoStore implements Store {
  readonly kind = 'mongodb' as const;
  private readonly applications: MongoApplications;
  private readonly catalog: MongoVersionsAndFiles;
  private readonly accounts: MongoAccounts;
  private readonly access: MongoAccess;
  private readonly activity: MongoActivity;

  private constructor(private readonly connection: Connection) {
    const models = bindModels(connection);
    this.applications = new MongoApplications(models);
    this.catalog = new MongoVersionsAndFiles(models);
    this.accounts = new MongoAccounts(models);
    this.access = new MongoAccess(models);
    this.activity = new MongoActivity(models);
  }

  /** Connects on a dedicated connection and brings the collections' indexes in line with the schemas. */
  static async connect(uri: string): Promise<MongoStore> {
    const connection = mongoose.createConnection(uri, { autoIndex: false });
    try {
      await connection.asPromise();
      const store = new MongoStore(connection);
      for (const model of Object.values(connection.models)) await model.syncIndexes();
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
    return this.catalog.upsertVersion(applicationId, version, patch, at);
  }
  getVersion(applicationId: string, version: string): Promise<Version | null> {
    return this.catalog.getVersion(applicationId, version);
  }
  updateVersion(applicationId: string, version: string, patch: VersionPatch, at: Date): Promise<Version | null> {
    return this.catalog.updateVersion(applicationId, version, patch, at);
  }
  listVersions(applicationId: string): Promise<VersionWithFiles[]> {
    return this.catalog.listVersions(applicationId);
  }
  insertFile(file: FileRecord): Promise<FileRecord> {
    return this.catalog.insertFile(file);
  }
  getFile(fileId: string): Promise<FileRecord | null> {
    return this.catalog.getFile(fileId);
  }
  findAvailableFile(applicationId: string, version: string, fileId?: string): Promise<FileRecord | null> {
    return this.catalog.findAvailableFile(applicationId, version, fileId);
  }
  setFileStatus(fileId: string, from: FileStatus, to: FileStatus, checksum: string | null, at: Date): Promise<FileRecord | null> {
    return this.catalog.setFileStatus(fileId, from, to, checksum, at);
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
    return this.access.createUploadSession(session);
  }
  getUploadSession(uploadId: string): Promise<UploadSession | null> {
    return this.access.getUploadSession(uploadId);
  }
  updateUploadSession(uploadId: string, from: UploadStatus[], patch: UploadSessionPatch, at: Date): Promise<UploadSession | null> {
    return this.access.updateUploadSession(uploadId, from, patch, at);
  }
  listExpiredUploadSessions(now: Date, limit: number): Promise<UploadSession[]> {
    return this.access.listExpiredUploadSessions(now, limit);
  }

  // Share links
  createShareLink(link: ShareLink): Promise<ShareLink> {
    return this.access.createShareLink(link);
  }
  getShareLink(tokenHash: string): Promise<ShareLink | null> {
    return this.access.getShareLink(tokenHash);
  }
  revokeShareLink(tokenHash: string, customerId: string, at: Date): Promise<ShareLink | null> {
    return this.access.revokeShareLink(tokenHash, customerId, at);
  }
  markShareLinkExpired(tokenHash: string, at: Date): Promise<void> {
    return this.access.markShareLinkExpired(tokenHash, at);
  }
  purgeShareLinks(before: Date, limit: number): Promise<number> {
    return this.access.purgeShareLinks(before, limit);
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
