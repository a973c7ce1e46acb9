import { newEventId } from '../ids';
import { CHECK_WRITE_GROUP_MAX_DELAY_MS, CHECK_WRITE_GROUP_MAX_ITEMS } from '../policy';
import { DEFAULT_ARCH, DEFAULT_PLATFORM } from '../releases/platforms';
import type { CheckEvent, DistributionEvent, EventType, FileRecord } from '../store/models';
import type { CheckWindow, Store } from '../store/store';
import { DownloadRepeats } from './download-repeats';
import { GroupCommit } from './group-commit';
import { WindowedGroupCommit } from './windowed-group-commit';

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

export class EventRecorder {
  private readonly events: GroupCommit<DistributionEvent>;
  private readonly checks: WindowedGroupCommit<CheckEvent, CheckWindow>;

  /**
   * `storeBatch`, when given, stores each batch with what must be written with it (webhooks'
   * download.recorded: WebhookEvents.storeEvents) by calling the `store` it is handed; `repeats`
   * keeps the rule of customers' repeated downloads.
   */
  constructor(
    private readonly store: Store,
    private readonly storeBatch?: (events: DistributionEvent[], store: () => Promise<void>) => Promise<void>,
    private readonly repeats = new DownloadRepeats(),
  ) {
    this.events = new GroupCommit((events) => {
      const insert = () => this.store.activity.insertEvents(events);
      return this.storeBatch ? this.storeBatch(events, insert) : insert();
    });
    // No check waits for its write: checks gather over a window, hundreds to a write, in the store's own form.
    this.checks = new WindowedGroupCommit((window) => window.write(), {
      maxItems: CHECK_WRITE_GROUP_MAX_ITEMS,
      maxDelayMs: CHECK_WRITE_GROUP_MAX_DELAY_MS,
    }, () => this.store.adoption.openCheckWindow(CHECK_WRITE_GROUP_MAX_ITEMS));
  }

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
    return this.events.add(event);
  }

  /**
   * An answered update check: appended with the other checks of its window (policy.ts,
   * CHECK_WRITE_GROUP_*); resolves once stored. The checks of one write share one promise.
   */
  recordCheck(check: CheckEvent): Promise<void> {
    return this.checks.add(check);
  }

  /** Writes the checks still gathering and waits for every check write started (before the store closes). */
  close(): Promise<void> {
    return this.checks.close();
  }
}
