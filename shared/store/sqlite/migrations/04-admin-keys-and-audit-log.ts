import type { Migration } from './migration';

/**
 * 4: scoped admin keys and the audit log. Active keys are listed through a partial index; the audit
 * log is read newest first, by itself or for one action, one application or both, each through an
 * index in that order.
 */
const ADMIN_KEYS_AND_AUDIT_LOG = `
CREATE TABLE admin_keys (
  key_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  scopes TEXT NOT NULL,
  application_ids TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  last_used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX admin_keys_active ON admin_keys(created_at, key_id) WHERE revoked_at IS NULL;

CREATE TABLE audit_log (
  entry_id TEXT PRIMARY KEY,
  ts INTEGER NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT,
  application_id TEXT,
  request_id TEXT NOT NULL,
  outcome TEXT NOT NULL,
  status INTEGER
);
CREATE INDEX audit_feed ON audit_log(ts DESC, entry_id DESC);
CREATE INDEX audit_feed_action ON audit_log(action, ts DESC, entry_id DESC);
CREATE INDEX audit_feed_app ON audit_log(application_id, ts DESC, entry_id DESC);
CREATE INDEX audit_feed_app_action ON audit_log(application_id, action, ts DESC, entry_id DESC);
`;

export const migration: Migration = (db) => db.exec(ADMIN_KEYS_AND_AUDIT_LOG);
