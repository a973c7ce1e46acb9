import type { Migration } from './migration';

/**
 * Applications gain a licence customers accept before downloading, and acceptances are kept per
 * revision (one row each: the first acceptance of a revision is the one kept).
 */
const LICENCE_ACCEPTANCES = `
ALTER TABLE applications ADD COLUMN licence_text TEXT;
ALTER TABLE applications ADD COLUMN licence_revision INTEGER;
CREATE TABLE licence_acceptances (
  application_id TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  revision INTEGER NOT NULL,
  accepted_at INTEGER NOT NULL,
  client_ip TEXT,
  PRIMARY KEY (application_id, customer_id, revision)
) WITHOUT ROWID;
`;

export const migration: Migration = (db) => db.exec(LICENCE_ACCEPTANCES);
