import { requireCount } from '../bounds';
import type { UploadSession, UploadStatus } from '../models';
import { sessionWithDefaults } from '../record-defaults';
import type { NewUploadSession, UploadSessionPatch, UploadStore } from '../store';
import type { Row, SqliteDatabase } from './database';
import { toMillis, uploadSessionFromRow } from './rows';

/** Large and multipart upload sessions, which expire when their upload is not finished in time. */
export class SqliteUploads implements UploadStore {
  constructor(private readonly database: SqliteDatabase) {}

  async createUploadSession(given: NewUploadSession): Promise<UploadSession> {
    const s = sessionWithDefaults(given);
    this.database.write(() =>
      this.database.prepare(
          `INSERT INTO upload_sessions (upload_id, application_id, version, file_name, file_size, content_type, file_type,
             release_notes, required_tier, platform, arch, channel, version_status, file_id, storage_key, multipart_upload_id,
             multipart_part_size, status, expected_checksum, failure_reason, expires_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(s.uploadId, s.applicationId, s.version, s.fileName, s.fileSize, s.contentType, s.fileType, s.releaseNotes,
          s.requiredTier, s.platform, s.arch, s.channel, s.versionStatus, s.fileId, s.storageKey,
          s.multipart?.storageUploadId ?? null, s.multipart?.partSize ?? null, s.status,
          s.expectedChecksum, s.failureReason, toMillis(s.expiresAt), toMillis(s.createdAt), toMillis(s.updatedAt)),
    );
    return s;
  }

  async getUploadSession(uploadId: string): Promise<UploadSession | null> {
    const row = this.database.prepare('SELECT * FROM upload_sessions WHERE upload_id = ?').get(uploadId) as Row | undefined;
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
    return this.database.update('upload_sessions', condition, [uploadId, ...from], values, at) ? this.getUploadSession(uploadId) : null;
  }

  async listExpiredUploadSessions(now: Date, limit: number): Promise<UploadSession[]> {
    requireCount('limit', limit);
    return (this.database.prepare(`SELECT * FROM upload_sessions WHERE status = 'issued' AND expires_at <= ? ORDER BY expires_at LIMIT ?`)
      .all(now.getTime(), limit) as Row[]).map(uploadSessionFromRow);
  }
}
