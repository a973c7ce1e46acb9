import { requirePage } from '../bounds';
import type { Application, ApplicationLogo, LicenceAcceptance, RepositoryKey, RepositoryKeyRing } from '../models';
import type { ApplicationPatch, ApplicationQuery, LogoReplacement, Page, ApplicationStore, ReleasePurgeStart } from '../store';
import type { Row, SqliteDatabase } from './database';
import { retiredAfterChange } from '../../releases/key-history';
import { applicationFromRow, licenceAcceptanceFromRow, logoColumns, repositoryKeyColumns, repositoryKeyRingFromRow, retiredKeysColumn, toMillis } from './rows';

export class SqliteApplications implements ApplicationStore {
  constructor(private readonly database: SqliteDatabase) {}

  async createApplication(app: Application): Promise<Application> {
    this.database.write(() =>
      this.database.prepare(
          `INSERT INTO applications (application_id, name, description, tags, customer_ids, update_signing_key, sparkle_public_key, default_version_status,
             licence_text, licence_revision, display_name, accent_colour, support_url, logo_content_type, logo_size, logo_sha256, logo_updated_at,
             retired_signing_keys, created_at, updated_at, deleted_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(app.applicationId, app.name, app.description, JSON.stringify(app.tags), JSON.stringify(app.customerIds), app.updateSigningKey,
          app.sparklePublicKey, app.defaultVersionStatus, app.licenceText, app.licenceRevision, app.displayName, app.accentColour, app.supportUrl,
          ...Object.values(logoColumns(app.logo)), retiredKeysColumn(app.retiredSigningKeys), toMillis(app.createdAt), toMillis(app.updatedAt), toMillis(app.deletedAt)),
    );
    return app;
  }

  async getApplication(applicationId: string, options: { includeDeleted?: boolean } = {}): Promise<Application | null> {
    const row = this.database.prepare('SELECT * FROM applications WHERE application_id = ?').get(applicationId) as Row | undefined;
    if (!row || (row.deleted_at !== null && !options.includeDeleted)) return null;
    return applicationFromRow(row);
  }

  async listApplications(query: ApplicationQuery): Promise<Page<Application>> {
    requirePage(query.page, query.pageSize);
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
    if (query.applicationIds !== undefined) {
      where.push(`application_id IN (${query.applicationIds.map(() => '?').join(', ')})`);
      params.push(...query.applicationIds);
    }
    if (query.search !== undefined) {
      // instr, not LIKE: the search text's % and _ are plain characters. lower() folds ASCII letters, as the MongoDB adapter's regex does.
      where.push('(instr(lower(name), lower(?)) > 0 OR instr(lower(application_id), lower(?)) > 0)');
      params.push(query.search, query.search);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.database.prepare(`SELECT COUNT(*) AS n FROM applications ${clause}`).get(...params) as { n: number }).n;
    const rows = this.database.prepare(`SELECT * FROM applications ${clause} ORDER BY created_at, application_id LIMIT ? OFFSET ?`)
      .all(...params, query.pageSize, (query.page - 1) * query.pageSize) as Row[];
    return { items: rows.map(applicationFromRow), total };
  }

  async updateApplication(applicationId: string, patch: ApplicationPatch, at: Date): Promise<Application | null> {
    const values: Record<string, unknown> = {
      name: patch.name,
      description: patch.description,
      tags: patch.tags && JSON.stringify(patch.tags),
      customer_ids: patch.customerIds && JSON.stringify(patch.customerIds),
      update_signing_key: patch.updateSigningKey,
      sparkle_public_key: patch.sparklePublicKey,
      default_version_status: patch.defaultVersionStatus,
      licence_text: patch.licenceText,
      display_name: patch.displayName,
      accent_colour: patch.accentColour,
      support_url: patch.supportUrl,
    };
    // One IMMEDIATE transaction: the revision is raised over the one stored when it is written, and a
    // key replaced is the one stored when it is written (kept as retired).
    const write = this.database.db.transaction((): boolean => {
      if (patch.updateSigningKey !== undefined || patch.sparklePublicKey !== undefined) {
        const before = this.database.prepare('SELECT * FROM applications WHERE application_id = ? AND deleted_at IS NULL').get(applicationId) as Row | undefined;
        const retired = before && retiredAfterChange(applicationFromRow(before), patch, at);
        if (retired) values.retired_signing_keys = retiredKeysColumn(retired);
      }
      const changed = this.database.update('applications', 'application_id = ? AND deleted_at IS NULL', [applicationId], values, at);
      if (changed && patch.licenceRevision != null) {
        this.database.prepare('UPDATE applications SET licence_revision = MAX(COALESCE(licence_revision, 0), ?) WHERE application_id = ?').run(patch.licenceRevision, applicationId);
      }
      return changed;
    });
    return write.immediate() ? this.getApplication(applicationId) : null;
  }

  async replaceApplicationLogo(applicationId: string, logo: ApplicationLogo | null, at: Date): Promise<LogoReplacement | null> {
    // One IMMEDIATE transaction: the logo read as replaced is the one this write replaced.
    const replace = this.database.db.transaction((): LogoReplacement | null => {
      const before = this.database.prepare('SELECT * FROM applications WHERE application_id = ? AND deleted_at IS NULL').get(applicationId) as Row | undefined;
      if (!before) return null;
      this.database.update('applications', 'application_id = ?', [applicationId], logoColumns(logo), at);
      const after = this.database.prepare('SELECT * FROM applications WHERE application_id = ?').get(applicationId) as Row;
      return { application: applicationFromRow(after), previous: applicationFromRow(before).logo };
    });
    return replace.immediate();
  }

  async recordLicenceAcceptance(acceptance: LicenceAcceptance): Promise<LicenceAcceptance> {
    // OR IGNORE: a revision accepted before keeps its first acceptance, which is what is returned.
    this.database.write(() => this.database.prepare(
      `INSERT OR IGNORE INTO licence_acceptances (application_id, customer_id, revision, accepted_at, client_ip) VALUES (?, ?, ?, ?, ?)`,
    ).run(acceptance.applicationId, acceptance.customerId, acceptance.revision, acceptance.acceptedAt.getTime(), acceptance.clientIp));
    return (await this.getLicenceAcceptance(acceptance.applicationId, acceptance.customerId, acceptance.revision)) as LicenceAcceptance;
  }

  async getLicenceAcceptance(applicationId: string, customerId: string, revision: number): Promise<LicenceAcceptance | null> {
    const row = this.database.prepare('SELECT * FROM licence_acceptances WHERE application_id = ? AND customer_id = ? AND revision = ?')
      .get(applicationId, customerId, revision) as Row | undefined;
    return row ? licenceAcceptanceFromRow(row) : null;
  }

  async getRepositoryKeys(applicationId: string): Promise<RepositoryKeyRing | null> {
    const row = this.database.prepare('SELECT * FROM repository_keys WHERE application_id = ?').get(applicationId) as Row | undefined;
    return row ? repositoryKeyRingFromRow(row) : null;
  }

  async replaceRepositoryKeys(applicationId: string, expectedRevision: number, keys: readonly RepositoryKey[]): Promise<RepositoryKeyRing | null> {
    const stored = JSON.stringify(keys.map(repositoryKeyColumns));
    const result = this.database.write(() => expectedRevision === 0
      ? this.database.prepare('INSERT OR IGNORE INTO repository_keys (application_id, revision, keys) VALUES (?, 1, ?)').run(applicationId, stored)
      : this.database.prepare('UPDATE repository_keys SET revision = revision + 1, keys = ? WHERE application_id = ? AND revision = ?')
        .run(stored, applicationId, expectedRevision));
    return result.changes ? { applicationId, revision: expectedRevision + 1, keys: keys.map((key) => ({ ...key })) } : null;
  }

  async grantApplicationAccess(applicationId: string, customerId: string, at: Date): Promise<Application | null> {
    // One statement: the list is read and written under the same write lock, so no other change is lost.
    this.database.write(() => this.database.prepare(
      `UPDATE applications SET customer_ids = json_insert(customer_ids, '$[#]', ?), updated_at = ?
       WHERE application_id = ? AND deleted_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM json_each(applications.customer_ids) WHERE value = ?)`,
    ).run(customerId, at.getTime(), applicationId, customerId));
    return this.getApplication(applicationId);
  }

  async revokeApplicationAccess(applicationId: string, customerId: string, at: Date): Promise<Application | null> {
    this.database.write(() => this.database.prepare(
      `UPDATE applications SET updated_at = ?, customer_ids = (
         SELECT json_group_array(value) FROM (SELECT value FROM json_each(applications.customer_ids) WHERE value != ? ORDER BY key))
       WHERE application_id = ? AND deleted_at IS NULL
         AND EXISTS (SELECT 1 FROM json_each(applications.customer_ids) WHERE value = ?)`,
    ).run(at.getTime(), customerId, applicationId, customerId));
    return this.getApplication(applicationId);
  }

  async softDeleteApplication(applicationId: string, at: Date): Promise<Application | null> {
    const result = this.database.prepare('UPDATE applications SET deleted_at = ?, updated_at = ? WHERE application_id = ? AND deleted_at IS NULL')
      .run(at.getTime(), at.getTime(), applicationId);
    return result.changes ? this.getApplication(applicationId, { includeDeleted: true }) : null;
  }

  async restoreApplication(applicationId: string, at: Date): Promise<Application | null> {
    const result = this.database.prepare('UPDATE applications SET deleted_at = NULL, updated_at = ? WHERE application_id = ? AND deleted_at IS NOT NULL AND release_purge_started_at IS NULL')
      .run(at.getTime(), applicationId);
    return result.changes ? this.getApplication(applicationId) : null;
  }

  async startReleasePurge(applicationId: string, deletedBefore: Date, at: Date): Promise<ReleasePurgeStart> {
    // The check and the mark in one statement: a restore between them is impossible.
    this.database.write(() => this.database.prepare(
      `UPDATE applications SET release_purge_started_at = ?
       WHERE application_id = ? AND deleted_at IS NOT NULL AND deleted_at <= ? AND release_purge_started_at IS NULL`,
    ).run(at.getTime(), applicationId, deletedBefore.getTime()));
    const row = this.database.prepare('SELECT * FROM applications WHERE application_id = ?').get(applicationId) as Row | undefined;
    if (!row) return { outcome: 'not-found' };
    const application = applicationFromRow(row);
    if (row.release_purge_started_at !== null) return { outcome: 'started', application, startedAt: new Date(row.release_purge_started_at as number) };
    return { outcome: application.deletedAt === null ? 'not-deleted' : 'too-recent', application };
  }

  async releasePurgeStartedAt(applicationId: string): Promise<Date | null> {
    const row = this.database.prepare('SELECT release_purge_started_at FROM applications WHERE application_id = ?').get(applicationId) as Row | undefined;
    return typeof row?.release_purge_started_at === 'number' ? new Date(row.release_purge_started_at) : null;
  }

}
