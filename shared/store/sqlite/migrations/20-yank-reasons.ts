import type { Migration } from './migration';

/** Why a version was yanked (null for every version yanked before it was kept). */
const YANK_REASONS = `
ALTER TABLE versions ADD COLUMN yank_reason TEXT;
`;

/**
 * Adoption analytics: every answered update check (no address stored: a keyed install hash), the
 * rollup position over them, the daily counters per (channel, platform, arch, version), each of which
 * may be '*' for all, and each customer's last reported versions.
 */

export const migration: Migration = (db) => db.exec(YANK_REASONS);
