import type { Migration } from './migration';

/** Applications gain a logo for the customer portal: what its stored bytes are (null columns: none). */
const APPLICATION_LOGOS = `
ALTER TABLE applications ADD COLUMN logo_content_type TEXT;
ALTER TABLE applications ADD COLUMN logo_size INTEGER;
ALTER TABLE applications ADD COLUMN logo_sha256 TEXT;
ALTER TABLE applications ADD COLUMN logo_updated_at INTEGER;
`;

export const migration: Migration = (db) => db.exec(APPLICATION_LOGOS);
