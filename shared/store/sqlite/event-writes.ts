import type Database from 'better-sqlite3';
import type { DistributionEvent } from '../models';
import type { CheckColumns } from './check-columns';
import { prepareWindowInsert } from './check-windows';
import { prepareRollup } from './rollup';
import { CheckRollup, prepareCheckRollup } from './check-rollup';

/**
 * An event as the values of its row, in column order: what crosses to the background thread. An
 * array of strings and a number is copied between threads at a fraction of the cost of an object
 * with a Date.
 */
export type EventRow = [
  eventId: string, type: string, applicationId: string, version: string, fileId: string,
  customerId: string | null, clientIp: string | null, userAgent: string | null, timestampMs: number,
  platform: string, arch: string,
];

export function eventRow(e: DistributionEvent): EventRow {
  return [e.eventId, e.type, e.applicationId, e.version, e.fileId, e.customerId, e.clientIp, e.userAgent, e.timestamp.getTime(), e.platform, e.arch];
}

/** The store's high-volume writes, prepared once on one connection. */
export interface EventWrites {
  /** Stores events in one transaction; an event id already stored is skipped. */
  insertEvents(rows: EventRow[]): void;
  /** Stores a window of check events as one row (check-windows.ts); the same window written again is skipped. */
  insertChecks(checks: CheckColumns): void;
  /** The adoption rollup's claim and finish (check-rollup.ts). */
  checkRollup: CheckRollup;
  /** Folds up to `limit` download events after the rollup position into the daily counters (rollup.ts); returns how many. */
  rollupEvents(limit: number): number;
}

export function eventWrites(db: Database.Database): EventWrites {
  const insert = db.prepare(
    `INSERT INTO events (event_id, type, application_id, version, file_id, customer_id, client_ip, user_agent, ts, platform, arch)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING`,
  );
  const insertAll = db.transaction((rows: EventRow[]) => {
    for (const row of rows) insert.run(row);
  });

  const insertCheckWindow = db.transaction(prepareWindowInsert(db));

  return {
    insertEvents: (rows) => insertAll.immediate(rows),
    insertChecks: (checks) => insertCheckWindow.immediate(checks),
    rollupEvents: prepareRollup(db),
    checkRollup: prepareCheckRollup(db),
  };
}

