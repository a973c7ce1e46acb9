import { newEventId } from '../ids';
import type { DistributionEvent, EventType, FileRecord } from '../store/models';
import type { Store } from '../store/store';

export interface EventOrigin {
  customerId: string | null;
  clientIp: string | null;
  userAgent: string | null;
}

/** Builds an event for a file; `eventId` may be fixed by the caller to make a retried write idempotent. */
export function buildEvent(type: EventType, file: FileRecord, origin: EventOrigin, at = new Date(), eventId = newEventId(at)): DistributionEvent {
  return {
    eventId,
    type,
    applicationId: file.applicationId,
    version: file.version,
    fileId: file.fileId,
    customerId: origin.customerId,
    clientIp: origin.clientIp,
    userAgent: origin.userAgent,
    timestamp: at,
  };
}

/** Stores an event durably; resolves only once it is stored. */
export class EventRecorder {
  constructor(private readonly store: Store) {}

  async record(event: DistributionEvent): Promise<void> {
    await this.store.insertEvents([event]);
  }
}
