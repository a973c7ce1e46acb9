import type Database from 'better-sqlite3';

/** A counter's values in column order, as they cross to the write thread. */
export type CountRow = [applicationId: string, channel: string, platform: string, arch: string, date: string, version: string, checks: number, installs: number];
/** A customer's report in column order. */
export type SeenRow = [applicationId: string, customerId: string, version: string, lastReportedAtMs: number];

/**
 * A claimed batch's checks of one (application, day, selection, install hash, customer): the columns
 * of the claim's GROUP BY, then how many and the latest one's time.
 */
export type TallyRow = [
  applicationId: string, day: number, channel: string, platform: string, arch: string, runningVersion: string, installHash: string, customerId: string,
  checks: number, lastAtMs: number,
];

/** A claimed batch as its tallies: what the fold needs, without a row per check. */
export interface ClaimedChecks {
  batchId: string;
  checks: number;
  tallies: TallyRow[];
}

export interface CheckRollup {
  /**
   * Up to `limit` checks after the rollup position, grouped by SQLite on this connection, and the batch
   * id naming them (`<position>-<last seq>`); null when none.
   */
  claim(limit: number): ClaimedChecks | null;
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
  // The batch's bounds first, then its checks grouped in SQL, in one pass: the event loop and the
  // structured clone between threads see one row per (day, selection, install), not per check (an
  // install hash is keyed with its customer, so the customer adds no rows but gives the reports).
  const bounds = db.prepare('SELECT count(*) AS checks, max(seq) AS last FROM (SELECT seq FROM check_events WHERE seq > ? ORDER BY seq LIMIT ?)');
  const tallies = db.prepare(
    `SELECT application_id, ts / 86400000 AS day, channel, platform, arch, running_version, install_hash, customer_id, count(*), max(ts)
     FROM check_events WHERE seq > ? AND seq <= ? GROUP BY application_id, day, channel, platform, arch, running_version, install_hash, customer_id`,
  ).raw(true);
  // One read transaction: both reads see the same checks.
  const claim = db.transaction((limit: number): ClaimedChecks | null => {
    const from = at();
    const { checks, last } = bounds.get(from, limit) as { checks: number; last: number | null };
    if (checks === 0 || last === null) return null;
    return { batchId: `${from}-${last}`, checks, tallies: tallies.all(from, last) as TallyRow[] };
  });
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
    claim: (limit) => claim(limit),
    finish: (batchId, counts, seen) => {
      const [from, last] = batchId.split('-').map(Number);
      return finish.immediate(from, last, counts, seen);
    },
  };
}
