import type Database from 'better-sqlite3';
import { CHECK_WRITE_GROUP_MAX_ITEMS } from '../../../policy';
import type { CheckEvent, UpdateClientFamily } from '../../models';
import { checkColumns, checksIn } from '../check-columns';
import { encodeWindow, windowKey } from '../check-windows';
import type { Migration } from './migration';

/**
 * Raw update checks move from a row each to a row per written window (check-windows.ts). The checks
 * stored keep their numbers: each run of consecutive numbers becomes windows of at most
 * CHECK_WRITE_GROUP_MAX_ITEMS checks, so the rollup position still names the last check folded.
 */
function checkWindows(db: Database.Database): void {
  db.exec(`
CREATE TABLE check_windows (
  first_seq INTEGER PRIMARY KEY,
  checks INTEGER NOT NULL,
  first_ts INTEGER NOT NULL,
  window_key TEXT NOT NULL UNIQUE,
  body BLOB NOT NULL
);
`);
  const insert = db.prepare('INSERT INTO check_windows (first_seq, checks, first_ts, window_key, body) VALUES (?, ?, ?, ?, ?)');
  let run: { firstSeq: number; checks: CheckEvent[] } | undefined;
  const store = (): void => {
    if (!run) return;
    const columns = checkColumns(run.checks);
    insert.run(run.firstSeq, checksIn(columns), columns.timestamps[0], windowKey(columns), encodeWindow(columns));
    run = undefined;
  };
  const add = (row: Record<string, string | number | null>): void => {
    const seq = row.seq as number;
    if (run && (run.firstSeq + run.checks.length !== seq || run.checks.length >= CHECK_WRITE_GROUP_MAX_ITEMS)) store();
    run ??= { firstSeq: seq, checks: [] };
    run.checks.push({
      eventId: row.event_id as string, applicationId: row.application_id as string, customerId: row.customer_id as string,
      client: row.client as UpdateClientFamily, platform: row.platform as string, arch: row.arch as string, channel: row.channel as string,
      runningVersion: row.running_version as string, offeredVersion: row.offered_version as string | null, installId: row.install_id as string | null,
      installHash: row.install_hash as string, timestamp: new Date(row.ts as number),
    } as CheckEvent);
  };
  // Read a page at a time: the connection cannot write while a read is open on it.
  const page = db.prepare('SELECT * FROM check_events WHERE seq > ? ORDER BY seq LIMIT 10000');
  for (let rows = page.all(0) as Record<string, string | number | null>[]; rows.length > 0; rows = page.all(rows[rows.length - 1].seq) as typeof rows) {
    for (const row of rows) add(row);
  }
  store();
  db.exec('DROP TABLE check_events');
}

export const migration: Migration = checkWindows;
