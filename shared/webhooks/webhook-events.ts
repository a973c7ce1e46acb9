import { newId } from '../ids';
import type { Logger } from '../logger';
import type { JobQueues } from '../queues/job-queues';
import type { DistributionEvent, UnqueuedWebhookEvent } from '../store/models';
import type { Store } from '../store/store';
import { webhookData, type WebhookEventData, type WebhookEventType } from './events';
import type { SubscribedEventTypes } from './subscribed-event-types';

export interface EmitOptions {
  /** Fixed by a caller that may emit the same event again (a retried job), so it is dispatched once. */
  eventId?: string;
  /** When it happened (default now): the payload's timestamp. */
  at?: Date;
}

/**
 * The one way the gateway and the workers announce an event to webhooks: it queues one
 * dispatch-webhook-event job, which a worker turns into a delivery per subscribed endpoint, for an
 * event some active endpoint subscribes to (an event nobody wants queues nothing). Nothing here waits
 * on a receiver. An event announced while Redis refuses jobs is kept in the store and
 * queued later by the requeue-webhook-events job, so a change that was written is announced.
 */
export class WebhookEvents {
  constructor(
    private readonly jobs: JobQueues,
    private readonly store: Store,
    private readonly subscriptions: SubscribedEventTypes,
    private readonly logger: Logger,
  ) {}

  /** Queues the event; rejects when Redis refuses it (a worker's job then retries and emits again). */
  async emit<T extends WebhookEventType>(type: T, data: WebhookEventData[T], options: EmitOptions = {}): Promise<void> {
    if (!(await this.subscriptions.wanted(type))) return;
    await this.queue(eventOf(type, data, options));
  }

  /**
   * For a change already written and about to be answered: queues the event, or, when Redis refuses
   * it, keeps it in the store for a worker to queue once Redis answers. Never throws: the change
   * stands either way.
   */
  async announce<T extends WebhookEventType>(type: T, data: WebhookEventData[T], options: EmitOptions = {}): Promise<void> {
    if (!(await this.subscriptions.wanted(type))) return;
    const event = eventOf(type, data, options);
    try {
      await this.queue(event);
    } catch (queueError) {
      const logged = { eventType: type, eventId: event.eventId };
      try {
        await this.store.keepUnqueuedWebhookEvent({ ...event, keptAt: new Date() });
        this.logger.warn({ ...logged, err: queueError }, 'a webhook event could not be queued (Redis refused it): kept in the store until a worker queues it');
      } catch (keepError) {
        this.logger.error({ ...logged, err: keepError, queueError }, 'a webhook event was lost: Redis refused it and the store could not keep it');
      }
    }
  }

  /** Queues an event the store kept; rejects when Redis refuses it (it stays kept). Queued twice, it is delivered once per endpoint. */
  async requeue(event: UnqueuedWebhookEvent): Promise<void> {
    await this.queue(event);
  }

  /**
   * Called with each batch of stored distribution events, after the requests that made them were
   * answered: download.recorded, when some endpoint subscribes to it (it is high volume).
   */
  async eventsStored(events: readonly DistributionEvent[]): Promise<void> {
    const downloads = events.filter((event) => event.type === 'download');
    if (downloads.length === 0 || !(await this.subscriptions.wanted('download.recorded'))) return;
    for (const event of downloads) {
      await this.announce('download.recorded', webhookData.downloadRecorded(event), { eventId: `evt_download_${event.eventId}`, at: event.timestamp });
    }
  }

  private async queue(event: Omit<UnqueuedWebhookEvent, 'keptAt'>): Promise<void> {
    await this.jobs.enqueue('dispatch-webhook-event', { eventId: event.eventId, type: event.type, occurredAt: event.occurredAt.toISOString(), data: event.data });
  }
}

function eventOf<T extends WebhookEventType>(type: T, data: WebhookEventData[T], options: EmitOptions): Omit<UnqueuedWebhookEvent, 'keptAt'> {
  return { eventId: options.eventId ?? newId('evt'), type, occurredAt: options.at ?? new Date(), data };
}
