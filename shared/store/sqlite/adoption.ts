import type { Arch, Platform } from '../../releases/platforms';
import { requireCount, requirePage } from '../bounds';
import type { AdoptionCount, CheckBatch, CheckEvent, CustomerAdoption, CustomerVersionSeen, UpdateClientFamily } from '../models';
import type { AdoptionCountQuery, Page, Store } from '../store';
import type { BackgroundWriter } from './background-writer';
import type { Row, SqliteDatabase } from './database';

type AdoptionMethods = Pick<Store,
  'insertCheckEvents' | 'claimCheckBatch' | 'finishCheckBatch' | 'purgeCheckEvents' | 'listAdoptionCounts' | 'listCustomerAdoption'>;

/**
 * Update checks and their adoption counters. Check events are appended through the background
 * writer, as download events are. A batch is named by the rollup position it starts from and the
 * last event it holds: finishing it moves the position in the same transaction as the counters, only
 * when the position is still where the batch started, so a batch is added once whoever finishes it.
 */
export class SqliteAdoption implements AdoptionMethods {
  constructor(private readonly database: SqliteDatabase, private readonly background: BackgroundWriter) {}

  insertCheckEvents(events: CheckEvent[]): Promise<void> {
    return this.background.insertChecks(events);
  }

  async claimCheckBatch(limit: number): Promise<CheckBatch | null> {
    requireCount('limit', limit);
    const from = this.position();
    const rows = this.database.prepare('SELECT * FROM check_events WHERE seq > ? ORDER BY seq LIMIT ?').all(from, limit) as Row[];
    if (rows.length === 0) return null;
    const last = rows[rows.length - 1].seq as number;
    return { batchId: `${from}-${last}`, events: rows.map(checkEventFromRow) };
  }

  async finishCheckBatch(batchId: string, counts: AdoptionCount[], seen: CustomerVersionSeen[]): Promise<boolean> {
    const [from, last] = batchId.split('-').map(Number);
    const addCount = this.database.prepare(
      `INSERT INTO adoption_counts (application_id, channel, platform, arch, date, version, checks, installs) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (application_id, channel, platform, arch, date, version)
       DO UPDATE SET checks = checks + excluded.checks, installs = max(installs, excluded.installs)`,
    );
    const report = this.database.prepare(
      `INSERT INTO customer_versions (application_id, customer_id, version, last_reported_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (application_id, customer_id, version) DO UPDATE SET last_reported_at = max(last_reported_at, excluded.last_reported_at)`,
    );
    const movePosition = this.database.prepare(
      'INSERT INTO check_rollup_state (id, last_seq) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET last_seq = excluded.last_seq',
    );
    const finish = this.database.db.transaction((): boolean => {
      if (this.position() !== from) return false;
      for (const c of counts) addCount.run(c.applicationId, c.channel, c.platform, c.arch, c.date, c.version, c.checks, c.installs);
      for (const s of seen) report.run(s.applicationId, s.customerId, s.version, s.lastReportedAt.getTime());
      movePosition.run(last);
      return true;
    });
    return finish.immediate();
  }

  async purgeCheckEvents(before: Date, limit: number): Promise<number> {
    requireCount('limit', limit);
    // Only events the rollup has counted: an old event still waiting is counted first.
    return this.database.prepare(
      'DELETE FROM check_events WHERE seq IN (SELECT seq FROM check_events WHERE ts < ? AND seq <= ? ORDER BY ts LIMIT ?)',
    ).run(before.getTime(), this.position(), limit).changes;
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

  private position(): number {
    return (this.database.prepare('SELECT last_seq FROM check_rollup_state WHERE id = 1').get() as { last_seq: number } | undefined)?.last_seq ?? 0;
  }
}

function checkEventFromRow(row: Row): CheckEvent {
  return {
    eventId: row.event_id as string,
    applicationId: row.application_id as string,
    customerId: row.customer_id as string,
    client: row.client as UpdateClientFamily,
    platform: row.platform as Platform,
    arch: row.arch as Arch,
    channel: row.channel as string,
    runningVersion: row.running_version as string,
    offeredVersion: row.offered_version as string | null,
    installId: row.install_id as string | null,
    installHash: row.install_hash as string,
    timestamp: new Date(row.ts as number),
  };
}
