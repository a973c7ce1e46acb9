import type { Migration } from './migration';

/**
 * 9: the webhook outbox, which the events kept while Redis refused them join (ready to be queued):
 * an entry is written before its change (pending) and made ready with its data once the change is
 * written; the relay reads the entries older than their writer needs by (written_at, event_id).
 */
const WEBHOOK_OUTBOX = `
CREATE TABLE webhook_outbox (
  event_id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  occurred_at INTEGER NOT NULL,
  state TEXT NOT NULL,
  data TEXT,
  subject TEXT NOT NULL,
  written_at INTEGER NOT NULL
);
CREATE INDEX webhook_outbox_written ON webhook_outbox(written_at, event_id);
INSERT INTO webhook_outbox (event_id, type, occurred_at, state, data, subject, written_at)
  SELECT event_id, type, occurred_at, 'ready', data, '[]', kept_at FROM unqueued_webhook_events;
DROP TABLE unqueued_webhook_events;
`;

export const migration: Migration = (db) => db.exec(WEBHOOK_OUTBOX);
