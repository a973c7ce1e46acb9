import type { Migration } from './migration';

/** 8: applications gain the minisign public key their update signatures are verified under; none before. */
const UPDATE_SIGNING_KEYS = `
ALTER TABLE applications ADD COLUMN update_signing_key TEXT;
`;

export const migration: Migration = (db) => db.exec(UPDATE_SIGNING_KEYS);
