import type { Migration } from './migration';

/**
 * Sparkle's appcast: applications gain the Ed25519 key Sparkle signatures verify under, and versions
 * their bundle version, the oldest system they run on, and whether they are critical.
 */
const SPARKLE_FIELDS = `
ALTER TABLE applications ADD COLUMN sparkle_public_key TEXT;
ALTER TABLE versions ADD COLUMN bundle_version TEXT;
ALTER TABLE versions ADD COLUMN minimum_system_version TEXT;
ALTER TABLE versions ADD COLUMN critical INTEGER NOT NULL DEFAULT 0;
`;

// A NOCASE index serves a case-insensitive LIKE 'prefix%' on the name (and the id); a customer's share links are listed newest first.

export const migration: Migration = (db) => db.exec(SPARKLE_FIELDS);
