import { requirePage } from '../bounds';
import type { AdminKey, ApiKey, Customer } from '../models';
import type { CustomerDeletion, CustomerPatch, Page, AccountStore } from '../store';
import type { Row, SqliteDatabase } from './database';
import { adminKeyFromRow, apiKeyFromRow, customerFromRow, toMillis } from './rows';

export class SqliteAccounts implements AccountStore {
  constructor(private readonly database: SqliteDatabase) {}

  async createCustomer(customer: Customer): Promise<Customer> {
    this.database.write(() =>
      this.database.prepare(`INSERT INTO customers (customer_id, name, tier, is_active, notes, updates_until, version_range, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(customer.customerId, customer.name, customer.tier, customer.isActive ? 1 : 0, customer.notes,
          toMillis(customer.updatesUntil ?? null), customer.versionRange ?? null, toMillis(customer.createdAt), toMillis(customer.updatedAt)),
    );
    return customer;
  }

  async getCustomer(customerId: string): Promise<Customer | null> {
    const row = this.database.prepare('SELECT * FROM customers WHERE customer_id = ?').get(customerId) as Row | undefined;
    return row ? customerFromRow(row) : null;
  }

  async listCustomers(page: number, pageSize: number, search?: string): Promise<Page<Customer>> {
    requirePage(page, pageSize);
    // LIKE without case on a NOCASE-indexed column with a constant prefix is an index range, not a scan.
    const clause = search ? "WHERE customer_id LIKE ? ESCAPE '\\' OR name LIKE ? ESCAPE '\\'" : '';
    const params = search ? [likePrefix(search), likePrefix(search)] : [];
    const total = (this.database.prepare(`SELECT COUNT(*) AS n FROM customers ${clause}`).get(...params) as { n: number }).n;
    const rows = this.database.prepare(`SELECT * FROM customers ${clause} ORDER BY created_at, customer_id LIMIT ? OFFSET ?`)
      .all(...params, pageSize, (page - 1) * pageSize) as Row[];
    return { items: rows.map(customerFromRow), total };
  }

  async updateCustomer(customerId: string, patch: CustomerPatch, at: Date): Promise<Customer | null> {
    const values = {
      name: patch.name,
      tier: patch.tier,
      is_active: patch.isActive === undefined ? undefined : patch.isActive ? 1 : 0,
      notes: patch.notes,
      updates_until: patch.updatesUntil === undefined ? undefined : toMillis(patch.updatesUntil),
      version_range: patch.versionRange,
    };
    return this.database.update('customers', 'customer_id = ?', [customerId], values, at) ? this.getCustomer(customerId) : null;
  }

  async deleteCustomer(customerId: string, at: Date): Promise<CustomerDeletion | null> {
    const ms = at.getTime();
    // One IMMEDIATE transaction: no key, link or event of the customer is seen half-deleted.
    const remove = this.database.db.transaction((): CustomerDeletion | null => {
      const row = this.database.prepare('SELECT * FROM customers WHERE customer_id = ?').get(customerId) as Row | undefined;
      if (!row) return null;
      const revokedKeys = this.database.prepare('UPDATE api_keys SET revoked_at = ? WHERE customer_id = ? AND revoked_at IS NULL').run(ms, customerId).changes;
      const revokedShareLinks = this.database.prepare('UPDATE share_links SET revoked_at = ? WHERE customer_id = ? AND revoked_at IS NULL')
        .run(ms, customerId).changes;
      this.database.prepare('UPDATE access_tokens SET revoked_at = ? WHERE customer_id = ? AND revoked_at IS NULL').run(ms, customerId);
      this.database.prepare(
        `UPDATE applications SET customer_ids = (SELECT json_group_array(value) FROM json_each(applications.customer_ids) WHERE value != ?), updated_at = ?
         WHERE EXISTS (SELECT 1 FROM json_each(applications.customer_ids) WHERE value = ?)`,
      ).run(customerId, ms, customerId);
      this.database.prepare('DELETE FROM licence_acceptances WHERE customer_id = ?').run(customerId);
      // Events stay (statistics count them); what names the person goes.
      const anonymisedEvents = this.database.prepare('UPDATE events SET customer_id = NULL, client_ip = NULL, user_agent = NULL WHERE customer_id = ?')
        .run(customerId).changes;
      this.database.prepare('DELETE FROM customers WHERE customer_id = ?').run(customerId);
      return { customer: customerFromRow(row), revokedKeys, revokedShareLinks, anonymisedEvents };
    });
    return remove.immediate();
  }

  async findMissingCustomers(customerIds: string[]): Promise<string[]> {
    const lookup = this.database.prepare('SELECT 1 FROM customers WHERE customer_id = ?');
    return [...new Set(customerIds)].filter((id) => lookup.get(id) === undefined);
  }

  async createApiKey(key: ApiKey): Promise<ApiKey> {
    this.database.write(() =>
      this.database.prepare('INSERT INTO api_keys (key_id, customer_id, key_hash, prefix, created_at, last_used_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(key.keyId, key.customerId, key.keyHash, key.prefix, toMillis(key.createdAt), toMillis(key.lastUsedAt), toMillis(key.revokedAt)),
    );
    return key;
  }

  async listApiKeys(customerId: string): Promise<ApiKey[]> {
    return (this.database.prepare('SELECT * FROM api_keys WHERE customer_id = ? AND revoked_at IS NULL ORDER BY created_at, key_id')
      .all(customerId) as Row[]).map(apiKeyFromRow);
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKey | null> {
    const row = this.database.prepare('SELECT * FROM api_keys WHERE key_hash = ?').get(keyHash) as Row | undefined;
    return row ? apiKeyFromRow(row) : null;
  }

  async revokeApiKey(customerId: string, keyId: string, at: Date): Promise<ApiKey | null> {
    const result = this.database.prepare('UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND customer_id = ? AND revoked_at IS NULL')
      .run(at.getTime(), keyId, customerId);
    if (!result.changes) return null;
    return apiKeyFromRow(this.database.prepare('SELECT * FROM api_keys WHERE key_id = ?').get(keyId) as Row);
  }

  async touchApiKey(keyId: string, at: Date): Promise<void> {
    this.database.prepare('UPDATE api_keys SET last_used_at = ? WHERE key_id = ?').run(at.getTime(), keyId);
  }

  async createAdminKey(key: AdminKey): Promise<AdminKey> {
    this.database.write(() =>
      this.database.prepare(`INSERT INTO admin_keys (key_id, name, key_hash, prefix, scopes, application_ids, created_at, expires_at, last_used_at, revoked_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(key.keyId, key.name, key.keyHash, key.prefix, JSON.stringify(key.scopes),
          key.applicationIds === null ? null : JSON.stringify(key.applicationIds),
          toMillis(key.createdAt), toMillis(key.expiresAt), toMillis(key.lastUsedAt), toMillis(key.revokedAt)),
    );
    return key;
  }

  async listAdminKeys(): Promise<AdminKey[]> {
    return (this.database.prepare('SELECT * FROM admin_keys WHERE revoked_at IS NULL ORDER BY created_at, key_id').all() as Row[])
      .map(adminKeyFromRow);
  }

  async findAdminKeyByHash(keyHash: string): Promise<AdminKey | null> {
    const row = this.database.prepare('SELECT * FROM admin_keys WHERE key_hash = ?').get(keyHash) as Row | undefined;
    return row ? adminKeyFromRow(row) : null;
  }

  async revokeAdminKey(keyId: string, at: Date): Promise<AdminKey | null> {
    const row = this.database.prepare('UPDATE admin_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL RETURNING *')
      .get(at.getTime(), keyId) as Row | undefined;
    return row ? adminKeyFromRow(row) : null;
  }

  async touchAdminKey(keyId: string, at: Date): Promise<void> {
    this.database.prepare('UPDATE admin_keys SET last_used_at = ? WHERE key_id = ? AND (last_used_at IS NULL OR last_used_at < ?)')
      .run(at.getTime(), keyId, at.getTime());
  }
}

/** A LIKE pattern matching what starts with `text`, its own wildcards taken literally. */
function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
