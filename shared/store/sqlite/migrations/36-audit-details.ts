import type { Migration } from './migration';

/** What an automatic change was decided on (JSON), for the rollout plans' steps and halts. */
const AUDIT_DETAILS = `
ALTER TABLE audit_log ADD COLUMN details TEXT;
`;

export const migration: Migration = (db) => db.exec(AUDIT_DETAILS);
