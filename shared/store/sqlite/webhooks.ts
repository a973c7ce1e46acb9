import { requireCount, requirePage } from '../bounds';
import type { WebhookDelivery, WebhookDeliveryStatus, WebhookEndpoint, WebhookOutboxEntry, WebhookOutboxPosition } from '../models';
import type { Page, WebhookAttemptResult, WebhookEndpointPatch, WebhookStore } from '../store';
import type { Row, SqliteDatabase } from './database';
import { toMillis, webhookDeliveryFromRow, webhookEndpointFromRow, webhookOutboxEntryFromRow } from './rows';

/**
 * Webhook endpoints, their subscriptions (one row per event type, kept in step with `events`), their
 * delivery log, and the webhook outbox.
 */
export class SqliteWebhooks implements WebhookStore {
  constructor(private readonly database: SqliteDatabase) {}

  async createWebhookEndpoint(endpoint: WebhookEndpoint): Promise<WebhookEndpoint> {
    const create = this.database.db.transaction(() => {
      this.database.prepare(
        `INSERT INTO webhook_endpoints (webhook_id, url, events, description, is_active, disabled_reason, secret, previous_secret,
           previous_secret_expires_at, failing_since, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(endpoint.webhookId, endpoint.url, JSON.stringify(endpoint.events), endpoint.description, endpoint.isActive ? 1 : 0,
        endpoint.disabledReason, endpoint.secret, endpoint.previousSecret, toMillis(endpoint.previousSecretExpiresAt),
        toMillis(endpoint.failingSince), endpoint.createdAt.getTime(), endpoint.updatedAt.getTime());
      this.subscribe(endpoint.webhookId, endpoint.events);
    });
    this.database.write(() => create.immediate());
    return endpoint;
  }

  async getWebhookEndpoint(webhookId: string): Promise<WebhookEndpoint | null> {
    const row = this.database.prepare('SELECT * FROM webhook_endpoints WHERE webhook_id = ?').get(webhookId) as Row | undefined;
    return row ? webhookEndpointFromRow(row) : null;
  }

  async listWebhookEndpoints(page: number, pageSize: number): Promise<Page<WebhookEndpoint>> {
    requirePage(page, pageSize);
    const total = (this.database.prepare('SELECT COUNT(*) AS n FROM webhook_endpoints').get() as { n: number }).n;
    const rows = this.database.prepare('SELECT * FROM webhook_endpoints ORDER BY created_at, webhook_id LIMIT ? OFFSET ?')
      .all(pageSize, (page - 1) * pageSize) as Row[];
    return { items: rows.map(webhookEndpointFromRow), total };
  }

  async updateWebhookEndpoint(webhookId: string, patch: WebhookEndpointPatch, at: Date): Promise<WebhookEndpoint | null> {
    const values = {
      url: patch.url,
      events: patch.events === undefined ? undefined : JSON.stringify(patch.events),
      description: patch.description,
      is_active: patch.isActive === undefined ? undefined : patch.isActive ? 1 : 0,
      disabled_reason: patch.disabledReason,
      secret: patch.secret,
      previous_secret: patch.previousSecret,
      previous_secret_expires_at: patch.previousSecretExpiresAt === undefined ? undefined : toMillis(patch.previousSecretExpiresAt),
      failing_since: patch.failingSince === undefined ? undefined : toMillis(patch.failingSince),
    };
    const update = this.database.db.transaction(() => {
      const found = this.database.update('webhook_endpoints', 'webhook_id = ?', [webhookId], values, at);
      if (found && patch.events !== undefined) {
        this.database.prepare('DELETE FROM webhook_subscriptions WHERE webhook_id = ?').run(webhookId);
        this.subscribe(webhookId, patch.events);
      }
      return found;
    });
    return update.immediate() ? this.getWebhookEndpoint(webhookId) : null;
  }

  async markWebhookEndpointFailing(webhookId: string, at: Date): Promise<WebhookEndpoint | null> {
    this.database.prepare('UPDATE webhook_endpoints SET failing_since = ? WHERE webhook_id = ? AND failing_since IS NULL')
      .run(at.getTime(), webhookId);
    return this.getWebhookEndpoint(webhookId);
  }

  async deleteWebhookEndpoint(webhookId: string): Promise<boolean> {
    const remove = this.database.db.transaction(() => {
      this.database.prepare('DELETE FROM webhook_subscriptions WHERE webhook_id = ?').run(webhookId);
      this.database.prepare('DELETE FROM webhook_deliveries WHERE webhook_id = ?').run(webhookId);
      return this.database.prepare('DELETE FROM webhook_endpoints WHERE webhook_id = ?').run(webhookId).changes > 0;
    });
    return remove.immediate();
  }

  async listSubscribedWebhookEndpoints(eventType: string): Promise<WebhookEndpoint[]> {
    return (this.database.prepare(
      `SELECT e.* FROM webhook_subscriptions s JOIN webhook_endpoints e ON e.webhook_id = s.webhook_id
       WHERE s.event_type = ? AND e.is_active = 1 ORDER BY e.created_at, e.webhook_id`,
    ).all(eventType) as Row[]).map(webhookEndpointFromRow);
  }

  async insertWebhookDelivery(delivery: WebhookDelivery): Promise<WebhookDelivery> {
    this.database.write(() =>
      this.database.prepare(
        `INSERT INTO webhook_deliveries (delivery_id, webhook_id, event_id, event_type, payload, status, attempts, last_attempt_at,
           response_status, response_body, error, delivered_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(delivery.deliveryId, delivery.webhookId, delivery.eventId, delivery.eventType, delivery.payload, delivery.status,
        delivery.attempts, toMillis(delivery.lastAttemptAt), delivery.responseStatus, delivery.responseBody, delivery.error,
        toMillis(delivery.deliveredAt), delivery.createdAt.getTime(), delivery.updatedAt.getTime()),
    );
    return delivery;
  }

  async getWebhookDelivery(deliveryId: string): Promise<WebhookDelivery | null> {
    const row = this.database.prepare('SELECT * FROM webhook_deliveries WHERE delivery_id = ?').get(deliveryId) as Row | undefined;
    return row ? webhookDeliveryFromRow(row) : null;
  }

  async listWebhookDeliveries(webhookId: string, page: number, pageSize: number): Promise<Page<WebhookDelivery>> {
    requirePage(page, pageSize);
    const total = (this.database.prepare('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ?').get(webhookId) as { n: number }).n;
    const rows = this.database.prepare(
      'SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at DESC, delivery_id DESC LIMIT ? OFFSET ?',
    ).all(webhookId, pageSize, (page - 1) * pageSize) as Row[];
    return { items: rows.map(webhookDeliveryFromRow), total };
  }

  async recordWebhookAttempt(deliveryId: string, result: WebhookAttemptResult, at: Date): Promise<WebhookDelivery | null> {
    const changed = this.database.prepare(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_at = ?, status = ?, response_status = ?, response_body = ?,
         error = ?, delivered_at = ?, updated_at = ? WHERE delivery_id = ? AND status = 'pending'`,
    ).run(at.getTime(), result.status, result.responseStatus, result.responseBody, result.error,
      toMillis(result.deliveredAt), at.getTime(), deliveryId).changes;
    return changed > 0 ? this.getWebhookDelivery(deliveryId) : null;
  }

  async setWebhookDeliveryStatus(
    deliveryId: string, from: WebhookDeliveryStatus[], to: WebhookDeliveryStatus, error: string | null, at: Date,
  ): Promise<WebhookDelivery | null> {
    if (from.length === 0) return null;
    const changed = this.database.prepare(
      `UPDATE webhook_deliveries SET status = ?, error = ?, updated_at = ?
       WHERE delivery_id = ? AND status IN (${from.map(() => '?').join(', ')})`,
    ).run(to, error, at.getTime(), deliveryId, ...from).changes;
    return changed > 0 ? this.getWebhookDelivery(deliveryId) : null;
  }

  async purgeWebhookDeliveries(before: Date, limit: number): Promise<number> {
    requireCount('limit', limit);
    return this.database.prepare(
      'DELETE FROM webhook_deliveries WHERE delivery_id IN (SELECT delivery_id FROM webhook_deliveries WHERE created_at < ? LIMIT ?)',
    ).run(before.getTime(), limit).changes;
  }

  async addWebhookOutboxEntries(entries: WebhookOutboxEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const insert = this.database.prepare(
      `INSERT OR IGNORE INTO webhook_outbox (event_id, type, occurred_at, state, data, subject, written_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const add = this.database.db.transaction(() => {
      for (const entry of entries) {
        insert.run(entry.eventId, entry.type, entry.occurredAt.getTime(), entry.state, entry.data === null ? null : JSON.stringify(entry.data),
          JSON.stringify(entry.subject), entry.writtenAt.getTime());
      }
    });
    add.immediate();
  }

  async confirmWebhookOutboxEntries(confirmed: { eventId: string; data: unknown }[]): Promise<void> {
    if (confirmed.length === 0) return;
    const update = this.database.prepare(`UPDATE webhook_outbox SET state = 'ready', data = ? WHERE event_id = ? AND state = 'pending'`);
    const confirm = this.database.db.transaction(() => {
      for (const { eventId, data } of confirmed) update.run(JSON.stringify(data), eventId);
    });
    confirm.immediate();
  }

  async listWebhookOutboxEntries(writtenBefore: Date, limit: number, after?: WebhookOutboxPosition): Promise<WebhookOutboxEntry[]> {
    requireCount('limit', limit);
    // The row-value form lets SQLite seek the index to the position instead of scanning to it.
    const rows = after
      ? this.database.prepare(
        'SELECT * FROM webhook_outbox WHERE written_at < ? AND (written_at, event_id) > (?, ?) ORDER BY written_at, event_id LIMIT ?',
      ).all(writtenBefore.getTime(), after.writtenAt.getTime(), after.eventId, limit) as Row[]
      : this.database.prepare('SELECT * FROM webhook_outbox WHERE written_at < ? ORDER BY written_at, event_id LIMIT ?')
        .all(writtenBefore.getTime(), limit) as Row[];
    return rows.map(webhookOutboxEntryFromRow);
  }

  async deleteWebhookOutboxEntries(eventIds: string[]): Promise<number> {
    if (eventIds.length === 0) return 0;
    const remove = this.database.prepare('DELETE FROM webhook_outbox WHERE event_id = ?');
    const removeAll = this.database.db.transaction(() => eventIds.reduce((count, eventId) => count + remove.run(eventId).changes, 0));
    return removeAll.immediate();
  }

  private subscribe(webhookId: string, events: readonly string[]): void {
    const insert = this.database.prepare('INSERT OR IGNORE INTO webhook_subscriptions (event_type, webhook_id) VALUES (?, ?)');
    for (const eventType of events) insert.run(eventType, webhookId);
  }
}
