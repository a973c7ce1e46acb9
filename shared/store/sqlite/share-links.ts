import { requireCount } from '../bounds';
import type { ShareLink } from '../models';
import type { ShareLinkStore } from '../store';
import type { Row, SqliteDatabase } from './database';
import { shareLinkFromRow, toMillis } from './rows';

/** Share links: expiring download links, with their counted uses. */
export class SqliteShareLinks implements ShareLinkStore {
  constructor(private readonly database: SqliteDatabase) {}

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
