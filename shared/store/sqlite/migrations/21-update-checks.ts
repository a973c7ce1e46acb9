import type { Migration } from './migration';

const UPDATE_CHECKS = `
CREATE TABLE check_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id TEXT NOT NULL UNIQUE,
  application_id TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  client TEXT NOT NULL,
  platform TEXT NOT NULL,
  arch TEXT NOT NULL,
  channel TEXT NOT NULL,
  running_version TEXT NOT NULL,
  offered_version TEXT,
  install_id TEXT,
  install_hash TEXT NOT NULL,
  ts INTEGER NOT NULL
);
CREATE INDEX check_events_ts ON check_events (ts);
CREATE TABLE check_rollup_state (id INTEGER PRIMARY KEY CHECK (id = 1), last_seq INTEGER NOT NULL);
CREATE TABLE adoption_counts (
  application_id TEXT NOT NULL,
  channel TEXT NOT NULL,
  platform TEXT NOT NULL,
  arch TEXT NOT NULL,
  date TEXT NOT NULL,
  version TEXT NOT NULL,
  checks INTEGER NOT NULL,
  installs INTEGER NOT NULL,
  PRIMARY KEY (application_id, channel, platform, arch, date, version)
) WITHOUT ROWID;
CREATE TABLE customer_versions (
  application_id TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  version TEXT NOT NULL,
  last_reported_at INTEGER NOT NULL,
  PRIMARY KEY (application_id, customer_id, version)
) WITHOUT ROWID;
`;

export const migration: Migration = (db) => db.exec(UPDATE_CHECKS);
