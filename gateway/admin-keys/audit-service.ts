import type { AuditPage } from '../../shared/contract/audit';
import { newEventId } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import type { Store } from '../../shared/store/store';
import type { AuditClosing, AuditOpening, AuditRecorder } from '../http/audit-step';
import type { AuditListQuery } from '../../shared/contract/audit-requests';
import { CursorFilters, decodeCursor, encodeCursor } from '../http/keyset-cursor';
import { DAY_MS } from '../../shared/durations';

/**
 * The audit log: entries opened and closed by the route builder (audit-step.ts) around every admin
 * write, and read newest first with a keyset cursor, like the activity feed.
 */
export class AuditService implements AuditRecorder {
  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
  ) {}

  async open(opening: AuditOpening): Promise<string> {
    const timestamp = new Date();
    // Time-ordered ids: entries opened by one process in the same millisecond list in the order they were opened.
    const entry = await this.store.audit.insertAuditEntry({ entryId: newEventId(timestamp), timestamp, ...opening, outcome: 'pending', status: null });
    return entry.entryId;
  }

  /** A close that fails leaves the entry pending: the write it records may have happened, and the log says it was attempted. */
  async close(entryId: string, closing: AuditClosing): Promise<void> {
    try {
      await this.store.audit.settleAuditEntry(entryId, closing);
    } catch (error) {
      this.logger.warn({ err: error, entryId, outcome: closing.outcome }, 'could not record the outcome of an audited request');
    }
  }

  async list(query: AuditListQuery): Promise<AuditPage> {
    const filters: CursorFilters = {
      action: query.action ?? null, app: query.applicationId ?? null, actor: query.actor ?? null, target: query.target ?? null,
      from: query.from ?? null, to: query.to ?? null,
    };
    const position = query.cursor === undefined ? undefined : decodeCursor(query.cursor, filters);
    const entries = await this.store.audit.listAuditEntries({
      action: query.action,
      applicationId: query.applicationId,
      actor: query.actor,
      target: query.target,
      // UTC days, `to` included.
      from: query.from === undefined ? undefined : new Date(`${query.from}T00:00:00.000Z`),
      before: query.to === undefined ? undefined : new Date(Date.parse(`${query.to}T00:00:00.000Z`) + DAY_MS),
      after: position && { timestamp: position.timestamp, entryId: position.id },
      limit: query.limit + 1,
    });
    const page = entries.slice(0, query.limit);
    const hasMore = entries.length > query.limit;
    const last = page[page.length - 1];
    return { entries: page, hasMore, nextCursor: hasMore && last ? encodeCursor({ timestamp: last.timestamp, id: last.entryId }, filters) : null };
  }
}
