import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DuplicateError } from '../../errors';
import type { ApiKey, Application, Customer, DailyCount, DistributionEvent, FileRecord, FileStatus, ShareLink, UploadSession, UploadStatus, Version, VersionWithFiles } from '../models';
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
import {
  apiKeyFromRow,
  applicationFromRow,
  customerFromRow,
  eventFromRow,
  fileFromRow,
  shareLinkFromRow,
  toMillis,
  uploadSessionFromRow,
  versionFromRow,
} from './rows';
import { SCHEMA } from './schema';
import { BackgroundWriter } from './background-writer';
import { applyConnectionSettings } from './connection';

type Row = Record<string, unknown>;

/**
 * Embedded store on SQLite (better-sqlite3). WAL lets a web and a worker process share the file;
 * busy_timeout makes a writer wait for the other instead of failing.
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  /** Prepared once per SQL text: preparing costs more than running most of these queries. */
  private readonly statements = new Map<string, Database.Statement>();
  /** Event writes, folds and checkpoints, off the event loop. */
  private readonly background: BackgroundWriter;

  constructor(file: string) {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    applyConnectionSettings(this.db);
    this.db.pragma('foreign_keys = OFF');
    this.db.exec(SCHEMA);
    this.background = new BackgroundWriter(this.db, file);
  }

  // Applications

  async createApplication(app: Application): Promise<Application> {
    this.write(() =>
      this.prepare(
          `INSERT INTO applications (application_id, name, description, tags, customer_ids, created_at, updated_at, deleted_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(app.applicationId, app.name, app.description, JSON.stringify(app.tags), JSON.stringify(app.customerIds),
          toMillis(app.createdAt), toMillis(app.updatedAt), toMillis(app.deletedAt)),
    );
    return app;
  }

  async getApplication(applicationId: string, options: { includeDeleted?: boolean } = {}): Promise<Application | null> {
    const row = this.prepare('SELECT * FROM applications WHERE application_id = ?').get(applicationId) as Row | undefined;
    if (!row || (row.deleted_at !== null && !options.includeDeleted)) return null;
    return applicationFromRow(row);
  }

  async listApplications(query: ApplicationQuery): Promise<Page<Application>> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (!query.includeDeleted) where.push('deleted_at IS NULL');
    if (query.tag !== undefined) {
      where.push('EXISTS (SELECT 1 FROM json_each(applications.tags) WHERE value = ?)');
      params.push(query.tag);
    }
    if (query.customerId !== undefined) {
      where.push('EXISTS (SELECT 1 FROM json_each(applications.customer_ids) WHERE value = ?)');
      params.push(query.customerId);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.prepare(`SELECT COUNT(*) AS n FROM applications ${clause}`).get(...params) as { n: number }).n;
    const rows = this.prepare(`SELECT * FROM applications ${clause} ORDER BY created_at, application_id LIMIT ? OFFSET ?`)
      .all(...params, query.pageSize, (query.page - 1) * query.pageSize) as Row[];
    return { items: rows.map(applicationFromRow), total };
  }

  async updateApplication(applicationId: string, patch: ApplicationPatch, at: Date): Promise<Application | null> {
    const values: Record<string, unknown> = {
      name: patch.name,
      description: patch.description,
      tags: patch.tags && JSON.stringify(patch.tags),
      customer_ids: patch.customerIds && JSON.stringify(patch.customerIds),
    };
    const changed = this.update('applications', 'application_id = ? AND deleted_at IS NULL', [applicationId], values, at);
    return changed ? this.getApplication(applicationId) : null;
  }

  async softDeleteApplication(applicationId: string, at: Date): Promise<Application | null> {
    const result = this.prepare('UPDATE applications SET deleted_at = ?, updated_at = ? WHERE application_id = ? AND deleted_at IS NULL')
      .run(at.getTime(), at.getTime(), applicationId);
    return result.changes ? this.getApplication(applicationId, { includeDeleted: true }) : null;
  }

  async restoreApplication(applicationId: string, at: Date): Promise<Application | null> {
    const result = this.prepare('UPDATE applications SET deleted_at = NULL, updated_at = ? WHERE application_id = ? AND deleted_at IS NOT NULL')
      .run(at.getTime(), applicationId);
    return result.changes ? this.getApplication(applicationId) : null;
  }

  // Versions and files

  async upsertVersion(applicationId: string, version: string, patch: VersionPatch, at: Date): Promise<Version> {
    const upsert = this.db.transaction(() => {
      this.prepare(
          `INSERT INTO versions (application_id, version, release_notes, required_tier, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (application_id, version) DO NOTHING`,
        )
        .run(applicationId, version, patch.releaseNotes ?? null, patch.requiredTier ?? null, at.getTime(), at.getTime());
      this.update('versions', 'application_id = ? AND version = ?', [applicationId, version], versionColumns(patch), at);
    });
    upsert.immediate();
    return (await this.getVersion(applicationId, version)) as Version;
  }

  async getVersion(applicationId: string, version: string): Promise<Version | null> {
    const row = this.prepare('SELECT * FROM versions WHERE application_id = ? AND version = ?').get(applicationId, version) as Row | undefined;
    return row ? versionFromRow(row) : null;
  }

  async updateVersion(applicationId: string, version: string, patch: VersionPatch, at: Date): Promise<Version | null> {
    const found = this.update('versions', 'application_id = ? AND version = ?', [applicationId, version], versionColumns(patch), at);
    return found ? this.getVersion(applicationId, version) : null;
  }

  async listVersions(applicationId: string): Promise<VersionWithFiles[]> {
    const versions = (this.prepare('SELECT * FROM versions WHERE application_id = ? ORDER BY created_at DESC, version DESC')
      .all(applicationId) as Row[]).map(versionFromRow);
    const files = (this.prepare('SELECT * FROM files WHERE application_id = ? ORDER BY created_at, file_id')
      .all(applicationId) as Row[]).map(fileFromRow);
    return versions.map((v) => ({ ...v, files: files.filter((f) => f.version === v.version) }));
  }

  async insertFile(file: FileRecord): Promise<FileRecord> {
    this.write(() =>
      this.prepare(
          `INSERT INTO files (file_id, application_id, version, file_name, file_size, content_type, checksum, file_type,
             status, live, storage_key, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(file.fileId, file.applicationId, file.version, file.fileName, file.fileSize, file.contentType, file.checksum,
          file.fileType, file.status, file.status === 'failed' ? 0 : 1, file.storageKey, toMillis(file.createdAt), toMillis(file.updatedAt)),
    );
    return file;
  }

  async getFile(fileId: string): Promise<FileRecord | null> {
    const row = this.prepare('SELECT * FROM files WHERE file_id = ?').get(fileId) as Row | undefined;
    return row ? fileFromRow(row) : null;
  }

  async findAvailableFile(applicationId: string, version: string, fileId?: string): Promise<FileRecord | null> {
    const row = (fileId === undefined
      ? this.prepare(`SELECT * FROM files WHERE application_id = ? AND version = ? AND live = 1 AND file_type = 'MAIN' AND status = 'available'`)
        .get(applicationId, version)
      : this.prepare(`SELECT * FROM files WHERE file_id = ? AND application_id = ? AND version = ? AND status = 'available'`)
        .get(fileId, applicationId, version)) as Row | undefined;
    return row ? fileFromRow(row) : null;
  }

  async setFileStatus(fileId: string, from: FileStatus, to: FileStatus, checksum: string | null, at: Date): Promise<FileRecord | null> {
    const result = this.write(() =>
      this.prepare('UPDATE files SET status = ?, live = ?, checksum = COALESCE(?, checksum), updated_at = ? WHERE file_id = ? AND status = ?')
        .run(to, to === 'failed' ? 0 : 1, checksum, at.getTime(), fileId, from));
    return result.changes ? this.getFile(fileId) : null;
  }

  // Customers and keys

  async createCustomer(customer: Customer): Promise<Customer> {
    this.write(() =>
      this.prepare('INSERT INTO customers (customer_id, name, tier, is_active, notes, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(customer.customerId, customer.name, customer.tier, customer.isActive ? 1 : 0, customer.notes,
          toMillis(customer.createdAt), toMillis(customer.updatedAt)),
    );
    return customer;
  }

  async getCustomer(customerId: string): Promise<Customer | null> {
    const row = this.prepare('SELECT * FROM customers WHERE customer_id = ?').get(customerId) as Row | undefined;
    return row ? customerFromRow(row) : null;
  }

  async listCustomers(page: number, pageSize: number): Promise<Page<Customer>> {
    const total = (this.prepare('SELECT COUNT(*) AS n FROM customers').get() as { n: number }).n;
    const rows = this.prepare('SELECT * FROM customers ORDER BY created_at, customer_id LIMIT ? OFFSET ?')
      .all(pageSize, (page - 1) * pageSize) as Row[];
    return { items: rows.map(customerFromRow), total };
  }

  async updateCustomer(customerId: string, patch: CustomerPatch, at: Date): Promise<Customer | null> {
    const values = {
      name: patch.name,
      tier: patch.tier,
      is_active: patch.isActive === undefined ? undefined : patch.isActive ? 1 : 0,
      notes: patch.notes,
    };
    return this.update('customers', 'customer_id = ?', [customerId], values, at) ? this.getCustomer(customerId) : null;
  }

  async findMissingCustomers(customerIds: string[]): Promise<string[]> {
    const lookup = this.prepare('SELECT 1 FROM customers WHERE customer_id = ?');
    return [...new Set(customerIds)].filter((id) => lookup.get(id) === undefined);
  }

  async createApiKey(key: ApiKey): Promise<ApiKey> {
    this.write(() =>
      this.prepare('INSERT INTO api_keys (key_id, customer_id, key_hash, prefix, created_at, last_used_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(key.keyId, key.customerId, key.keyHash, key.prefix, toMillis(key.createdAt), toMillis(key.lastUsedAt), toMillis(key.revokedAt)),
    );
    return key;
  }

  async listApiKeys(customerId: string): Promise<ApiKey[]> {
    return (this.prepare('SELECT * FROM api_keys WHERE customer_id = ? AND revoked_at IS NULL ORDER BY created_at, key_id')
      .all(customerId) as Row[]).map(apiKeyFromRow);
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKey | null> {
    const row = this.prepare('SELECT * FROM api_keys WHERE key_hash = ?').get(keyHash) as Row | undefined;
    return row ? apiKeyFromRow(row) : null;
  }

  async revokeApiKey(customerId: string, keyId: string, at: Date): Promise<ApiKey | null> {
    const result = this.prepare('UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND customer_id = ? AND revoked_at IS NULL')
      .run(at.getTime(), keyId, customerId);
    if (!result.changes) return null;
    return apiKeyFromRow(this.prepare('SELECT * FROM api_keys WHERE key_id = ?').get(keyId) as Row);
  }

  async touchApiKey(keyId: string, at: Date): Promise<void> {
    this.prepare('UPDATE api_keys SET last_used_at = ? WHERE key_id = ?').run(at.getTime(), keyId);
  }

  // Large-upload sessions

  async createUploadSession(s: UploadSession): Promise<UploadSession> {
    this.write(() =>
      this.prepare(
          `INSERT INTO upload_sessions (upload_id, application_id, version, file_name, file_size, content_type, file_type,
             release_notes, required_tier, file_id, storage_key, status, expected_checksum, failure_reason, expires_at,
             created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(s.uploadId, s.applicationId, s.version, s.fileName, s.fileSize, s.contentType, s.fileType, s.releaseNotes,
          s.requiredTier, s.fileId, s.storageKey, s.status, s.expectedChecksum, s.failureReason, toMillis(s.expiresAt),
          toMillis(s.createdAt), toMillis(s.updatedAt)),
    );
    return s;
  }

  async getUploadSession(uploadId: string): Promise<UploadSession | null> {
    const row = this.prepare('SELECT * FROM upload_sessions WHERE upload_id = ?').get(uploadId) as Row | undefined;
    return row ? uploadSessionFromRow(row) : null;
  }

  async updateUploadSession(uploadId: string, from: UploadStatus[], patch: UploadSessionPatch, at: Date): Promise<UploadSession | null> {
    const values = {
      status: patch.status,
      expected_checksum: patch.expectedChecksum,
      failure_reason: patch.failureReason,
      release_notes: patch.releaseNotes,
    };
    const condition = `upload_id = ? AND status IN (${from.map(() => '?').join(', ')})`;
    return this.update('upload_sessions', condition, [uploadId, ...from], values, at) ? this.getUploadSession(uploadId) : null;
  }

  async listExpiredUploadSessions(now: Date, limit: number): Promise<UploadSession[]> {
    return (this.prepare(`SELECT * FROM upload_sessions WHERE status = 'issued' AND expires_at <= ? ORDER BY expires_at LIMIT ?`)
      .all(now.getTime(), limit) as Row[]).map(uploadSessionFromRow);
  }

  // Share links

  async createShareLink(link: ShareLink): Promise<ShareLink> {
    this.write(() =>
      this.prepare(
          `INSERT INTO share_links (token_hash, customer_id, application_id, version, file_id, expires_at, revoked_at, expired_at, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(link.tokenHash, link.customerId, link.applicationId, link.version, link.fileId, toMillis(link.expiresAt),
          toMillis(link.revokedAt), toMillis(link.expiredAt), toMillis(link.createdAt)),
    );
    return link;
  }

  async getShareLink(tokenHash: string): Promise<ShareLink | null> {
    const row = this.prepare('SELECT * FROM share_links WHERE token_hash = ?').get(tokenHash) as Row | undefined;
    return row ? shareLinkFromRow(row) : null;
  }

  async revokeShareLink(tokenHash: string, customerId: string, at: Date): Promise<ShareLink | null> {
    const result = this.prepare('UPDATE share_links SET revoked_at = ? WHERE token_hash = ? AND customer_id = ? AND revoked_at IS NULL')
      .run(at.getTime(), tokenHash, customerId);
    return result.changes ? this.getShareLink(tokenHash) : null;
  }

  async markShareLinkExpired(tokenHash: string, at: Date): Promise<void> {
    this.prepare('UPDATE share_links SET expired_at = ? WHERE token_hash = ? AND expired_at IS NULL AND expires_at <= ?')
      .run(at.getTime(), tokenHash, at.getTime());
  }

  async purgeShareLinks(before: Date, limit: number): Promise<number> {
    return this.prepare('DELETE FROM share_links WHERE token_hash IN (SELECT token_hash FROM share_links WHERE expires_at < ? LIMIT ?)')
      .run(before.getTime(), limit).changes;
  }

  // Events and statistics

  async insertEvents(events: DistributionEvent[]): Promise<void> {
    return this.background.insertEvents(events);
  }

  async listEvents(query: ActivityQuery): Promise<DistributionEvent[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.type !== undefined) {
      where.push('type = ?');
      params.push(query.type);
    }
    if (query.applicationId !== undefined) {
      where.push('application_id = ?');
      params.push(query.applicationId);
    }
    if (query.after !== undefined) {
      // The row-value form lets SQLite seek the feed index to the position instead of scanning to it.
      where.push('(ts, event_id) < (?, ?)');
      params.push(query.after.timestamp.getTime(), query.after.eventId);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const rows = this.prepare(`SELECT * FROM events ${clause} ORDER BY ts DESC, event_id DESC LIMIT ?`)
      .all(...params, query.limit) as Row[];
    return rows.map(eventFromRow);
  }

  async rollupEvents(limit: number): Promise<number> {
    return this.background.rollupEvents(limit);
  }

  async listDailyCounts(applicationId: string, query: DailyCountQuery): Promise<DailyCount[]> {
    const where = ['application_id = ?'];
    const params: unknown[] = [applicationId];
    if (query.version !== undefined) {
      where.push('version = ?');
      params.push(query.version);
    }
    if (query.from !== undefined) {
      where.push('date >= ?');
      params.push(query.from);
    }
    if (query.to !== undefined) {
      where.push('date <= ?');
      params.push(query.to);
    }
    const rows = this.prepare(`SELECT application_id, version, date, count FROM daily_counts WHERE ${where.join(' AND ')} ORDER BY date DESC, version`)
      .all(...params) as Row[];
    return rows.map((r) => ({
      applicationId: r.application_id as string,
      version: r.version as string,
      date: r.date as string,
      count: r.count as number,
    }));
  }

  async ping(): Promise<void> {
    this.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    await this.background.stop();
    if (this.db.open) this.db.close();
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs an UPDATE of the defined values plus updated_at; true when a row matched. */
  private update(table: string, condition: string, conditionParams: unknown[], values: Record<string, unknown>, at: Date): boolean {
    const columns = Object.entries(values).filter(([, v]) => v !== undefined);
    const assignments = [...columns.map(([c]) => `${c} = ?`), 'updated_at = ?'];
    return this.write(() =>
      this.prepare(`UPDATE ${table} SET ${assignments.join(', ')} WHERE ${condition}`)
        .run(...columns.map(([, v]) => v), at.getTime(), ...conditionParams),
    ).changes > 0;
  }

  /** Runs a write, translating unique-constraint failures into DuplicateError. */
  private write<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      const target = duplicateTarget(error);
      if (target) throw new DuplicateError(target);
      throw error;
    }
  }
}

function versionColumns(patch: VersionPatch): Record<string, unknown> {
  return { release_notes: patch.releaseNotes, required_tier: patch.requiredTier };
}

const DUPLICATE_TARGETS: [string, string][] = [
  ['applications.application_id', 'applicationId'],
  ['customers.customer_id', 'customerId'],
  ['files.application_id, files.version, files.file_name', 'fileName'],
  ['files.application_id, files.version', 'mainFile'],
  ['files.file_id', 'fileId'],
  ['api_keys.key_hash', 'keyHash'],
  ['api_keys.key_id', 'keyId'],
  ['upload_sessions.upload_id', 'uploadId'],
  ['share_links.token_hash', 'tokenHash'],
];

function duplicateTarget(error: unknown): string | null {
  if (!(error instanceof Error) || !('code' in error)) return null;
  const code = (error as { code: string }).code;
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return null;
  const columns = error.message.replace(/^UNIQUE constraint failed: /, '');
  return DUPLICATE_TARGETS.find(([cols]) => cols === columns)?.[1] ?? 'record';
}
