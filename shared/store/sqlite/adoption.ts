import { requireCount, requirePage } from '../bounds';
import { checkGroups, latestReports } from '../check-groups';
import type { AdoptionCount, CheckBatch, CheckEvent, CustomerAdoption, CustomerVersionSeen } from '../models';
import type { AdoptionCountQuery, Page, AdoptionStore, CheckWindow } from '../store';
import type { BackgroundWriter } from './background-writer';
import { CheckColumnsBuilder, checksIn, columnsFrom } from './check-columns';
import { decodeWindow, encodeWindow } from './check-windows';
import type { Row, SqliteDatabase } from './database';

/** A window's checks gathered as the columns they cross to the write thread in, and are stored as (check-windows.ts). */
class SqliteCheckWindow extends CheckColumnsBuilder implements CheckWindow {
  constructor(capacity: number, private readonly background: BackgroundWriter) {
    super(capacity);
  }

  write(): Promise<void> {
    return this.length === 0 ? Promise.resolve() : this.background.insertChecks(this.columns());
  }
}

/**
 * Update checks and their adoption counters. Check events are appended a window to a row
 * (check-windows.ts), and batches claimed (grouped on the write thread) and finished, through the
 * background writer (check-rollup.ts), as download events are written and folded. A batch is named
 * by the rollup position it starts from and the last check it holds: finishing it moves the position
 * in the same transaction as the counters, only when the position is still where the batch started,
 * so a batch is added once whoever finishes it.
 */
export class SqliteAdoption implements AdoptionStore {
  constructor(private readonly database: SqliteDatabase, private readonly background: BackgroundWriter) {}

  insertCheckEvents(events: CheckEvent[]): Promise<void> {
    const window = this.openCheckWindow(Math.max(1, events.length));
    for (const event of events) window.push(event);
    return window.write();
  }

  openCheckWindow(capacity: number): CheckWindow {
    requireCount('capacity', capacity);
    return new SqliteCheckWindow(capacity, this.background);
  }

  async claimCheckBatch(limit: number): Promise<CheckBatch | null> {
    requireCount('limit', limit);
    const claimed = await this.background.claimChecks(limit);
    if (!claimed) return null;
    const tallies = claimed.tallies.map(([applicationId, day, channel, platform, arch, runningVersion, installHash, customerId, checks, lastAtMs]) => (
      { applicationId, day, channel, platform, arch, runningVersion, installHash, customerId, checks, lastAtMs }
    ));
    return { batchId: claimed.batchId, checks: claimed.checks, groups: checkGroups(tallies), reports: latestReports(tallies) };
  }

  finishCheckBatch(batchId: string, counts: AdoptionCount[], seen: CustomerVersionSeen[]): Promise<boolean> {
    return this.background.finishChecks(
      batchId,
      counts.map((c) => [c.applicationId, c.channel, c.platform, c.arch, c.date, c.version, c.checks, c.installs]),
      seen.map((s) => [s.applicationId, s.customerId, s.version, s.lastReportedAt.getTime()]),
    );
  }

  /**
   * Oldest windows first, each losing its oldest checks while they are rolled up and older than the
   * cut-off: a window is deleted when none is left, else rewritten from its first check kept (so its
   * checks keep their numbers). A window's checks are in the order answered, so a check is at most a
   * window's span late for its purge.
   */
  async purgeCheckEvents(before: Date, limit: number): Promise<number> {
    requireCount('limit', limit);
    const cutOff = before.getTime();
    const purge = this.database.db.transaction((): number => {
      // Only checks the rollup has counted and the update funnel has read: an old check still waiting is read first.
      const position = Math.min(this.position(), this.funnelPosition());
      const windows = this.database.prepare(
        'SELECT first_seq, body FROM check_windows WHERE first_seq <= ? AND first_ts < ? ORDER BY first_seq LIMIT ?',
      ).all(position, cutOff, limit) as { first_seq: number; body: Buffer }[];
      let purged = 0;
      for (const window of windows) {
        const columns = decodeWindow(window.body);
        const checks = checksIn(columns);
        let gone = 0;
        while (gone < checks && purged + gone < limit && window.first_seq + gone <= position && columns.timestamps[gone] < cutOff) gone += 1;
        if (gone === checks) {
          this.database.prepare('DELETE FROM check_windows WHERE first_seq = ?').run(window.first_seq);
        } else if (gone > 0) {
          const kept = columnsFrom(columns, gone);
          this.database.prepare('UPDATE check_windows SET first_seq = ?, checks = ?, first_ts = ?, body = ? WHERE first_seq = ?')
            .run(window.first_seq + gone, checks - gone, kept.timestamps[0], encodeWindow(kept), window.first_seq);
        }
        purged += gone;
        if (purged >= limit) break;
      }
      return purged;
    });
    return purge.immediate();
  }

  async listAdoptionCounts(applicationId: string, query: AdoptionCountQuery): Promise<AdoptionCount[]> {
    const rows = this.database.prepare(
      `SELECT * FROM adoption_counts WHERE application_id = ? AND channel = ? AND platform = ? AND arch = ? AND date BETWEEN ? AND ?
       ORDER BY date, version`,
    ).all(applicationId, query.channel, query.platform, query.arch, query.from, query.to) as Row[];
    return rows.map((row) => ({
      applicationId: row.application_id as string,
      date: row.date as string,
      channel: row.channel as string,
      platform: row.platform as string,
      arch: row.arch as string,
      version: row.version as string,
      checks: row.checks as number,
      installs: row.installs as number,
    }));
  }

  async listCustomerAdoption(applicationId: string, page: number, pageSize: number): Promise<Page<CustomerAdoption>> {
    requirePage(page, pageSize);
    const total = (this.database.prepare('SELECT count(DISTINCT customer_id) AS n FROM customer_versions WHERE application_id = ?')
      .get(applicationId) as { n: number }).n;
    const customers = this.database.prepare(
      'SELECT DISTINCT customer_id FROM customer_versions WHERE application_id = ? ORDER BY customer_id LIMIT ? OFFSET ?',
    ).all(applicationId, pageSize, (page - 1) * pageSize) as { customer_id: string }[];
    const versionsOf = this.database.prepare(
      'SELECT version, last_reported_at FROM customer_versions WHERE application_id = ? AND customer_id = ? ORDER BY last_reported_at DESC, version',
    );
    const items = customers.map(({ customer_id: customerId }) => ({
      customerId,
      versions: (versionsOf.all(applicationId, customerId) as { version: string; last_reported_at: number }[])
        .map((row) => ({ version: row.version, lastReportedAt: new Date(row.last_reported_at) })),
    }));
    return { items, total };
  }

  private funnelPosition(): number {
    return (this.database.prepare('SELECT last_seq FROM funnel_check_state WHERE id = 1').get() as { last_seq: number } | undefined)?.last_seq ?? 0;
  }

  private position(): number {
    return (this.database.prepare('SELECT last_seq FROM check_rollup_state WHERE id = 1').get() as { last_seq: number } | undefined)?.last_seq ?? 0;
  }
}
