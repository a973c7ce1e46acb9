import type { Arch, Platform } from '../../releases/platforms';
import { requireCount } from '../bounds';
import type { DailyCount, DistributionEvent, DownloadBreakdown, ReleaseDownload } from '../models';
import type { ActivityQuery, DailyCountQuery, ActivityStore } from '../store';
import type { BackgroundWriter } from './background-writer';
import type { Row, SqliteDatabase } from './database';
import { eventFromRow } from './rows';

/** Events and their daily counters. Writes go through the background writer; reads use the serving connection. */
export class SqliteActivity implements ActivityStore {
  constructor(private readonly database: SqliteDatabase, private readonly background: BackgroundWriter) {}

  insertEvents(events: DistributionEvent[]): Promise<void> {
    return this.background.insertEvents(events);
  }

  async getEvent(eventId: string): Promise<DistributionEvent | null> {
    const row = this.database.prepare('SELECT * FROM events WHERE event_id = ?').get(eventId) as Row | undefined;
    return row ? eventFromRow(row) : null;
  }

  async listEvents(query: ActivityQuery): Promise<DistributionEvent[]> {
    requireCount('limit', query.limit);
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.type !== undefined) {
      where.push('type = ?');
      params.push(query.type);
    }
    if (query.applicationId !== undefined) {
      where.push('application_id = ?');
      params.push(query.applicationId);
    }
    if (query.after !== undefined) {
      // The row-value form lets SQLite seek the feed index to the position instead of scanning to it.
      where.push('(ts, event_id) < (?, ?)');
      params.push(query.after.timestamp.getTime(), query.after.eventId);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const rows = this.database.prepare(`SELECT * FROM events ${clause} ORDER BY ts DESC, event_id DESC LIMIT ?`)
      .all(...params, query.limit) as Row[];
    return rows.map(eventFromRow);
  }

  async rollupEvents(limit: number): Promise<number> {
    requireCount('limit', limit);
    return this.background.rollupEvents(limit);
  }

  /** The first download after the rollup position, found through the events' primary key (seq). */
  async oldestUncountedEventAt(): Promise<Date | null> {
    const row = this.database.prepare(
      `SELECT ts FROM events WHERE seq > (SELECT coalesce(max(last_seq), 0) FROM rollup_state) AND type = 'download' ORDER BY seq LIMIT 1`,
    ).get() as { ts: number } | undefined;
    return row ? new Date(row.ts) : null;
  }

  /** Through the partial index events_release_downloads; the row value seeks it to the position. */
  async listReleaseDownloads(applicationId: string, version: string, range: { from: Date; to: Date }, after: ReleaseDownload | null, limit: number): Promise<ReleaseDownload[]> {
    requireCount('limit', limit);
    const position = after ? 'AND (customer_id, ts, event_id) > (?, ?, ?)' : '';
    const rows = this.database.prepare(
      `SELECT customer_id, ts, event_id FROM events INDEXED BY events_release_downloads
       WHERE application_id = ? AND version = ? AND type = 'download' AND customer_id IS NOT NULL AND ts >= ? AND ts <= ? ${position}
       ORDER BY customer_id, ts, event_id LIMIT ?`,
    ).all(
      applicationId, version, range.from.getTime(), range.to.getTime(),
      ...(after ? [after.customerId, after.at.getTime(), after.eventId] : []), limit,
    ) as { customer_id: string; ts: number; event_id: string }[];
    return rows.map((row) => ({ customerId: row.customer_id, eventId: row.event_id, at: new Date(row.ts) }));
  }

  async listDailyCounts(applicationId: string, query: DailyCountQuery): Promise<DailyCount[]> {
    const { where, params } = dailySelection(applicationId, query);
    const rows = this.database.prepare(
      `SELECT application_id, version, platform, date, count FROM daily_counts WHERE ${where.join(' AND ')} ORDER BY date DESC, version, platform`,
    ).all(...params) as Row[];
    return rows.map((r) => ({
      applicationId: r.application_id as string,
      version: r.version as string,
      platform: r.platform as Platform,
      date: r.date as string,
      count: r.count as number,
    }));
  }

  async listDownloadBreakdown(applicationId: string, query: DailyCountQuery, topCustomers: number): Promise<DownloadBreakdown> {
    requireCount('limit', topCustomers);
    const { where, params } = dailySelection(applicationId, query);
    // Both read through their primary keys' (application_id, date, ...) prefix: the period's counters only.
    const archs = this.database.prepare(
      `SELECT arch, sum(count) AS count FROM daily_arch_counts WHERE ${where.join(' AND ')} GROUP BY arch`,
    ).all(...params) as { arch: Arch; count: number }[];
    const customers = this.database.prepare(
      `SELECT customer_id, sum(count) AS downloads FROM daily_customer_counts WHERE ${where.join(' AND ')}
       GROUP BY customer_id ORDER BY downloads DESC, customer_id LIMIT ?`,
    ).all(...params, topCustomers) as { customer_id: string; downloads: number }[];
    return {
      byArch: Object.fromEntries(archs.filter((a) => a.count > 0).map((a) => [a.arch, a.count])),
      topCustomers: customers.map((c) => ({ customerId: c.customer_id, downloads: c.downloads })),
    };
  }
}

/** The WHERE clause selecting one application's daily counters (any of the counter tables) by version, channel and period. */
function dailySelection(applicationId: string, query: DailyCountQuery): { where: string[]; params: unknown[] } {
  const where = ['application_id = ?'];
  const params: unknown[] = [applicationId];
  if (query.version !== undefined) {
    where.push('version = ?');
    params.push(query.version);
  }
  if (query.channel !== undefined) {
    // A version's channel is read now: its downloads count in the channel it is in, wherever it was before.
    where.push('version IN (SELECT version FROM versions WHERE application_id = ? AND channel = ?)');
    params.push(applicationId, query.channel);
  }
  if (query.from !== undefined) {
    where.push('date >= ?');
    params.push(query.from);
  }
  if (query.to !== undefined) {
    where.push('date <= ?');
    params.push(query.to);
  }
  return { where, params };
}
