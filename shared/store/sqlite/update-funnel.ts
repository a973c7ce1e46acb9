import { requireCount } from '../bounds';
import { checkEventsOf, checksIn, columnsFrom } from './check-columns';
import type { CheckEvent, FailureMessageCount, FunnelCheckBatch, InstallArrival, InstallOfferRecord, UpdateReport } from '../models';
import type { UpdateFunnelStore } from '../store';
import { decodeWindow } from './check-windows';
import type { Row, SqliteDatabase } from './database';

/**
 * The update funnel on SQLite. Its position is the number of the last check it read, as the adoption
 * rollup's is (check-windows.ts numbers checks across windows); a batch is named `<from>-<last>` and
 * finishing it moves the position only when it is still at `from`. Offers keep their earliest time
 * and arrivals their earliest after the offer, by conditional upserts, so a batch folded twice
 * changes nothing.
 */
export class SqliteUpdateFunnel implements UpdateFunnelStore {
  constructor(private readonly database: SqliteDatabase) {}

  async readFunnelChecks(limit: number): Promise<FunnelCheckBatch | null> {
    requireCount('limit', limit);
    const read = this.database.db.transaction((): FunnelCheckBatch | null => {
      const from = this.position();
      const first = (this.database.prepare('SELECT max(first_seq) AS first FROM check_windows WHERE first_seq <= ?').get(from + 1) as { first: number | null })
        .first ?? from + 1;
      const events: CheckEvent[] = [];
      let last = from;
      const windows = this.database.prepare('SELECT first_seq, body FROM check_windows WHERE first_seq >= ? ORDER BY first_seq')
        .iterate(first) as Iterable<{ first_seq: number; body: Buffer }>;
      for (const window of windows) {
        const columns = decodeWindow(window.body);
        const start = Math.max(0, last + 1 - window.first_seq);
        const end = Math.min(checksIn(columns), start + limit - events.length);
        if (start >= end) continue;
        events.push(...checkEventsOf(columnsFrom(columns, start)).slice(0, end - start));
        last = window.first_seq + end - 1;
        if (events.length >= limit) break;
      }
      return events.length === 0 ? null : { position: `${from}-${last}`, events };
    });
    return read();
  }

  async finishFunnelChecks(position: string): Promise<void> {
    const [from, last] = position.split('-').map(Number);
    const finish = this.database.db.transaction(() => {
      if (this.position() !== from) return;
      this.database.prepare('INSERT INTO funnel_check_state (id, last_seq) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET last_seq = excluded.last_seq').run(last);
    });
    finish.immediate();
  }

  async recordOffers(offers: readonly Omit<InstallOfferRecord, 'arrivedAt'>[]): Promise<void> {
    const insert = this.database.prepare(
      `INSERT INTO install_offers (application_id, version, install_key, customer_id, platform, arch, channel, offered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (application_id, version, install_key) DO UPDATE SET offered_at = excluded.offered_at WHERE excluded.offered_at < offered_at`,
    );
    this.database.db.transaction(() => {
      for (const o of offers) insert.run(o.applicationId, o.version, o.installKey, o.customerId, o.platform, o.arch, o.channel, o.offeredAt.getTime());
    })();
  }

  async recordArrivals(arrivals: readonly InstallArrival[]): Promise<void> {
    const arrive = this.database.prepare(
      `UPDATE install_offers SET arrived_at = @at
       WHERE application_id = @applicationId AND version = @version AND install_key = @installKey AND offered_at <= @at AND (arrived_at IS NULL OR arrived_at > @at)`,
    );
    this.database.db.transaction(() => {
      for (const a of arrivals) arrive.run({ at: a.at.getTime(), applicationId: a.applicationId, version: a.version, installKey: a.installKey });
    })();
  }

  async listInstallOffers(applicationId: string, version: string, afterInstallKey: string | null, limit: number): Promise<InstallOfferRecord[]> {
    requireCount('limit', limit);
    const rows = this.database.prepare(
      `SELECT * FROM install_offers WHERE application_id = ? AND version = ? AND install_key > ? ORDER BY install_key LIMIT ?`,
    ).all(applicationId, version, afterInstallKey ?? '', limit) as Row[];
    return rows.map((row) => ({
      applicationId: row.application_id as string, version: row.version as string, installKey: row.install_key as string,
      customerId: row.customer_id as string, platform: row.platform as string, arch: row.arch as string, channel: row.channel as string,
      offeredAt: new Date(row.offered_at as number), arrivedAt: row.arrived_at === null ? null : new Date(row.arrived_at as number),
    }));
  }

  async insertUpdateReport(r: UpdateReport): Promise<void> {
    this.database.write(() => this.database.prepare(
      `INSERT INTO update_reports (report_id, application_id, customer_id, install_id, from_version, to_version, event, message, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(r.reportId, r.applicationId, r.customerId, r.installId, r.fromVersion, r.toVersion, r.event, r.message, r.receivedAt.getTime()));
  }

  async purgeUpdateReports(before: Date, limit: number): Promise<number> {
    requireCount('limit', limit);
    return this.database.write(() => this.database.prepare(
      'DELETE FROM update_reports WHERE report_id IN (SELECT report_id FROM update_reports WHERE received_at < ? ORDER BY received_at LIMIT ?)',
    ).run(before.getTime(), limit).changes);
  }

  async countFailureReports(applicationId: string, version: string): Promise<number> {
    return (this.database.prepare(
      `SELECT count(*) AS n FROM update_reports WHERE application_id = ? AND to_version = ? AND event IN ('download_failed', 'install_failed')`,
    ).get(applicationId, version) as { n: number }).n;
  }

  async topFailureMessages(applicationId: string, version: string, limit: number): Promise<FailureMessageCount[]> {
    requireCount('limit', limit);
    return this.database.prepare(
      `SELECT message, count(*) AS reports FROM update_reports
       WHERE application_id = ? AND to_version = ? AND event IN ('download_failed', 'install_failed') AND message IS NOT NULL
       GROUP BY message ORDER BY reports DESC, message LIMIT ?`,
    ).all(applicationId, version, limit) as FailureMessageCount[];
  }

  private position(): number {
    return (this.database.prepare('SELECT last_seq FROM funnel_check_state WHERE id = 1').get() as { last_seq: number } | undefined)?.last_seq ?? 0;
  }
}
