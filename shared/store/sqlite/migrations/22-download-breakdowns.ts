import type { Migration } from './migration';

/**
 * Download counters per arch and per customer, beside daily_counts and filled by the same rollup
 * transaction. Keyed by version too, so the statistics' version and channel filters apply to them.
 * Downloads rolled up before this migration are in neither: these counters start at zero.
 */
const DOWNLOAD_BREAKDOWNS = `
CREATE TABLE daily_arch_counts (
  application_id TEXT NOT NULL,
  date TEXT NOT NULL,
  version TEXT NOT NULL,
  arch TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (application_id, date, version, arch)
);
CREATE TABLE daily_customer_counts (
  application_id TEXT NOT NULL,
  date TEXT NOT NULL,
  version TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (application_id, date, version, customer_id)
);
`;

export const migration: Migration = (db) => db.exec(DOWNLOAD_BREAKDOWNS);
