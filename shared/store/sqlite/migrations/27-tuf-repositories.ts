import type { Migration } from './migration';

/**
 * Applications' TUF repositories: the online keys (private halves sealed) and the online metadata last
 * signed, one row per application; the roots the vendor uploaded, one row per version.
 */
const TUF_REPOSITORIES = `
CREATE TABLE tuf_repositories (
  application_id TEXT PRIMARY KEY,
  online_keys TEXT NOT NULL,
  metadata TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE tuf_roots (
  application_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  document TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (application_id, version)
) WITHOUT ROWID;
`;

export const migration: Migration = (db) => db.exec(TUF_REPOSITORIES);
