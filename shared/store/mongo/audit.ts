import type { FilterQuery } from 'mongoose';
import { requireCount } from '../bounds';
import type { AuditEntry } from '../models';
import type { AuditQuery, AuditSettlement, AuditStore } from '../store';
import type { MongoModels } from './models';
import { definedFields } from './patches';
import { toAuditEntry } from './records';
import { AUDIT_LISTING_INDEXES, type AuditEntryDoc } from './schemas/audit';
import { guardDuplicates } from './unique-indexes';

export class MongoAudit implements AuditStore {
  constructor(private readonly models: MongoModels) {}

  async insertAuditEntry(entry: AuditEntry): Promise<AuditEntry> {
    await guardDuplicates(this.models.auditLog, () => this.models.auditLog.create(entry));
    return entry;
  }

  async settleAuditEntry(entryId: string, settlement: AuditSettlement): Promise<void> {
    await this.models.auditLog.updateOne({ entryId, outcome: 'pending' }, { $set: definedFields(settlement) });
  }

  async listAuditEntries(query: AuditQuery): Promise<AuditEntry[]> {
    requireCount('limit', query.limit);
    const filter: FilterQuery<AuditEntryDoc> = {};
    if (query.applicationId !== undefined) filter.applicationId = query.applicationId;
    if (query.action !== undefined) filter.action = query.action;
    if (query.actor !== undefined) filter.actor = query.actor;
    if (query.target !== undefined) filter.target = query.target;
    if (query.from !== undefined || query.before !== undefined) {
      filter.timestamp = { ...(query.from ? { $gte: query.from } : {}), ...(query.before ? { $lt: query.before } : {}) };
    }
    if (query.after !== undefined) {
      const { timestamp, entryId } = query.after;
      filter.$or = [{ timestamp: { $lt: timestamp } }, { timestamp, entryId: { $lt: entryId } }];
    }
    const docs = await this.models.auditLog
      .find(filter)
      .sort({ timestamp: -1, entryId: -1 })
      .hint(auditListingIndex(query))
      .limit(query.limit)
      .lean<AuditEntryDoc[]>();
    return docs.map(toAuditEntry);
  }
}

/** The index whose leading fields are the listing's filters and whose rest is the log order. */
export function auditListingIndex(query: Pick<AuditQuery, 'action' | 'applicationId' | 'actor' | 'target'>): Record<string, 1 | -1> {
  // A target names few entries, an actor fewer than the whole log: their indexes lead, the other filters are checked on the way.
  if (query.target !== undefined) return AUDIT_LISTING_INDEXES.target;
  if (query.actor !== undefined) return AUDIT_LISTING_INDEXES.actor;
  const byApplication = query.applicationId !== undefined;
  const byAction = query.action !== undefined;
  if (byApplication && byAction) return AUDIT_LISTING_INDEXES.applicationAndAction;
  if (byApplication) return AUDIT_LISTING_INDEXES.application;
  if (byAction) return AUDIT_LISTING_INDEXES.action;
  return AUDIT_LISTING_INDEXES.all;
}
