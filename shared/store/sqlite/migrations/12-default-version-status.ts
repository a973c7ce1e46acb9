import type { Migration } from './migration';

/**
 * 12: applications gain the status of the versions their uploads create without naming one.
 * Applications stored before keep publishing such versions at once, as they did.
 */
const DEFAULT_VERSION_STATUS = `
ALTER TABLE applications ADD COLUMN default_version_status TEXT NOT NULL DEFAULT 'published';
`;

export const migration: Migration = (db) => db.exec(DEFAULT_VERSION_STATUS);
