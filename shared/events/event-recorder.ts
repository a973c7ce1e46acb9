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

interface Waiting {
  event: DistributionEvent;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Stores events durably, resolving only once each is stored. Events recorded in the same turn of the
 * event loop are written together (group commit): under load one write carries many requests'
 * events, and each request still answers only after its own event is stored.
 */
export class EventRecorder {
  private waiting: Waiting[] = [];

  constructor(private readonly store: Store) {}

  record(event: DistributionEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ event, resolve, reject });
      if (this.waiting.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    try {
      await this.store.insertEvents(batch.map((w) => w.event));
      for (const w of batch) w.resolve();
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }
}
