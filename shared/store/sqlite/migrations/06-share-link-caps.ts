import type { Migration } from './migration';

/**
 * 6: share-link caps. A link may allow a number of uses (max_downloads, null for none), counted in
 * download_count by a conditional UPDATE. Links stored before have no cap.
 */
const SHARE_LINK_CAPS = `
ALTER TABLE share_links ADD COLUMN max_downloads INTEGER;
ALTER TABLE share_links ADD COLUMN download_count INTEGER NOT NULL DEFAULT 0;
`;

export const migration: Migration = (db) => db.exec(SHARE_LINK_CAPS);
