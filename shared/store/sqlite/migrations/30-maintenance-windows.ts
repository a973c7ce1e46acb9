import type { Migration } from './migration';

/** Maintenance windows of customers and access tokens: the last release date and the version range offered. */
const MAINTENANCE_WINDOWS = `
ALTER TABLE customers ADD COLUMN updates_until INTEGER;
ALTER TABLE customers ADD COLUMN version_range TEXT;
ALTER TABLE access_tokens ADD COLUMN updates_until INTEGER;
ALTER TABLE access_tokens ADD COLUMN version_range TEXT;
`;

export const migration: Migration = (db) => db.exec(MAINTENANCE_WINDOWS);
