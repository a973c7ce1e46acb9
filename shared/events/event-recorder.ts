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
}

/**
 * Stores events durably, resolving only once each is stored. Events recorded in the same turn of the
 * event loop are written together (group commit): under load one write carries many requests'
 * events, and each request still answers only after its own event is stored. The requests of one
 * batch wait on the batch's one promise.
 */
export class EventRecorder {
  private open: Batch | undefined;

  /**
   * `stored` hears of each batch once it is stored, after its requests have their answer (webhooks'
   * download.recorded); `repeats` keeps the rule of customers' repeated downloads.
   */
  constructor(
    private readonly store: Store,
    private readonly stored?: (events: DistributionEvent[]) => void,
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
      setImmediate(() => {
        this.open = undefined;
        try {
          this.store.insertEvents(batch.events).then(() => {
            resolve();
            this.stored?.(batch.events);
          }, reject);
        } catch (error) {
          reject(error);
        }
      });
    });
    this.open = batch;
    return batch.stored;
  }
}
