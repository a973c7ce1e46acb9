import { requireCount } from '../bounds';
import type { TufOnlineDocuments, TufRepositoryRecord, TufRootRecord } from '../models';
import type { TufStore } from '../store';
import type { Row, SqliteDatabase } from './database';

/**
 * TUF repositories: one row per application (its online keys, sealed, and its online metadata as one
 * JSON text), and one row per root the vendor uploaded, keyed by (application, version).
 */
export class SqliteTuf implements TufStore {
  constructor(private readonly database: SqliteDatabase) {}

  async createTufRepository(record: TufRepositoryRecord): Promise<TufRepositoryRecord> {
    this.database.prepare(`INSERT INTO tuf_repositories (application_id, online_keys, metadata, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?) ON CONFLICT (application_id) DO NOTHING`)
      .run(record.applicationId, JSON.stringify(record.keys), record.metadata ? JSON.stringify(record.metadata) : null,
        record.createdAt.getTime(), record.updatedAt.getTime());
    return (await this.findTufRepository(record.applicationId))!;
  }

  async findTufRepository(applicationId: string): Promise<TufRepositoryRecord | null> {
    const row = this.database.prepare('SELECT * FROM tuf_repositories WHERE application_id = ?').get(applicationId) as Row | undefined;
    if (!row) return null;
    return {
      applicationId: row.application_id as string,
      keys: JSON.parse(row.online_keys as string) as TufRepositoryRecord['keys'],
      metadata: row.metadata === null ? null : (JSON.parse(row.metadata as string) as TufOnlineDocuments),
      createdAt: new Date(row.created_at as number),
      updatedAt: new Date(row.updated_at as number),
    };
  }

  async replaceTufMetadata(applicationId: string, expectedTimestamp: string | null, metadata: TufOnlineDocuments, at: Date): Promise<boolean> {
    const result = this.database.prepare(`UPDATE tuf_repositories SET metadata = ?, updated_at = ?
      WHERE application_id = ? AND (CASE WHEN metadata IS NULL THEN NULL ELSE json_extract(metadata, '$.timestamp') END) IS ?`)
      .run(JSON.stringify(metadata), at.getTime(), applicationId, expectedTimestamp);
    return result.changes > 0;
  }

  async addTufRoot(root: TufRootRecord): Promise<boolean> {
    // One statement: the row goes in only when the version before it is there (or it is the first), and
    // the primary key refuses a second root of one version.
    const result = this.database.prepare(`INSERT INTO tuf_roots (application_id, version, document, created_at)
      SELECT ?, ?, ?, ? WHERE ? = 1 OR EXISTS (SELECT 1 FROM tuf_roots WHERE application_id = ? AND version = ?)
      ON CONFLICT (application_id, version) DO NOTHING`)
      .run(root.applicationId, root.version, root.document, root.createdAt.getTime(), root.version, root.applicationId, root.version - 1);
    return result.changes > 0;
  }

  async findTufRoot(applicationId: string, version: number): Promise<TufRootRecord | null> {
    const row = this.database.prepare('SELECT * FROM tuf_roots WHERE application_id = ? AND version = ?').get(applicationId, version) as Row | undefined;
    return row ? rootFromRow(row) : null;
  }

  async latestTufRoot(applicationId: string): Promise<TufRootRecord | null> {
    const row = this.database.prepare('SELECT * FROM tuf_roots WHERE application_id = ? ORDER BY version DESC LIMIT 1').get(applicationId) as Row | undefined;
    return row ? rootFromRow(row) : null;
  }

  async listTufRepositoryIds(limit: number, afterApplicationId?: string): Promise<string[]> {
    requireCount('limit', limit);
    const rows = this.database.prepare('SELECT application_id FROM tuf_repositories WHERE application_id > ? ORDER BY application_id LIMIT ?')
      .all(afterApplicationId ?? '', limit) as Row[];
    return rows.map((row) => row.application_id as string);
  }
}

function rootFromRow(row: Row): TufRootRecord {
  return {
    applicationId: row.application_id as string,
    version: row.version as number,
    document: row.document as string,
    createdAt: new Date(row.created_at as number),
  };
}
