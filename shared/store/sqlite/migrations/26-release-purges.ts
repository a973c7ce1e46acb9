import type { Migration } from './migration';

/**
 * When the purge of a soft-deleted application's releases started (null: not started). Kept beside
 * the application, not in its record: a marked application is never restored.
 */
const RELEASE_PURGES = `
ALTER TABLE applications ADD COLUMN release_purge_started_at INTEGER;
`;

export const migration: Migration = (db) => db.exec(RELEASE_PURGES);
