import type { FileRecord, FileStatus, Version, VersionWithFiles } from '../models';
import type { Store, VersionPatch } from '../store';
import type { Row, SqliteDatabase } from './database';
import { fileFromRow, toMillis, versionFromRow } from './rows';

type VersionAndFileMethods = Pick<Store,
  'upsertVersion' | 'getVersion' | 'updateVersion' | 'listVersions' | 'insertFile' | 'getFile' | 'findAvailableFile' | 'setFileStatus'>;

export class SqliteVersionsAndFiles implements VersionAndFileMethods {
  constructor(private readonly database: SqliteDatabase) {}

  async upsertVersion(applicationId: string, version: string, patch: VersionPatch, at: Date): Promise<Version> {
    const upsert = this.database.db.transaction(() => {
      this.database.prepare(
          `INSERT INTO versions (application_id, version, release_notes, required_tier, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (application_id, version) DO NOTHING`,
        )
        .run(applicationId, version, patch.releaseNotes ?? null, patch.requiredTier ?? null, at.getTime(), at.getTime());
      this.database.update('versions', 'application_id = ? AND version = ?', [applicationId, version], versionColumns(patch), at);
    });
    upsert.immediate();
    return (await this.getVersion(applicationId, version)) as Version;
  }

  async getVersion(applicationId: string, version: string): Promise<Version | null> {
    const row = this.database.prepare('SELECT * FROM versions WHERE application_id = ? AND version = ?').get(applicationId, version) as Row | undefined;
    return row ? versionFromRow(row) : null;
  }

  async updateVersion(applicationId: string, version: string, patch: VersionPatch, at: Date): Promise<Version | null> {
    const found = this.database.update('versions', 'application_id = ? AND version = ?', [applicationId, version], versionColumns(patch), at);
    return found ? this.getVersion(applicationId, version) : null;
  }

  async listVersions(applicationId: string): Promise<VersionWithFiles[]> {
    const versions = (this.database.prepare('SELECT * FROM versions WHERE application_id = ? ORDER BY created_at DESC, version DESC')
      .all(applicationId) as Row[]).map(versionFromRow);
    const files = (this.database.prepare('SELECT * FROM files WHERE application_id = ? ORDER BY created_at, file_id')
      .all(applicationId) as Row[]).map(fileFromRow);
    return versions.map((v) => ({ ...v, files: files.filter((f) => f.version === v.version) }));
  }

  async insertFile(file: FileRecord): Promise<FileRecord> {
    this.database.write(() =>
      this.database.prepare(
          `INSERT INTO files (file_id, application_id, version, file_name, file_size, content_type, checksum, file_type,
             status, live, storage_key, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(file.fileId, file.applicationId, file.version, file.fileName, file.fileSize, file.contentType, file.checksum,
          file.fileType, file.status, isLive(file.status), file.storageKey, toMillis(file.createdAt), toMillis(file.updatedAt)),
    );
    return file;
  }

  async getFile(fileId: string): Promise<FileRecord | null> {
    const row = this.database.prepare('SELECT * FROM files WHERE file_id = ?').get(fileId) as Row | undefined;
    return row ? fileFromRow(row) : null;
  }

  async findAvailableFile(applicationId: string, version: string, fileId?: string): Promise<FileRecord | null> {
    const row = (fileId === undefined
      ? this.database.prepare(`SELECT * FROM files WHERE application_id = ? AND version = ? AND live = 1 AND file_type = 'MAIN' AND status = 'available'`)
        .get(applicationId, version)
      : this.database.prepare(`SELECT * FROM files WHERE file_id = ? AND application_id = ? AND version = ? AND status = 'available'`)
        .get(fileId, applicationId, version)) as Row | undefined;
    return row ? fileFromRow(row) : null;
  }

  async setFileStatus(fileId: string, from: FileStatus, to: FileStatus, checksum: string | null, at: Date): Promise<FileRecord | null> {
    const result = this.database.write(() =>
      this.database.prepare('UPDATE files SET status = ?, live = ?, checksum = COALESCE(?, checksum), updated_at = ? WHERE file_id = ? AND status = ?')
        .run(to, isLive(to), checksum, at.getTime(), fileId, from));
    return result.changes ? this.getFile(fileId) : null;
  }
}

function versionColumns(patch: VersionPatch): Record<string, unknown> {
  return { release_notes: patch.releaseNotes, required_tier: patch.requiredTier };
}

/** `live` (1) marks files that reserve their name and MAIN slot; failed files release them. */
const isLive = (status: FileStatus): 0 | 1 => (status === 'failed' ? 0 : 1);
