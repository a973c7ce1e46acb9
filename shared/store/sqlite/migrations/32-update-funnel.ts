import type { Migration } from './migration';

/**
 * The update funnel: each install a release was offered to (its first offer, its first arrival
 * after it), keyed by release and install; the funnel's position among the check windows' checks
 * (apart from the adoption rollup's); versions' rollout plans; and the reports apps send about updates.
 */
const UPDATE_FUNNEL = `
CREATE TABLE install_offers (
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  install_key TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  arch TEXT NOT NULL,
  channel TEXT NOT NULL,
  offered_at INTEGER NOT NULL,
  arrived_at INTEGER,
  PRIMARY KEY (application_id, version, install_key)
) WITHOUT ROWID;
CREATE TABLE funnel_check_state (id INTEGER PRIMARY KEY CHECK (id = 1), last_seq INTEGER NOT NULL);
CREATE TABLE rollout_plans (
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  plan TEXT NOT NULL,
  status TEXT NOT NULL,
  step INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  halted_at INTEGER,
  halt_reason TEXT,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (application_id, version)
);
CREATE INDEX rollout_plans_running ON rollout_plans (application_id, version) WHERE status = 'running';
CREATE TABLE update_reports (
  report_id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  install_id TEXT,
  from_version TEXT NOT NULL,
  to_version TEXT NOT NULL,
  event TEXT NOT NULL,
  message TEXT,
  received_at INTEGER NOT NULL
);
CREATE INDEX update_reports_by_release ON update_reports (application_id, to_version, event, message);
`;

export const migration: Migration = (db) => db.exec(UPDATE_FUNNEL);
