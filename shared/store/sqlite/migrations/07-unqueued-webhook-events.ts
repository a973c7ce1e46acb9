import type { Migration } from './migration';

/**
 * 7: webhook events Redis refused, kept until a worker queues them, read oldest first.
 */
const UNQUEUED_WEBHOOK_EVENTS = `
CREATE TABLE unqueued_webhook_events (
  event_id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  occurred_at INTEGER NOT NULL,
  data TEXT NOT NULL,
  kept_at INTEGER NOT NULL
);
CREATE INDEX unqueued_webhook_events_kept ON unqueued_webhook_events(kept_at, event_id);
`;

export const migration: Migration = (db) => db.exec(UNQUEUED_WEBHOOK_EVENTS);
