import type { Migration } from './migration';

/**
 * 3: webhooks. An endpoint's event types are also rows of webhook_subscriptions, keyed by event type,
 * so an event's subscribers are found through the key rather than by reading every endpoint. The
 * delivery log is read per endpoint, newest first, and purged by age.
 */
const WEBHOOKS = `
CREATE TABLE webhook_endpoints (
  webhook_id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  description TEXT,
  is_active INTEGER NOT NULL,
  disabled_reason TEXT,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_expires_at INTEGER,
  failing_since INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_created ON webhook_endpoints(created_at, webhook_id);

CREATE TABLE webhook_subscriptions (
  event_type TEXT NOT NULL,
  webhook_id TEXT NOT NULL,
  PRIMARY KEY (event_type, webhook_id)
) WITHOUT ROWID;
CREATE INDEX webhook_subscriptions_endpoint ON webhook_subscriptions(webhook_id);

CREATE TABLE webhook_deliveries (
  delivery_id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  last_attempt_at INTEGER,
  response_status INTEGER,
  response_body TEXT,
  error TEXT,
  delivered_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX webhook_deliveries_log ON webhook_deliveries(webhook_id, created_at DESC, delivery_id DESC);
CREATE INDEX webhook_deliveries_created ON webhook_deliveries(created_at);
`;

export const migration: Migration = (db) => db.exec(WEBHOOKS);
