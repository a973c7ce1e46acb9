import type { Migration } from './migration';

/** The version a yanked one is rolled back to (feeds offer it to installs running the yanked one). */
const ROLLBACKS = `
ALTER TABLE versions ADD COLUMN rollback_to TEXT;
`;

export const migration: Migration = (db) => db.exec(ROLLBACKS);
