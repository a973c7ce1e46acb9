import { createHash } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import type Database from 'better-sqlite3';
import { CHECK_CODED_FIELDS, CheckColumns, checkEventsOf, textOffsetOf } from '../check-columns';

/**
 * Raw update checks are stored a window to a row (table check_windows, schema.ts): the checks one
 * write of a gateway carried (up to CHECK_WRITE_GROUP_MAX_ITEMS, policy.ts), as the columns they
 * crossed to the write thread in. A row per check cost the write thread a B-tree insert, its index entries and its
 * WAL bytes for every check, more than the whole rest of recording it (see bench/README.md); a window
 * costs one row for hundreds of checks.
 *
 * Each check keeps a number (its "seq"): a window holds first_seq .. first_seq + checks - 1, numbers
 * only grow, and the adoption rollup's position is the number of the last check it folded, as it was
 * when checks had a row each. The body is V8's serialization of the columns: typed arrays are copied
 * as they are, and V8 reads every earlier version of its format (browsers keep IndexedDB data in it).
 */
export function encodeWindow(columns: CheckColumns): Buffer {
  return serialize(columns);
}

export function decodeWindow(body: Buffer): CheckColumns {
  return deserialize(body) as CheckColumns;
}

export function checksIn(columns: CheckColumns): number {
  return columns.timestamps.length;
}

/**
 * What names a window's checks: the digest of their event ids (each unique), install hashes and
 * install ids. The same checks written again (a retried write) are stored once.
 */
export function windowKey(columns: CheckColumns): string {
  return createHash('sha256').update(columns.text).digest('base64url');
}

/** The checks of a window from the `from`-th on (a purge removes a window's oldest checks). */
export function columnsFrom(columns: CheckColumns, from: number): CheckColumns {
  return {
    values: columns.values,
    codes: columns.codes.slice(CHECK_CODED_FIELDS * from),
    text: columns.text.slice(textOffsetOf(columns, from)),
    lengths: columns.lengths.slice(from * 3),
    timestamps: columns.timestamps.slice(from),
  };
}

/** The number the next window's first check takes: after every check stored, and after the rollup position. */
function prepareNextSeq(db: Database.Database): () => number {
  const lastWindow = db.prepare('SELECT first_seq + checks AS next FROM check_windows ORDER BY first_seq DESC LIMIT 1');
  const position = db.prepare('SELECT last_seq FROM check_rollup_state WHERE id = 1');
  return () => Math.max(
    (lastWindow.get() as { next: number } | undefined)?.next ?? 1,
    ((position.get() as { last_seq: number } | undefined)?.last_seq ?? 0) + 1,
  );
}

/** Stores a window of checks, numbered after every check stored; a window already stored is skipped. */
export function prepareWindowInsert(db: Database.Database): (columns: CheckColumns) => void {
  const nextSeq = prepareNextSeq(db);
  const insert = db.prepare('INSERT INTO check_windows (first_seq, checks, first_ts, window_key, body) VALUES (?, ?, ?, ?, ?) ON CONFLICT (window_key) DO NOTHING');
  return (columns) => {
    const checks = checksIn(columns);
    if (checks > 0) insert.run(nextSeq(), checks, columns.timestamps[0], windowKey(columns), encodeWindow(columns));
  };
}

/** A stored check as a row with the columns' names (seq included): for tools and tests that read the raw checks. */
export type StoredCheck = Record<'seq' | 'event_id' | 'application_id' | 'customer_id' | 'client' | 'platform' | 'arch' | 'channel'
  | 'running_version' | 'offered_version' | 'install_id' | 'install_hash' | 'ts', string | number | null>;

/** Every stored check, in the order stored. */
export function readStoredChecks(db: Database.Database): StoredCheck[] {
  const checks: StoredCheck[] = [];
  for (const window of db.prepare('SELECT first_seq, body FROM check_windows ORDER BY first_seq').iterate() as Iterable<{ first_seq: number; body: Buffer }>) {
    checkEventsOf(decodeWindow(window.body)).forEach((e, i) => checks.push({
      seq: window.first_seq + i, event_id: e.eventId, application_id: e.applicationId, customer_id: e.customerId, client: e.client,
      platform: e.platform, arch: e.arch, channel: e.channel, running_version: e.runningVersion, offered_version: e.offeredVersion,
      install_id: e.installId, install_hash: e.installHash, ts: e.timestamp.getTime(),
    }));
  }
  return checks;
}
