import { publishedAtAfter, statusChange, type ReleaseStatus } from '../../releases/lifecycle';
import { uploadReleaseMismatch } from '../../releases/upload-release';
import { versionOrderKey } from '../../releases/version-order';
import { requireCount, requireRolloutPercentage } from '../bounds';
import type { FileRecord, FileStatus, SigningKeyKind, Version, VersionWithFiles } from '../models';
import type { StoreOptions } from '../options';
import { fileWithDefaults, newVersion } from '../record-defaults';
import type {
  PurgedReleases,
  FileDeletion, FileDigestUpdate, FilePublication, FilePublicationResult, VersionDeletion, VersionFilter, VersionPatch, VersionStore, VersionTransition,
  VersionUpsert,
} from '../store';
import { withFiles } from '../versions-with-files';
import type { Row, SqliteDatabase } from './database';
import { fileFromRow, toMillis, versionFromRow } from './rows';

/** The version order (version-order.ts), newest first: versions_order serves it. */
const NEWEST_FIRST = 'ORDER BY order_key DESC, created_at DESC, version DESC';

export class SqliteVersionsAndFiles implements VersionStore {
  constructor(private readonly database: SqliteDatabase, private readonly options: StoreOptions) {}

  async upsertVersion(applicationId: string, version: string, patch: VersionUpsert, at: Date): Promise<Version> {
    requireRolloutPercentage(patch.rolloutPercentage);
    return this.database.db.transaction(() => this.writeVersion(applicationId, version, patch, at)).immediate();
  }

  /** upsertVersion's writes, inside the caller's transaction. */
  private writeVersion(applicationId: string, version: string, patch: VersionUpsert, at: Date): Version {
    const created = newVersion(applicationId, version, patch, at, this.options);
    this.database.prepare(
      `INSERT INTO versions (application_id, version, release_notes, required_tier, channel, status, rollout_percentage,
         published_at, bundle_version, minimum_system_version, critical, order_key, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (application_id, version) DO NOTHING`,
    ).run(applicationId, version, created.releaseNotes, created.requiredTier, created.channel, created.status,
      created.rolloutPercentage, toMillis(created.publishedAt), created.bundleVersion, created.minimumSystemVersion, created.critical ? 1 : 0,
      versionOrderKey(version), at.getTime(), at.getTime());
    this.database.update('versions', 'application_id = ? AND version = ?', [applicationId, version], versionColumns(patch), at);
    return this.readVersion(applicationId, version) as Version;
  }

  async getVersion(applicationId: string, version: string): Promise<Version | null> {
    return this.readVersion(applicationId, version);
  }

  async updateVersion(applicationId: string, version: string, patch: VersionPatch, at: Date): Promise<Version | null> {
    requireRolloutPercentage(patch.rolloutPercentage);
    const found = this.database.update('versions', 'application_id = ? AND version = ?', [applicationId, version], versionColumns(patch), at);
    return found ? this.getVersion(applicationId, version) : null;
  }

  async transitionVersion(applicationId: string, version: string, to: ReleaseStatus, at: Date, patch: VersionPatch = {}): Promise<VersionTransition> {
    requireRolloutPercentage(patch.rolloutPercentage);
    // The check and the write in one IMMEDIATE transaction: no other connection writes in between.
    const transition = this.database.db.transaction((): VersionTransition => {
      const current = this.readVersion(applicationId, version);
      if (!current) return { outcome: 'not-found' };
      const from = current.status;
      if (statusChange(from, to) === 'invalid') return { outcome: 'invalid-transition', from, to };
      const values = { ...versionColumns(patch), status: to, published_at: toMillis(publishedAtAfter(current.publishedAt, to, at)) };
      this.database.update('versions', 'application_id = ? AND version = ?', [applicationId, version], values, at);
      return { outcome: 'applied', from, version: this.readVersion(applicationId, version) as Version };
    });
    return transition.immediate();
  }

  private readVersion(applicationId: string, version: string): Version | null {
    const row = this.database.prepare('SELECT * FROM versions WHERE application_id = ? AND version = ?').get(applicationId, version) as Row | undefined;
    return row ? versionFromRow(row) : null;
  }

  async listVersions(applicationId: string, filter: VersionFilter = {}): Promise<VersionWithFiles[]> {
    const where = ['application_id = ?'];
    const params: unknown[] = [applicationId];
    for (const [column, values] of [['channel', filter.channels], ['status', filter.statuses]] as const) {
      if (values === undefined) continue;
      where.push(`${column} IN (${values.map(() => '?').join(', ')})`);
      params.push(...values);
    }
    const versions = (this.database.prepare(`SELECT * FROM versions WHERE ${where.join(' AND ')} ${NEWEST_FIRST}`)
      .all(...params) as Row[]).map(versionFromRow);
    if (versions.length === 0) return [];
    const files = (this.database.prepare('SELECT * FROM files WHERE application_id = ? ORDER BY created_at, file_id')
      .all(applicationId) as Row[]).map(fileFromRow);
    return withFiles(versions, files);
  }

