import type { AccessToken, AccessTokenUsage, TokenResetPeriod, TokenUse, TokenUseOutcome } from '../models';
import type { AccessTokenPatch, AccessTokenStore } from '../store';
import type { Row, SqliteDatabase } from './database';
import { toMillis } from './rows';
import { limitPassed } from '../token-use';

const NO_USAGE: AccessTokenUsage = Object.freeze({ downloads: 0, clients: 0, bytes: 0 });

/** Customers' access tokens and their counts per period. */
export class SqliteAccessTokens implements AccessTokenStore {
  constructor(private readonly database: SqliteDatabase) {}

  async createAccessToken(token: AccessToken): Promise<AccessToken> {
    this.database.write(() =>
      this.database.prepare(`INSERT INTO access_tokens (token_id, customer_id, token_hash, prefix, name, max_downloads, max_clients, max_bytes,
          valid_from, valid_until, applications, channels, platforms, reset_every, updates_until, version_range, created_at, updated_at, last_used_at, revoked_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(token.tokenId, token.customerId, token.tokenHash, token.prefix, token.name, token.maxDownloads, token.maxClients, token.maxBytes,
          toMillis(token.validFrom), toMillis(token.validUntil), jsonList(token.applications), jsonList(token.channels), jsonList(token.platforms),
          token.resetEvery, toMillis(token.updatesUntil ?? null), token.versionRange ?? null, toMillis(token.createdAt), toMillis(token.updatedAt), toMillis(token.lastUsedAt), toMillis(token.revokedAt)),
    );
    return token;
  }

  async listAccessTokens(customerId: string): Promise<AccessToken[]> {
    return (this.database.prepare('SELECT * FROM access_tokens WHERE customer_id = ? AND revoked_at IS NULL ORDER BY created_at, token_id')
      .all(customerId) as Row[]).map(accessTokenFromRow);
  }

  async getAccessToken(customerId: string, tokenId: string): Promise<AccessToken | null> {
    const row = this.database.prepare('SELECT * FROM access_tokens WHERE token_id = ? AND customer_id = ?').get(tokenId, customerId) as Row | undefined;
    return row ? accessTokenFromRow(row) : null;
  }

  async findAccessTokenByHash(tokenHash: string): Promise<AccessToken | null> {
    const row = this.database.prepare('SELECT * FROM access_tokens WHERE token_hash = ?').get(tokenHash) as Row | undefined;
    return row ? accessTokenFromRow(row) : null;
  }

  async updateAccessToken(customerId: string, tokenId: string, patch: AccessTokenPatch, at: Date): Promise<AccessToken | null> {
    const values = {
      name: patch.name,
      max_downloads: patch.maxDownloads,
      max_clients: patch.maxClients,
      max_bytes: patch.maxBytes,
      valid_from: patch.validFrom === undefined ? undefined : toMillis(patch.validFrom),
      valid_until: patch.validUntil === undefined ? undefined : toMillis(patch.validUntil),
      applications: patch.applications === undefined ? undefined : jsonList(patch.applications),
      channels: patch.channels === undefined ? undefined : jsonList(patch.channels),
      platforms: patch.platforms === undefined ? undefined : jsonList(patch.platforms),
      reset_every: patch.resetEvery,
      updates_until: patch.updatesUntil === undefined ? undefined : toMillis(patch.updatesUntil),
      version_range: patch.versionRange,
    };
    const changed = this.database.update('access_tokens', 'token_id = ? AND customer_id = ? AND revoked_at IS NULL', [tokenId, customerId], values, at);
    return changed ? this.getAccessToken(customerId, tokenId) : null;
  }

  async revokeAccessToken(customerId: string, tokenId: string, at: Date): Promise<AccessToken | null> {
    const row = this.database.prepare('UPDATE access_tokens SET revoked_at = ? WHERE token_id = ? AND customer_id = ? AND revoked_at IS NULL RETURNING *')
      .get(at.getTime(), tokenId, customerId) as Row | undefined;
    return row ? accessTokenFromRow(row) : null;
  }

  async touchAccessToken(tokenId: string, at: Date): Promise<void> {
    this.database.prepare('UPDATE access_tokens SET last_used_at = ? WHERE token_id = ? AND (last_used_at IS NULL OR last_used_at < ?)')
      .run(at.getTime(), tokenId, at.getTime());
  }

  async getAccessTokenUsage(tokenId: string, periodStart: Date): Promise<AccessTokenUsage> {
    const row = this.database.prepare('SELECT downloads, bytes, clients FROM access_token_usage WHERE token_id = ? AND period_start = ?')
      .get(tokenId, periodStart.getTime()) as AccessTokenUsage | undefined;
    return row ? { downloads: row.downloads, clients: row.clients, bytes: row.bytes } : NO_USAGE;
  }

  async countAccessTokenUse(use: TokenUse): Promise<TokenUseOutcome> {
    const period = use.periodStart.getTime();
    // One IMMEDIATE transaction: the counts read are the counts written over, whichever process counts.
    const count = this.database.db.transaction((): TokenUseOutcome => {
      const row = this.database.prepare('SELECT downloads, bytes, clients FROM access_token_usage WHERE token_id = ? AND period_start = ?')
        .get(use.tokenId, period) as AccessTokenUsage | undefined;
      const usage = row ? { downloads: row.downloads, clients: row.clients, bytes: row.bytes } : NO_USAGE;
      const knownClient = this.database.prepare('SELECT 1 FROM access_token_clients WHERE token_id = ? AND period_start = ? AND client_hash = ?')
        .get(use.tokenId, period, use.clientHash) !== undefined;
      const limit = limitPassed(use, usage, knownClient);
      if (limit) return { outcome: 'refused', limit, usage };
      if (!row) {
        // A new period: the counts of earlier ones are no longer read.
        this.database.prepare('DELETE FROM access_token_usage WHERE token_id = ? AND period_start < ?').run(use.tokenId, period);
        this.database.prepare('DELETE FROM access_token_clients WHERE token_id = ? AND period_start < ?').run(use.tokenId, period);
      }
      if (!knownClient) this.database.prepare('INSERT INTO access_token_clients (token_id, period_start, client_hash) VALUES (?, ?, ?)').run(use.tokenId, period, use.clientHash);
      const counted = { downloads: usage.downloads + use.downloads, clients: usage.clients + (knownClient ? 0 : 1), bytes: usage.bytes + use.bytes };
      this.database.prepare(`INSERT INTO access_token_usage (token_id, period_start, downloads, bytes, clients) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (token_id, period_start) DO UPDATE SET downloads = excluded.downloads, bytes = excluded.bytes, clients = excluded.clients`)
        .run(use.tokenId, period, counted.downloads, counted.bytes, counted.clients);
      return { outcome: 'counted', usage: counted };
    });
    return count.immediate();
  }

  async uncountAccessTokenUse(tokenId: string, periodStart: Date, bytes: number, downloads: 0 | 1): Promise<void> {
    this.database.prepare(`UPDATE access_token_usage SET downloads = downloads - ?, bytes = MAX(bytes - ?, 0)
      WHERE token_id = ? AND period_start = ? AND downloads >= ?`).run(downloads, bytes, tokenId, periodStart.getTime(), downloads);
  }
}

const jsonList = (list: readonly string[] | null): string | null => (list === null ? null : JSON.stringify(list));
const list = (value: unknown): string[] | null => (value === null ? null : (JSON.parse(value as string) as string[]));
const optionalDate = (value: unknown): Date | null => (value === null ? null : new Date(value as number));
const optionalNumber = (value: unknown): number | null => (value === null ? null : Number(value));

export function accessTokenFromRow(row: Row): AccessToken {
  return {
    tokenId: row.token_id as string,
    customerId: row.customer_id as string,
    tokenHash: row.token_hash as string,
    prefix: row.prefix as string,
    name: (row.name as string | null) ?? null,
    maxDownloads: optionalNumber(row.max_downloads),
    maxClients: optionalNumber(row.max_clients),
    maxBytes: optionalNumber(row.max_bytes),
    validFrom: optionalDate(row.valid_from),
    validUntil: optionalDate(row.valid_until),
    applications: list(row.applications),
    channels: list(row.channels),
    platforms: list(row.platforms),
    resetEvery: (row.reset_every as TokenResetPeriod | null) ?? null,
    updatesUntil: optionalDate(row.updates_until),
    versionRange: (row.version_range as string | null | undefined) ?? null,
    createdAt: new Date(row.created_at as number),
    updatedAt: new Date(row.updated_at as number),
    lastUsedAt: optionalDate(row.last_used_at),
    revokedAt: optionalDate(row.revoked_at),
  };
}
