import { requireCount } from '../bounds';
import type { AuditEntry } from '../models';
import type { AuditQuery, AuditSettlement, AuditStore } from '../store';
import type { Row, SqliteDatabase } from './database';
import { auditEntryFromRow, toMillis } from './rows';

/** The audit log: one row per audited request, read newest first through the audit_feed indexes. */
export class SqliteAudit implements AuditStore {
  constructor(private readonly database: SqliteDatabase) {}

  async insertAuditEntry(entry: AuditEntry): Promise<AuditEntry> {
    this.database.write(() =>
      this.database.prepare(`INSERT INTO audit_log (entry_id, ts, actor, action, target, application_id, request_id, outcome, status, details)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(entry.entryId, toMillis(entry.timestamp), entry.actor, entry.action, entry.target, entry.applicationId,
          entry.requestId, entry.outcome, entry.status, entry.details ? JSON.stringify(entry.details) : null),
    );
    return entry;
  }

  async settleAuditEntry(entryId: string, settlement: AuditSettlement): Promise<void> {
    this.database.prepare(`UPDATE audit_log SET outcome = ?, status = ?, target = COALESCE(?, target), application_id = COALESCE(?, application_id)
      WHERE entry_id = ? AND outcome = 'pending'`)
      .run(settlement.outcome, settlement.status, settlement.target ?? null, settlement.applicationId ?? null, entryId);
  }

  async listAuditEntries(query: AuditQuery): Promise<AuditEntry[]> {
    requireCount('limit', query.limit);
    const { sql, params } = auditListing(query);
    return (this.database.prepare(sql).all(...params) as Row[]).map(auditEntryFromRow);
  }
}

/** The listing's statement: each combination of filters is served by an audit_feed index in log order. */
export function auditListing(query: AuditQuery): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (query.applicationId !== undefined) {
    where.push('application_id = ?');
    params.push(query.applicationId);
  }
  if (query.action !== undefined) {
    where.push('action = ?');
    params.push(query.action);
  }
  // Who and what: equalities leading their own indexes (audit_feed_actor, audit_feed_target).
  if (query.actor !== undefined) {
    where.push('actor = ?');
    params.push(query.actor);
  }
  if (query.target !== undefined) {
    where.push('target = ?');
    params.push(query.target);
  }
  // The period: a range on ts, which every audit_feed index holds right after its equalities.
  if (query.from !== undefined) {
    where.push('ts >= ?');
    params.push(query.from.getTime());
  }
  if (query.before !== undefined) {
    where.push('ts < ?');
    params.push(query.before.getTime());
  }
  if (query.after !== undefined) {
    // The row-value form lets SQLite seek the index to the position instead of scanning to it.
    where.push('(ts, entry_id) < (?, ?)');
    params.push(query.after.timestamp.getTime(), query.after.entryId);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  return { sql: `SELECT * FROM audit_log ${clause} ORDER BY ts DESC, entry_id DESC LIMIT ?`, params: [...params, query.limit] };
}
