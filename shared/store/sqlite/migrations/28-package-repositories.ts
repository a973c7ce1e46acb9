import type { Migration } from './migration';

/**
 * Package repositories: a `.deb`'s control paragraph or an `.rpm`'s header fields kept with its file
 * (JSON; null for other files and those stored before), and each application's repository signing
 * keys, one row per application, written by compare-and-set on its revision.
 */
const PACKAGE_REPOSITORIES = `
ALTER TABLE files ADD COLUMN package_info TEXT;
CREATE TABLE repository_keys (
  application_id TEXT PRIMARY KEY,
  revision INTEGER NOT NULL,
  keys TEXT NOT NULL
);
`;

export const migration: Migration = (db) => db.exec(PACKAGE_REPOSITORIES);
