import type { Migration } from './migration';

/** Update reports by the time they were received: those past their retention are purged oldest first. */
const UPDATE_REPORT_RETENTION = `
CREATE INDEX update_reports_received ON update_reports (received_at);
`;

export const migration: Migration = (db) => db.exec(UPDATE_REPORT_RETENTION);
