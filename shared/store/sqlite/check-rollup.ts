import type Database from 'better-sqlite3';
import type { CheckRow } from './event-writes';

/** A counter's values in column order, as they cross to the write thread. */
export type CountRow = [applicationId: string, channel: string, platform: string, arch: string, date: string, version: string, checks: number, installs: number];
/** A customer's report in column order. */
export type SeenRow = [applicationId: string, customerId: string, version: string, lastReportedAtMs: number];

/**
 * A claimed check's values in the order of CheckRow, its seq last: arrays, not objects, are what the
 * claim builds and sends back from the write thread (half the cost per check of row objects).
 */
export type ClaimedCheckRow = [...CheckRow, seq: number];

export interface CheckRollup {
  /** Up to `limit` check rows after the rollup position, and the batch id naming them (`<position>-<last seq>`); null when none. */
  claim(limit: number): { batchId: string; rows: ClaimedCheckRow[] } | null;
  /** Adds a batch's counts and moves the position, in one transaction, only when the position is still where the batch started. */
  finish(batchId: string, counts: CountRow[], seen: SeenRow[]): boolean;
}

/**
 * Prepares, on one connection, the adoption rollup's two store steps (the write thread's, or the
 * serving connection's when that thread is gone): neither a batch's read nor its transaction runs
 * on the event loop that answers checks.
 */
export function prepareCheckRollup(db: Database.Database): CheckRollup {
  const position = db.prepare('SELECT last_seq FROM check_rollup_state WHERE id = 1');
  const at = (): number => (position.get() as { last_seq: number } | undefined)?.last_seq ?? 0;
  const batch = db.prepare(
    `SELECT event_id, application_id, customer_id, client, platform, arch, channel, running_version, offered_version, install_id, install_hash, ts, seq
     FROM check_events WHERE seq > ? ORDER BY seq LIMIT ?`,
  ).raw(true);
  const addCount = db.prepare(
    `INSERT INTO adoption_counts (application_id, channel, platform, arch, date, version, checks, installs) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (application_id, channel, platform, arch, date, version)
     DO UPDATE SET checks = checks + excluded.checks, installs = max(installs, excluded.installs)`,
  );
  const report = db.prepare(
    `INSERT INTO customer_versions (application_id, customer_id, version, last_reported_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (application_id, customer_id, version) DO UPDATE SET last_reported_at = max(last_reported_at, excluded.last_reported_at)`,
  );
  const movePosition = db.prepare('INSERT INTO check_rollup_state (id, last_seq) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET last_seq = excluded.last_seq');
  const finish = db.transaction((from: number, last: number, counts: CountRow[], seen: SeenRow[]): boolean => {
    if (at() !== from) return false;
    for (const count of counts) addCount.run(count);
    for (const row of seen) report.run(row);
    movePosition.run(last);
    return true;
  });
  return {
    claim: (limit) => {
      const from = at();
      const rows = batch.all(from, limit) as ClaimedCheckRow[];
      if (rows.length === 0) return null;
      return { batchId: `${from}-${rows[rows.length - 1][12]}`, rows };
    },
    finish: (batchId, counts, seen) => {
      const [from, last] = batchId.split('-').map(Number);
      return finish.immediate(from, last, counts, seen);
    },
  };
}
