import type { Migration } from './migration';

/** 11: a SIGNATURE file's reason for no longer verifying under its application's key; none before. */
const SIGNATURE_PROBLEMS = `
ALTER TABLE files ADD COLUMN signature_problem TEXT;
`;

export const migration: Migration = (db) => db.exec(SIGNATURE_PROBLEMS);
