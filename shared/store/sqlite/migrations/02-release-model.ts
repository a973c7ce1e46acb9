import type Database from 'better-sqlite3';
import { versionOrderKey } from '../../../releases/version-order';
import type { StoreOptions } from '../../options';
import { sqlText } from './sql-text';
import type { Migration } from './migration';

/**
 * 2: the release model. Versions gain a channel, a status, a rollout percentage, when they were
 * first published and their order key (version-order.ts), which listings sort by through
 * versions_order. Files gain a platform, an arch and a SHA-512, and a version holds one live MAIN file
 * per platform and arch. Upload sessions carry an upload's release fields; events and daily counters
 * the platform. What was stored before reads as: published since creation, in the default channel,
 * to everyone; platform and arch `any`; no SHA-512.
 */
function releaseModel(db: Database.Database, options: StoreOptions): void {
  db.exec(`
ALTER TABLE versions ADD COLUMN channel TEXT NOT NULL DEFAULT ${sqlText(options.defaultChannel)};
ALTER TABLE versions ADD COLUMN status TEXT NOT NULL DEFAULT 'published';
ALTER TABLE versions ADD COLUMN rollout_percentage INTEGER NOT NULL DEFAULT 100;
ALTER TABLE versions ADD COLUMN published_at INTEGER;
ALTER TABLE versions ADD COLUMN order_key TEXT NOT NULL DEFAULT '';
UPDATE versions SET published_at = created_at;
`);
  // Read first: better-sqlite3 runs no other statement on a connection while one is being iterated.
  const versions = db.prepare('SELECT application_id, version FROM versions').all() as { application_id: string; version: string }[];
  const setOrderKey = db.prepare('UPDATE versions SET order_key = ? WHERE application_id = ? AND version = ?');
  for (const row of versions) setOrderKey.run(versionOrderKey(row.version), row.application_id, row.version);
  db.exec(`
CREATE INDEX versions_order ON versions(application_id, order_key DESC, created_at DESC, version DESC);

ALTER TABLE files ADD COLUMN platform TEXT NOT NULL DEFAULT 'any';
ALTER TABLE files ADD COLUMN arch TEXT NOT NULL DEFAULT 'any';
ALTER TABLE files ADD COLUMN sha512 TEXT;
DROP INDEX files_live_main;
-- Created after files_live_name, so SQLite checks it first: a MAIN file colliding on both reports the MAIN slot.
CREATE UNIQUE INDEX files_live_main ON files(application_id, version, platform, arch) WHERE live = 1 AND file_type = 'MAIN';
-- Only the files a digest backfill still has to visit; each leaves it once it has its SHA-512.
CREATE INDEX files_missing_sha512 ON files(file_id) WHERE status = 'available' AND sha512 IS NULL;

ALTER TABLE upload_sessions ADD COLUMN platform TEXT NOT NULL DEFAULT 'any';
ALTER TABLE upload_sessions ADD COLUMN arch TEXT NOT NULL DEFAULT 'any';
ALTER TABLE upload_sessions ADD COLUMN channel TEXT;
ALTER TABLE upload_sessions ADD COLUMN version_status TEXT;

ALTER TABLE events ADD COLUMN platform TEXT NOT NULL DEFAULT 'any';
ALTER TABLE events ADD COLUMN arch TEXT NOT NULL DEFAULT 'any';

-- A key cannot gain a column in place: the counters move to a table keyed by platform too.
ALTER TABLE daily_counts RENAME TO daily_counts_before_platforms;
CREATE TABLE daily_counts (
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  platform TEXT NOT NULL,
  date TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (application_id, date, version, platform)
);
INSERT INTO daily_counts (application_id, version, platform, date, count)
  SELECT application_id, version, 'any', date, count FROM daily_counts_before_platforms;
DROP TABLE daily_counts_before_platforms;
`);
}

export const migration: Migration = releaseModel;
