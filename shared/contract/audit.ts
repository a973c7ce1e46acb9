import { z } from 'zod';
import { AUDIT_OUTCOMES, type AuditEntry } from '../store/models';
import { iso, timestamp } from './common';
import { rolloutDecisionDetails } from './rollouts';

export const auditEntryResponse = z.object({
  entryId: z.string(),
  timestamp,
  /** The admin key's id, or `root`. */
  actor: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  applicationId: z.string().nullable(),
  requestId: z.string(),
  outcome: z.enum(AUDIT_OUTCOMES),
  status: z.number().int().nullable(),
  /** Only for a rollout plan's automatic step or halt (actor `rollout-plan`): the figures and bar it was taken on. */
  details: rolloutDecisionDetails.optional(),
});

export function presentAuditEntry(entry: AuditEntry): z.input<typeof auditEntryResponse> {
  return {
    entryId: entry.entryId,
    timestamp: iso(entry.timestamp),
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    applicationId: entry.applicationId,
    requestId: entry.requestId,
    outcome: entry.outcome,
    status: entry.status,
    ...(entry.details ? { details: entry.details } : {}),
  };
}

/** One page of the audit log, newest first, and the cursor of the next. */
export interface AuditPage {
  entries: AuditEntry[];
  hasMore: boolean;
  nextCursor: string | null;
}

export const auditPageResponse = z.object({
  entries: z.array(auditEntryResponse),
  pagination: z.object({ hasMore: z.boolean(), nextCursor: z.string().nullable() }),
});

export function presentAuditPage(page: AuditPage): z.input<typeof auditPageResponse> {
  return { entries: page.entries.map(presentAuditEntry), pagination: { hasMore: page.hasMore, nextCursor: page.nextCursor } };
}
