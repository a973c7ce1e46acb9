import type { Migration } from './migration';

/** A release's downloads by customer and time: the update funnel links them to the installs offered the release. */
const RELEASE_DOWNLOADS = `
CREATE INDEX events_release_downloads ON events (application_id, version, customer_id, ts, event_id)
  WHERE type = 'download' AND customer_id IS NOT NULL;
`;

export const migration: Migration = (db) => db.exec(RELEASE_DOWNLOADS);
