import type Database from 'better-sqlite3';
import type { DistributionEvent } from '../models';

/**
 * An event as the values of its row, in column order: what crosses to the background thread. An
 * array of strings and a number is copied between threads at a fraction of the cost of an object
 * with a Date.
 */
export type EventRow = [
  eventId: string, type: string, applicationId: string, version: string, fileId: string,
  customerId: string | null, clientIp: string | null, userAgent: string | null, timestampMs: number,
];

export function eventRow(e: DistributionEvent): EventRow {
  return [e.eventId, e.type, e.applicationId, e.version, e.fileId, e.customerId, e.clientIp, e.userAgent, e.timestamp.getTime()];
}

/** The store's two high-volume writes, prepared once on one connection. */
export interface EventWrites {
  /** Stores events in one transaction; an event id already stored is skipped. */
  insertEvents(rows: EventRow[]): void;
  /** Folds up to `limit` download events after the rollup position into the daily counters; returns how many. */
  rollupEvents(limit: number): number;
}

export function eventWrites(db: Database.Database): EventWrites {
  const insert = db.prepare(
    `INSERT INTO events (event_id, type, application_id, version, file_id, customer_id, client_ip, user_agent, ts)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING`,
  );
  const insertAll = db.transaction((rows: EventRow[]) => {
    for (const row of rows) insert.run(row);
  });

  const position = db.prepare('SELECT last_seq FROM rollup_state WHERE id = 1');
  // The next `limit` download events after the position, already counted per application, version
  // and UTC day by SQLite: a batch has thousands of events and only a handful of counters.
  const batchTotals = db.prepare(
    `SELECT application_id, version, strftime('%Y-%m-%d', ts / 1000, 'unixepoch') AS date, count(*) AS count, max(seq) AS last_seq
     FROM (SELECT seq, application_id, version, ts FROM events WHERE seq > ? AND type = 'download' ORDER BY seq LIMIT ?)
     GROUP BY application_id, version, date`,
  );
  const addCount = db.prepare(
    `INSERT INTO daily_counts (application_id, version, date, count) VALUES (?, ?, ?, ?)
     ON CONFLICT (application_id, date, version) DO UPDATE SET count = count + excluded.count`,
  );
  const movePosition = db.prepare('INSERT INTO rollup_state (id, last_seq) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET last_seq = excluded.last_seq');
  // One transaction reads the position and the batch after it, adds the batch to the counters and
  // moves the position: all or nothing, so a repeated or interrupted fold never counts twice.
  const fold = db.transaction((limit: number): number => {
    const from = (position.get() as { last_seq: number } | undefined)?.last_seq ?? 0;
    const totals = batchTotals.all(from, limit) as { application_id: string; version: string; date: string; count: number; last_seq: number }[];
    if (totals.length === 0) return 0;
    let folded = 0;
    let last = from;
    for (const t of totals) {
      addCount.run(t.application_id, t.version, t.date, t.count);
      folded += t.count;
      last = Math.max(last, t.last_seq);
    }
    movePosition.run(last);
    return folded;
  });

  return {
    insertEvents: (rows) => insertAll.immediate(rows),
    rollupEvents: (limit) => fold.immediate(limit),
  };
}
