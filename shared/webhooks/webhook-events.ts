import { newId } from '../ids';
import type { Logger } from '../logger';
import type { JobQueues } from '../queues/job-queues';
import type { DistributionEvent, WebhookOutboxEntry } from '../store/models';
import type { Store } from '../store/store';
import { webhookData, type WebhookEventData, type WebhookEventType } from './events';
import type { SubscribedEventTypes } from './subscribed-event-types';

export interface EmitOptions {
  /** Fixed by a caller that may emit the same event again (a retried job), so it is dispatched once. */
  eventId?: string;
  /** When it happened (default now): the payload's timestamp. */
  at?: Date;
}

/** An event a change will announce, named before the change is written. */
export interface Announcement<T extends WebhookEventType = WebhookEventType> {
  type: T;
  /** The ids of the record the change is about: how the relay finds the change (outbox-recovery.ts). */
  subject: string[];
  /** When the change happens: the time the change writes on its record, and the payload's timestamp. */
  at: Date;
  /** Fixed by a caller that may make the change again (a retried job). */
  eventId?: string;
  /** The event's data when it is known before the change (a download's). */
  data?: WebhookEventData[T];
}

/** Each announcement's data, from what the change wrote; null where the change announces nothing after all. */
export type AnnouncedData<R> = (written: R) => readonly unknown[] | Promise<readonly unknown[]>;

/**
 * The one way the gateway and the workers announce events to webhooks. A change that announces
 * events goes through announceChange: its events are written to the outbox in the store before the
 * change (pending), the change is written, then its events are queued (one dispatch-webhook-event
 * job each, which a worker turns into a delivery per subscribed endpoint) and removed from the
 * outbox. When that last step does not happen (Redis refuses the jobs, the process dies), the
 * relay-webhook-outbox job queues them from the store, checking first that a pending entry's change
 * was written. An event nobody subscribes to costs nothing: no outbox entry, no job.
 */
export class WebhookEvents {
  constructor(
    private readonly jobs: JobQueues,
    private readonly store: Store,
    private readonly subscriptions: SubscribedEventTypes,
    private readonly logger: Logger,
  ) {}

  /**
   * Queues the event; rejects when Redis refuses it. Only for a caller whose own retry is its outbox:
   * a job that emits before it records its work as done, and emits again (same eventId) when retried.
   */
  async emit<T extends WebhookEventType>(type: T, data: WebhookEventData[T], options: EmitOptions = {}): Promise<void> {
    if (!(await this.subscriptions.wanted(type))) return;
    await this.queue({ eventId: options.eventId ?? newId('evt'), type, occurredAt: options.at ?? new Date(), data });
  }

  /**
   * Writes `change` so that the events it announces are delivered at least once: the change's
   * failure rejects as it would have (its pending entries are dropped), and once it is written nothing
   * here throws, the change stands, and its events are queued now or by the relay.
   */
  async announceChange<R>(announcements: readonly Announcement[], change: () => Promise<R>, dataOf: AnnouncedData<R>): Promise<R> {
    const pending = await this.writePending(announcements);
    let written: R;
    try {
      written = await change();
    } catch (error) {
      await this.drop(pending);
      throw error;
    }
    let data: readonly unknown[];
    try {
      data = await dataOf(written);
    } catch (error) {
      // The change stands: its pending entries stay for the relay, which builds their data from the store.
      this.logger.warn({ err: error, eventTypes: announcements.map((a) => a.type) }, 'the data of a change\'s webhook events could not be built: left to the outbox relay');
      return written;
    }
    await this.announceWritten(announcements, pending, data);
    return written;
  }

  /**
   * Stores a batch of distribution events with `store`, and announces download.recorded for each
   * download, when some endpoint subscribes to it (it is high volume): the outbox entries, whose data
   * is known already, are written before the batch; they are queued after it, without the requests
   * that made them waiting on Redis.
   */
  async storeEvents(events: readonly DistributionEvent[], store: () => Promise<void>): Promise<void> {
    const downloads = events.filter((event) => event.type === 'download');
    if (downloads.length === 0) return store();
    const announced = () => downloads.map((event): Announcement<'download.recorded'> => ({
      type: 'download.recorded', subject: [event.eventId], at: event.timestamp, eventId: `evt_download_${event.eventId}`,
      data: webhookData.downloadRecorded(event),
    }));
    // Nobody subscribed (known in process): the batch alone, as if there were no webhooks; then the
    // check again, for an endpoint that subscribed while it was written.
    if (!(await this.subscriptions.wanted('download.recorded'))) {
      await store();
      if (!(await this.subscriptions.wanted('download.recorded'))) return;
      const announcements = announced();
      void this.announceWritten(announcements, new Map(), announcements.map((announcement) => announcement.data));
      return;
    }
    const announcements = announced();
    const pending = await this.writePending(announcements);
    try {
      await store();
    } catch (error) {
      await this.drop(pending);
      throw error;
    }
    void this.announceWritten(announcements, pending, announcements.map((announcement) => announcement.data));
  }

