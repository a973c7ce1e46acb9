import type { Migration } from './migration';

/**
 * Applications keep the keys they no longer sign with (JSON: kind, key, retiredAt in milliseconds);
 * versions record the keys their update signatures verified under.
 */
const SIGNING_KEY_HISTORY = `
ALTER TABLE applications ADD COLUMN retired_signing_keys TEXT NOT NULL DEFAULT '[]';
ALTER TABLE versions ADD COLUMN signed_minisign_key_id TEXT;
ALTER TABLE versions ADD COLUMN signed_sparkle_key TEXT;
`;

export const migration: Migration = (db) => db.exec(SIGNING_KEY_HISTORY);
