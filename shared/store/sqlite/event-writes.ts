import type Database from 'better-sqlite3';
import { utcDate } from '../dates';
import type { DailyCount, DistributionEvent } from '../models';

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
  const batchAfter = db.prepare(`SELECT seq, application_id, version, ts FROM events WHERE seq > ? AND type = 'download' ORDER BY seq LIMIT ?`);
  const addCount = db.prepare(
    `INSERT INTO daily_counts (application_id, version, date, count) VALUES (?, ?, ?, ?)
     ON CONFLICT (application_id, date, version) DO UPDATE SET count = count + excluded.count`,
  );
  const movePosition = db.prepare('INSERT INTO rollup_state (id, last_seq) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET last_seq = excluded.last_seq');
  // One transaction reads the position and the batch after it, adds the batch to the counters and
  // moves the position: all or nothing, so a repeated or interrupted fold never counts twice.
  const fold = db.transaction((limit: number): number => {
    const from = (position.get() as { last_seq: number } | undefined)?.last_seq ?? 0;
    const batch = batchAfter.all(from, limit) as { seq: number; application_id: string; version: string; ts: number }[];
    if (batch.length === 0) return 0;
    const totals = new Map<string, DailyCount>();
    for (const e of batch) {
      const day = utcDate(new Date(e.ts));
      const key = JSON.stringify([e.application_id, e.version, day]);
      const entry = totals.get(key) ?? { applicationId: e.application_id, version: e.version, date: day, count: 0 };
      entry.count += 1;
      totals.set(key, entry);
    }
    for (const t of totals.values()) addCount.run(t.applicationId, t.version, t.date, t.count);
    movePosition.run(batch[batch.length - 1].seq);
    return batch.length;
  });

  return {
    insertEvents: (rows) => insertAll.immediate(rows),
    rollupEvents: (limit) => fold.immediate(limit),
  };
}