  /** Queues an outbox entry that is ready; rejects when Redis refuses it (the entry stays for the next run). */
  async relay(entry: WebhookOutboxEntry): Promise<void> {
    await this.queue(entry);
  }

  /** The outbox entries of the announcements some endpoint subscribes to, written pending. */
  private async writePending(announcements: readonly Announcement[]): Promise<Map<Announcement, WebhookOutboxEntry>> {
    const pending = new Map<Announcement, WebhookOutboxEntry>();
    const writtenAt = new Date();
    const wanted = new Map<string, boolean>();
    for (const announcement of announcements) {
      if (!wanted.has(announcement.type)) wanted.set(announcement.type, await this.subscriptions.wanted(announcement.type));
      if (wanted.get(announcement.type)) pending.set(announcement, entryOf(announcement, 'pending', announcement.data ?? null, writtenAt));
    }
    if (pending.size > 0) await this.store.webhooks.addWebhookOutboxEntries([...pending.values()]);
    return pending;
  }

  /**
   * After the change: queues each announced event and removes its entry; an event Redis refuses is
   * made ready in the outbox for the relay. An announcement nobody wanted before the change but some
   * endpoint wants now (it subscribed meanwhile) is written ready and queued too. Never throws.
   */
  private async announceWritten(announcements: readonly Announcement[], pending: Map<Announcement, WebhookOutboxEntry>, data: readonly unknown[]): Promise<void> {
    const ready: WebhookOutboxEntry[] = [];
    const late: WebhookOutboxEntry[] = [];
    const dropped = new Map<Announcement, WebhookOutboxEntry>();
    for (const [index, announcement] of announcements.entries()) {
      const entry = pending.get(announcement);
      const announced = data[index] ?? null;
      if (entry && announced === null) dropped.set(announcement, entry);
      else if (entry) ready.push({ ...entry, state: 'ready', data: announced });
      else if (announced !== null && (await this.subscriptions.wanted(announcement.type))) late.push(entryOf(announcement, 'ready', announced, new Date()));
    }
    await this.drop(dropped);
    if (late.length > 0) {
      try {
        await this.store.webhooks.addWebhookOutboxEntries(late);
      } catch (error) {
        // Only the fast path below is left to these: the change was written before their endpoint's subscription was known.
        this.logger.warn({ err: error, eventIds: late.map((entry) => entry.eventId) }, 'webhook events of a change could not be written to the outbox: queued without it');
      }
    }
    const refused: WebhookOutboxEntry[] = [];
    const queued: string[] = [];
    for (const entry of [...ready, ...late]) {
      try {
        await this.queue(entry);
        queued.push(entry.eventId);
      } catch (error) {
        refused.push(entry);
        this.logger.warn({ err: error, eventType: entry.type, eventId: entry.eventId }, 'a webhook event could not be queued (Redis refused it): kept in the outbox until a worker queues it');
      }
    }
    try {
      await this.store.webhooks.confirmWebhookOutboxEntries(refused.map(({ eventId, data: ready }) => ({ eventId, data: ready })));
      await this.store.webhooks.deleteWebhookOutboxEntries(queued);
    } catch (error) {
      // The relay checks the change of each pending entry it finds, and a queued event queued again is delivered once per endpoint.
      this.logger.warn({ err: error }, 'the webhook outbox could not be updated after a change: its relay will finish');
    }
  }

  /**
   * Removes the pending entries of a change that failed, or that announces nothing; what is left, the
   * relay drops once it finds no change. An entry under an event id fixed by its caller is left to the
   * relay too: another attempt of the same change (a retried job) may have written it, and made it.
   */
  private async drop(entries: Map<Announcement, WebhookOutboxEntry>): Promise<void> {
    const eventIds = [...entries].filter(([announcement]) => announcement.eventId === undefined).map(([, entry]) => entry.eventId);
    if (eventIds.length === 0) return;
    await this.store.webhooks.deleteWebhookOutboxEntries(eventIds).catch((error: unknown) => {
      this.logger.warn({ err: error, eventIds }, 'pending webhook events of a change that was not written stay in the outbox until its relay drops them');
    });
  }

  private async queue(event: { eventId: string; type: string; occurredAt: Date; data: unknown }): Promise<void> {
    await this.jobs.enqueue('dispatch-webhook-event', { eventId: event.eventId, type: event.type, occurredAt: event.occurredAt.toISOString(), data: event.data });
  }
}

function entryOf(announcement: Announcement, state: WebhookOutboxEntry['state'], data: unknown, writtenAt: Date): WebhookOutboxEntry {
  return {
    eventId: announcement.eventId ?? newId('evt'),
    type: announcement.type,
    occurredAt: announcement.at,
    state,
    data,
    subject: announcement.subject,
    writtenAt,
  };
}
