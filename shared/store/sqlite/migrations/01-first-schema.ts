import type { Migration } from './migration';

/**
 * 1: the schema as first released, before its versions were numbered. Every statement is IF NOT
 * EXISTS, so on a database of that release (user_version 0, its tables there) it changes nothing.
 * Never to be edited: changes are new migrations.
 */
export const FIRST_SCHEMA = `
CREATE TABLE IF NOT EXISTS applications (
  application_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT,
  tags TEXT NOT NULL,
  customer_ids TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  deleted_at INTEGER
);
CREATE INDEX IF NOT EXISTS applications_created ON applications(created_at, application_id);

CREATE TABLE IF NOT EXISTS versions (
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  release_notes TEXT,
  required_tier TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (application_id, version)
);

CREATE TABLE IF NOT EXISTS files (
  file_id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  file_name TEXT NOT NULL,
  file_size INTEGER NOT NULL,
  content_type TEXT NOT NULL,
  checksum TEXT,
  file_type TEXT NOT NULL,
  status TEXT NOT NULL,
  live INTEGER NOT NULL,
  storage_key TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS files_version ON files(application_id, version, created_at);
CREATE UNIQUE INDEX IF NOT EXISTS files_live_name ON files(application_id, version, file_name) WHERE live = 1;
CREATE UNIQUE INDEX IF NOT EXISTS files_live_main ON files(application_id, version) WHERE live = 1 AND file_type = 'MAIN';

CREATE TABLE IF NOT EXISTS customers (
  customer_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  tier TEXT NOT NULL,
  is_active INTEGER NOT NULL,
  notes TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS customers_created ON customers(created_at, customer_id);

CREATE TABLE IF NOT EXISTS api_keys (
  key_id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX IF NOT EXISTS api_keys_customer ON api_keys(customer_id, created_at);

CREATE TABLE IF NOT EXISTS upload_sessions (
  upload_id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  file_name TEXT NOT NULL,
  file_size INTEGER NOT NULL,
  content_type TEXT NOT NULL,
  file_type TEXT NOT NULL,
  release_notes TEXT,
  required_tier TEXT,
  file_id TEXT NOT NULL,
  storage_key TEXT NOT NULL,
  status TEXT NOT NULL,
  expected_checksum TEXT,
  failure_reason TEXT,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS upload_sessions_expiry ON upload_sessions(status, expires_at);

CREATE TABLE IF NOT EXISTS share_links (
  token_hash TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  file_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER,
  expired_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS share_links_expiry ON share_links(expires_at);

CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  file_id TEXT NOT NULL,
  customer_id TEXT,
  client_ip TEXT,
  user_agent TEXT,
  ts INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS events_feed ON events(ts DESC, event_id DESC);
CREATE INDEX IF NOT EXISTS events_feed_app ON events(application_id, ts DESC, event_id DESC);

-- Rollup position: events up to last_seq are counted. seq is the rowid, assigned in commit order
-- (SQLite has one writer at a time) and never reused, since events are never deleted.
CREATE TABLE IF NOT EXISTS rollup_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_seq INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS daily_counts (
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  date TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (application_id, date, version)
);
`;

export const migration: Migration = (db) => db.exec(FIRST_SCHEMA);
