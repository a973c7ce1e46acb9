import { newEventId } from '../ids';
import { DEFAULT_ARCH, DEFAULT_PLATFORM } from '../releases/platforms';
import type { DistributionEvent, EventType, FileRecord } from '../store/models';
import type { Store } from '../store/store';
import { DownloadRepeats } from './download-repeats';

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
    platform: file.platform ?? DEFAULT_PLATFORM,
    arch: file.arch ?? DEFAULT_ARCH,
    timestamp: at,
  };
}

interface Batch {
  events: DistributionEvent[];
  stored: Promise<void>;
  write: () => void;
}

/**
 * Stores events durably, resolving only once each is stored. Events recorded in the same turn of the
 * event loop are written together (group commit), and while one write is in flight the next batch
 * goes on gathering until it settles: under load one write carries many requests' events (each write
 * costs a message to the store's write thread, which a profile of the download path found to be the
 * largest single cost on the event loop), and each request still answers only after its own event is
 * stored. The requests of one batch wait on the batch's one promise.
 */
export class EventRecorder {
  private open: Batch | undefined;
  private writing = false;

  /**
   * `storeBatch`, when given, stores each batch with what must be written with it (webhooks'
   * download.recorded: WebhookEvents.storeEvents) by calling the `store` it is handed; `repeats`
   * keeps the rule of customers' repeated downloads.
   */
  constructor(
    private readonly store: Store,
    private readonly storeBatch?: (events: DistributionEvent[], store: () => Promise<void>) => Promise<void>,
    private readonly repeats = new DownloadRepeats(),
  ) {}

  /**
   * A customer's download of a file: stored, unless a download of it by the same customer was counted
   * within the repeat window (a resumed or retried download), which the answer then waits for instead.
   * Without a customer every download is stored.
   */
  recordDownload(file: FileRecord, origin: EventOrigin): Promise<void> {
    const store = () => this.record(buildEvent('download', file, origin));
    return origin.customerId === null ? store() : this.repeats.once(origin.customerId, file.fileId, store);
  }

  record(event: DistributionEvent): Promise<void> {
    if (this.open) {
      this.open.events.push(event);
      return this.open.stored;
    }
    const batch = { events: [event] } as Batch;
    batch.stored = new Promise<void>((resolve, reject) => {
      batch.write = () => {
        this.open = undefined;
        this.writing = true;
        const insert = () => this.store.insertEvents(batch.events);
        const written = (async () => (this.storeBatch ? this.storeBatch(batch.events, insert) : insert()))();
        written.then(resolve, reject).finally(() => this.settled());
      };
    });
    this.open = batch;
    setImmediate(() => {
      if (!this.writing && this.open === batch) batch.write();
    });
    return batch.stored;
  }

  /** The write in flight has settled: the batch gathered meanwhile, if any, is written now. */
  private settled(): void {
    this.writing = false;
    this.open?.write();
  }
}
