import type Database from 'better-sqlite3';
import { CheckColumns, checksIn, FieldPositions, forEachCheckHash, positionsOf } from './check-columns';
import { decodeWindow } from './check-windows';
import { DAY_MS } from '../../durations';

/** A counter's values in column order, as they cross to the write thread. */
export type CountRow = [applicationId: string, channel: string, platform: string, arch: string, date: string, version: string, checks: number, installs: number];
/** A customer's report in column order. */
export type SeenRow = [applicationId: string, customerId: string, version: string, lastReportedAtMs: number];

/**
 * A claimed batch's checks of one (application, day, selection, install hash, customer): the columns
 * the claim groups by, then how many and the latest one's time.
 */
export type TallyRow = [
  applicationId: string, day: number, channel: string, platform: string, arch: string, runningVersion: string, installHash: string, customerId: string,
  checks: number, lastAtMs: number,
];

/** A window's checks of one install, day and selection: where the first one's codes are, and the batch's tally they count in. */
interface WindowTally {
  day: number;
  at: number;
  tally: TallyRow;
  /** The install's other (day, selection) in this window: rare. */
  next: WindowTally | undefined;
}

/** Whether two checks of a window (their first codes' indices) have the same application, customer, channel, platform, arch and running version. */
function sameSelection(codes: Uint32Array, p: FieldPositions, a: number, b: number): boolean {
  const same = (field: number): boolean => field < 0 || codes[a + field] === codes[b + field];
  return same(p.applicationId) && same(p.customerId) && same(p.channel) && same(p.platform) && same(p.arch) && same(p.runningVersion);
}

/** A batch's checks counted by (application, day, selection, install hash, customer), as the claim gives them. */
class CheckTallies {
  checks = 0;
  private readonly byKey = new Map<string, TallyRow>();

  /**
   * Counts a window's checks from the `from`-th to before the `to`-th. Within a window each value is
   * a code: a check is matched by its install hash, then by day and codes (an install checks with one
   * selection, nearly always), and the strings are joined into the batch's key once per install and
   * selection in the window, not per check.
   */
  addWindow(columns: CheckColumns, from: number, to: number): void {
    const { values, codes } = columns;
    // Each field where the window's layout has it (a field it does not hold reads as null).
    const p = positionsOf(columns.layout);
    const value = (at: number, field: number): string => (field < 0 ? null : values[codes[at + field]]) as string;
    const byInstall = new Map<string, WindowTally>();
    forEachCheckHash(columns, (installHash, ts, at) => {
      const day = Math.floor(ts / DAY_MS);
      const first = byInstall.get(installHash);
      for (let seen = first; seen; seen = seen.next) {
        if (seen.day === day && sameSelection(codes, p, seen.at, at)) {
          count(seen.tally, 1, ts);
          return;
        }
      }
      // A selection first seen in this window: its tally is the batch's, found or started by the strings once.
      const tally = this.tallyOf(
        value(at, p.applicationId), day, value(at, p.channel), value(at, p.platform), value(at, p.arch),
        value(at, p.runningVersion), installHash, value(at, p.customerId),
      );
      count(tally, 1, ts);
      byInstall.set(installHash, { day, at, tally, next: first });
    }, from, to);
    this.checks += to - from;
  }

  private tallyOf(
    applicationId: string, day: number, channel: string, platform: string, arch: string, runningVersion: string, installHash: string, customerId: string,
  ): TallyRow {
    // NUL cannot occur in ids, versions, channels, platforms or archs (the validation refuses it).
    const key = `${applicationId}\0${day}\0${channel}\0${platform}\0${arch}\0${runningVersion}\0${installHash}\0${customerId}`;
    let tally = this.byKey.get(key);
    if (!tally) {
      tally = [applicationId, day, channel, platform, arch, runningVersion, installHash, customerId, 0, 0];
      this.byKey.set(key, tally);
    }
    return tally;
  }

  rows(): TallyRow[] {
    return [...this.byKey.values()];
  }
}

function count(tally: TallyRow, checks: number, lastAtMs: number): void {
  tally[8] += checks;
  if (tally[9] < lastAtMs) tally[9] = lastAtMs;
}

/** A claimed batch as its tallies: what the fold needs, without a row per check. */
export interface ClaimedChecks {
  batchId: string;
  checks: number;
  tallies: TallyRow[];
}

export interface CheckRollup {
  /**
   * Up to `limit` checks after the rollup position, grouped on this connection's thread, and the batch
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
  // The window holding the first check after the position (or an earlier one), then the windows after it.
  const windowAt = db.prepare('SELECT max(first_seq) AS first FROM check_windows WHERE first_seq <= ?');
  const windowsFrom = db.prepare('SELECT first_seq, body FROM check_windows WHERE first_seq >= ? ORDER BY first_seq');
  // One read transaction: the windows read are the ones the batch names. The checks are grouped here,
  // on the write thread: the event loop and the copy between threads see one row per (day,
  // selection, install), not per check (an install hash is keyed with its customer, so the customer
  // adds no rows but gives the reports).
  const claim = db.transaction((limit: number): ClaimedChecks | null => {
    const from = at();
    const first = (windowAt.get(from + 1) as { first: number | null }).first ?? from + 1;
    const tallies = new CheckTallies();
    let last = from;
    for (const window of windowsFrom.iterate(first) as Iterable<{ first_seq: number; body: Buffer }>) {
      const columns = decodeWindow(window.body);
      const start = Math.max(0, last + 1 - window.first_seq);
      const end = Math.min(checksIn(columns), start + limit - tallies.checks);
      if (start >= end) continue;
      tallies.addWindow(columns, start, end);
      last = window.first_seq + end - 1;
      if (tallies.checks >= limit) break;
    }
    return tallies.checks === 0 ? null : { batchId: `${from}-${last}`, checks: tallies.checks, tallies: tallies.rows() };
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
