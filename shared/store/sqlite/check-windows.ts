import { createHash } from 'node:crypto';
import { DefaultSerializer, deserialize } from 'node:v8';
import type Database from 'better-sqlite3';
import { CheckColumns, CheckLayout, checkEventsOf, checksIn } from './check-columns';

/**
 * Raw update checks are stored a window to a row (table check_windows, schema.ts): the checks one
 * write of a gateway carried (up to CHECK_WRITE_GROUP_MAX_ITEMS, policy.ts), as the columns they
 * crossed to the write thread in. A row per check cost the write thread a B-tree insert, its index entries and its
 * WAL bytes for every check, more than the whole rest of recording it (see bench/README.md); a window
 * costs one row for hundreds of checks.
 *
 * Each check keeps a number (its "seq"): a window holds first_seq .. first_seq + checks - 1, numbers
 * only grow, and the adoption rollup's position is the number of the last check it folded, as it was
 * when checks had a row each.
 *
 * A body's first byte is its format (docs/check-recording.md), and every reader decodes through
 * decodeWindow, which gives the columns with the layout they were written in:
 * - WINDOW_FORMAT (1): the byte, then V8's serialization of the columns, their layout included
 *   (typed arrays are copied as they are; V8 reads every earlier version of its own format).
 * - the first windows, written before the byte: V8's serialization of the columns without a layout,
 *   so the body starts with V8's version tag (0xFF); their layout is FIRST_LAYOUT.
 * A window rewritten (a purge) is written in WINDOW_FORMAT with the layout it had.
 */
export const WINDOW_FORMAT = 1;
/** V8's serialization starts with its version tag: how a window written before the format byte begins. */
const V8_VERSION_TAG = 0xff;
/** The fields of the windows written before the format byte, in their order: as they were, whatever is coded later. */
const FIRST_LAYOUT: CheckLayout = Object.freeze({
  coded: Object.freeze(['applicationId', 'customerId', 'client', 'platform', 'arch', 'channel', 'runningVersion', 'offeredVersion']),
  texts: Object.freeze(['eventId', 'installHash', 'installId']),
});

export function encodeWindow(columns: CheckColumns): Buffer {
  const serializer = new DefaultSerializer();
  serializer.writeRawBytes(Buffer.of(WINDOW_FORMAT));
  serializer.writeHeader();
  serializer.writeValue(columns);
  return serializer.releaseBuffer();
}

export function decodeWindow(body: Buffer): CheckColumns {
  const format = body[0];
  if (format === WINDOW_FORMAT) return deserialize(body.subarray(1)) as CheckColumns;
  if (format === V8_VERSION_TAG) return { ...(deserialize(body) as Omit<CheckColumns, 'layout'>), layout: FIRST_LAYOUT };
  throw new Error(`a stored check window is in format ${format}, which this version does not read`);
}

/**
 * What names a window's checks: the digest of their texts (event ids, each unique, install hashes
 * and install ids). The same checks written again (a retried write) are stored once.
 */
export function windowKey(columns: CheckColumns): string {
  return createHash('sha256').update(columns.text).digest('base64url');
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
