import { Schema } from 'mongoose';
import type { AuditEntry } from '../../models';
import { uniqueIndex } from '../unique-indexes';
import { collectionOptions } from './schema-options';

export type AuditEntryDoc = AuditEntry;

export const auditEntrySchema = new Schema<AuditEntryDoc>(
  {
    entryId: String,
    timestamp: Date,
    actor: String,
    action: String,
    target: String,
    applicationId: String,
    requestId: String,
    outcome: String,
    status: Number,
    details: Schema.Types.Mixed,
  },
  collectionOptions('auditLog'),
);
auditEntrySchema.index({ entryId: 1 }, uniqueIndex('unique_entryId'));

/**
 * The audit log's listing, one index per filter combination, each in log order. listAuditEntries
 * hints the one its filters need, so no listing scans the collection.
 */
export const AUDIT_LISTING_INDEXES = {
  all: { timestamp: -1, entryId: -1 },
  action: { action: 1, timestamp: -1, entryId: -1 },
  application: { applicationId: 1, timestamp: -1, entryId: -1 },
  applicationAndAction: { applicationId: 1, action: 1, timestamp: -1, entryId: -1 },
  actor: { actor: 1, timestamp: -1, entryId: -1 },
  target: { target: 1, timestamp: -1, entryId: -1 },
} as const;
for (const key of Object.values(AUDIT_LISTING_INDEXES)) auditEntrySchema.index(key);