  async insertFile(given: FileRecord): Promise<FileRecord> {
    const file = fileWithDefaults(given);
    this.database.write(() =>
      this.database.prepare(
          `INSERT INTO files (file_id, application_id, version, file_name, file_size, content_type, checksum, file_type,
             status, live, storage_key, platform, arch, sha512, sha1, signature_problem, package_info, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(file.fileId, file.applicationId, file.version, file.fileName, file.fileSize, file.contentType, file.checksum,
          file.fileType, file.status, isLive(file.status), file.storageKey, file.platform, file.arch, file.sha512, file.sha1,
          file.signatureProblem, file.packageInfo ? JSON.stringify(file.packageInfo) : null, toMillis(file.createdAt), toMillis(file.updatedAt)),
    );
    return file;
  }

  async getFile(fileId: string): Promise<FileRecord | null> {
    return this.readFile(fileId);
  }

  private readFile(fileId: string): FileRecord | null {
    const row = this.database.prepare('SELECT * FROM files WHERE file_id = ?').get(fileId) as Row | undefined;
    return row ? fileFromRow(row) : null;
  }

  async publishFile(fileId: string, publication: FilePublication, at: Date): Promise<FilePublicationResult> {
    const { checksum, sha512, sha1, release } = publication;
    const packageInfo = publication.packageInfo ? JSON.stringify(publication.packageInfo) : null;
    // One IMMEDIATE transaction: the file's status, the version's channel and status, and both writes
    // are seen and made together, so no reader sees the file without its version's fields.
    const publish = this.database.db.transaction((): FilePublicationResult => {
      const file = this.readFile(fileId);
      if (file?.status !== 'pending' && file?.status !== 'available') return { outcome: 'not-pending', file };
      const existing = this.readVersion(file.applicationId, file.version);
      if (existing && uploadReleaseMismatch(existing, release)) return { outcome: 'version-differs', version: existing };
      if (file.status === 'pending') {
        this.database.prepare(`UPDATE files SET status = 'available', live = 1, checksum = ?, sha512 = ?, sha1 = ?, package_info = ?, updated_at = ? WHERE file_id = ? AND status = 'pending'`)
          .run(checksum, sha512, sha1, packageInfo, at.getTime(), fileId);
      }
      const { releaseNotes, requiredTier, channel, status, createdStatus } = release;
      const version = this.writeVersion(file.applicationId, file.version,
        { releaseNotes, requiredTier, initialChannel: channel, initialStatus: status ?? createdStatus }, at);
      return { outcome: 'published', file: this.readFile(fileId) as FileRecord, version };
    });
    return publish.immediate();
  }

  async deleteVersion(applicationId: string, version: string): Promise<VersionDeletion> {
    // The status check and both deletes in one IMMEDIATE transaction: a concurrent publication waits.
    const remove = this.database.db.transaction((): VersionDeletion => {
      const current = this.readVersion(applicationId, version);
      if (!current) return { outcome: 'not-found' };
      if (current.status !== 'draft') return { outcome: 'not-draft', version: current };
      const files = (this.database.prepare('SELECT * FROM files WHERE application_id = ? AND version = ? ORDER BY created_at, file_id')
        .all(applicationId, version) as Row[]).map(fileFromRow);
      this.database.prepare('DELETE FROM attestations WHERE application_id = ? AND version = ?').run(applicationId, version);
      this.database.prepare('DELETE FROM files WHERE application_id = ? AND version = ?').run(applicationId, version);
      this.database.prepare(`DELETE FROM versions WHERE application_id = ? AND version = ? AND status = 'draft'`).run(applicationId, version);
      return { outcome: 'deleted', version: current, files };
    });
    return remove.immediate();
  }

  async deleteFile(fileId: string): Promise<FileDeletion> {
    const remove = this.database.db.transaction((): FileDeletion => {
      const file = this.readFile(fileId);
      if (!file) return { outcome: 'not-found' };
      if (file.status === 'pending') return { outcome: 'refused', file, reason: 'pending' };
      if (file.status === 'available') {
        const status = this.readVersion(file.applicationId, file.version)?.status;
        if (status === 'published' || status === 'yanked') return { outcome: 'refused', file, reason: status };
      }
      this.database.prepare('DELETE FROM attestations WHERE file_id = ?').run(fileId);
      this.database.prepare('DELETE FROM files WHERE file_id = ?').run(fileId);
      return { outcome: 'deleted', file };
    });
    return remove.immediate();
  }

  async deletePurgedReleases(applicationId: string): Promise<PurgedReleases | null> {
    // The mark is checked in the transaction that deletes: it is never removed once set.
    const remove = this.database.db.transaction((): PurgedReleases | null => {
      const marked = this.database.prepare('SELECT 1 FROM applications WHERE application_id = ? AND release_purge_started_at IS NOT NULL').get(applicationId);
      if (!marked) return null;
      this.database.prepare('DELETE FROM attestations WHERE application_id = ?').run(applicationId);
      const files = this.database.prepare('DELETE FROM files WHERE application_id = ?').run(applicationId).changes;
      const versions = this.database.prepare('DELETE FROM versions WHERE application_id = ?').run(applicationId).changes;
      return { versions, files };
    });
    return remove.immediate();
  }

  async setFileStatus(fileId: string, from: FileStatus, to: FileStatus, checksum: string | null, at: Date): Promise<FileRecord | null> {
    // Only a pending file moves: an available one is published bytes, a failed one is settled.
    if (from !== 'pending') return null;
    const result = this.database.write(() =>
      this.database.prepare('UPDATE files SET status = ?, live = ?, checksum = COALESCE(?, checksum), updated_at = ? WHERE file_id = ? AND status = ?')
        .run(to, isLive(to), checksum, at.getTime(), fileId, from));
    return result.changes ? this.getFile(fileId) : null;
  }

  async claimFileObject(fileId: string, storageKey: string): Promise<FileRecord | null> {
    const result = this.database.write(() =>
      this.database.prepare(`UPDATE files SET storage_key = ? WHERE file_id = ? AND status = 'pending'`).run(storageKey, fileId));
    return result.changes ? this.getFile(fileId) : null;
  }

  async fileObjectShared(storageKey: string, exceptFileId: string): Promise<boolean> {
    // Through files_storage_key: the rows of this key only.
    const row = this.database.prepare(`SELECT 1 FROM files WHERE storage_key = ? AND file_id != ? AND status != 'failed' LIMIT 1`)
      .get(storageKey, exceptFileId);
    return row !== undefined;
  }

  async setFileDigests(fileId: string, digests: FileDigestUpdate): Promise<FileRecord | null> {
    // Fills in what is missing; a recorded digest is never replaced.
    const result = this.database.write(() => this.database.prepare('UPDATE files SET sha512 = COALESCE(sha512, ?), sha1 = COALESCE(sha1, ?) WHERE file_id = ?')
      .run(digests.sha512, digests.sha1, fileId));
    return result.changes ? this.getFile(fileId) : null;
  }

  async recordSigningKey(applicationId: string, version: string, kind: SigningKeyKind, key: string): Promise<Version | null> {
    const column = kind === 'minisign' ? 'signed_minisign_key_id' : 'signed_sparkle_key';
    const result = this.database.write(() => this.database.prepare(`UPDATE versions SET ${column} = ? WHERE application_id = ? AND version = ?`).run(key, applicationId, version));
    return result.changes ? this.readVersion(applicationId, version) : null;
  }

  async setSignatureProblem(fileId: string, problem: string | null): Promise<FileRecord | null> {
    const result = this.database.write(() => this.database.prepare('UPDATE files SET signature_problem = ? WHERE file_id = ?').run(problem, fileId));
    return result.changes ? this.getFile(fileId) : null;
  }

  async listFilesMissingDigests(limit: number, afterFileId?: string): Promise<FileRecord[]> {
    requireCount('limit', limit);
    // The conditions of files_missing_digests, so SQLite reads that index and nothing else.
    const rows = this.database.prepare(
      `SELECT * FROM files WHERE status = 'available' AND (sha512 IS NULL OR sha1 IS NULL) AND file_id > ? ORDER BY file_id LIMIT ?`,
    ).all(afterFileId ?? '', limit) as Row[];
    return rows.map(fileFromRow);
  }
}

function versionColumns(patch: VersionPatch): Record<string, unknown> {
  return {
    release_notes: patch.releaseNotes,
    required_tier: patch.requiredTier,
    channel: patch.channel,
    rollout_percentage: patch.rolloutPercentage,
    bundle_version: patch.bundleVersion,
    minimum_system_version: patch.minimumSystemVersion,
    critical: patch.critical === undefined ? undefined : patch.critical ? 1 : 0,
    yank_reason: patch.yankReason,
    rollback_to: patch.rollbackTo,
  };
}

/** `live` (1) marks files that reserve their name and MAIN slot; failed files release them. */
const isLive = (status: FileStatus): 0 | 1 => (status === 'failed' ? 0 : 1);
