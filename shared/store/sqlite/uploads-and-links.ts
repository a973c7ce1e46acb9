import { requireCount } from '../bounds';
import type { ShareLink, UploadSession, UploadStatus } from '../models';
import { sessionWithDefaults } from '../record-defaults';
import type { NewUploadSession, Store, UploadSessionPatch } from '../store';
import type { Row, SqliteDatabase } from './database';
import { shareLinkFromRow, toMillis, uploadSessionFromRow } from './rows';

type UploadAndLinkMethods = Pick<Store,
  | 'createUploadSession' | 'getUploadSession' | 'updateUploadSession' | 'listExpiredUploadSessions'
  | 'createShareLink' | 'listShareLinks' | 'getShareLink' | 'revokeShareLink' | 'markShareLinkExpired' | 'countShareLinkUse' | 'uncountShareLinkUse'
  | 'purgeShareLinks'>;

/** Large-upload sessions and share links, the two records that expire. */
export class SqliteUploadsAndLinks implements UploadAndLinkMethods {
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

  async createShareLink(link: ShareLink): Promise<ShareLink> {
    this.database.write(() =>
      this.database.prepare(
          `INSERT INTO share_links (token_hash, customer_id, application_id, version, file_id, expires_at, revoked_at, expired_at,
             max_downloads, download_count, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(link.tokenHash, link.customerId, link.applicationId, link.version, link.fileId, toMillis(link.expiresAt),
          toMillis(link.revokedAt), toMillis(link.expiredAt), link.maxDownloads, link.downloadCount, toMillis(link.createdAt)),
    );
    return link;
  }

  async listShareLinks(customerId: string, limit: number): Promise<ShareLink[]> {
    requireCount('limit', limit);
    return (this.database.prepare('SELECT * FROM share_links WHERE customer_id = ? ORDER BY created_at DESC, token_hash DESC LIMIT ?')
      .all(customerId, limit) as Row[]).map(shareLinkFromRow);
  }

  async getShareLink(tokenHash: string): Promise<ShareLink | null> {
    const row = this.database.prepare('SELECT * FROM share_links WHERE token_hash = ?').get(tokenHash) as Row | undefined;
    return row ? shareLinkFromRow(row) : null;
  }

  async revokeShareLink(tokenHash: string, customerId: string, at: Date): Promise<ShareLink | null> {
    const result = this.database.prepare('UPDATE share_links SET revoked_at = ? WHERE token_hash = ? AND customer_id = ? AND revoked_at IS NULL')
      .run(at.getTime(), tokenHash, customerId);
    return result.changes ? this.getShareLink(tokenHash) : null;
  }

  async markShareLinkExpired(tokenHash: string, at: Date): Promise<void> {
    this.database.prepare('UPDATE share_links SET expired_at = ? WHERE token_hash = ? AND expired_at IS NULL AND expires_at <= ?')
      .run(at.getTime(), tokenHash, at.getTime());
  }

  async countShareLinkUse(tokenHash: string): Promise<ShareLink | null> {
    const row = this.database.prepare(
      `UPDATE share_links SET download_count = download_count + 1
       WHERE token_hash = ? AND max_downloads IS NOT NULL AND download_count < max_downloads RETURNING *`,
    ).get(tokenHash) as Row | undefined;
    return row ? shareLinkFromRow(row) : null;
  }

  async uncountShareLinkUse(tokenHash: string): Promise<void> {
    this.database.prepare('UPDATE share_links SET download_count = download_count - 1 WHERE token_hash = ? AND download_count > 0').run(tokenHash);
  }

  async purgeShareLinks(before: Date, limit: number): Promise<number> {
    requireCount('limit', limit);
    return this.database.prepare('DELETE FROM share_links WHERE token_hash IN (SELECT token_hash FROM share_links WHERE expires_at < ? LIMIT ?)')
      .run(before.getTime(), limit).changes;
  }
}
