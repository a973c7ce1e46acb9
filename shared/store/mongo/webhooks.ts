import { DuplicateError } from '../../errors';
import { requireCount, requirePage } from '../bounds';
import type { UnqueuedWebhookEvent, WebhookDelivery, WebhookDeliveryStatus, WebhookEndpoint } from '../models';
import type { Page, Store, WebhookAttemptResult, WebhookEndpointPatch } from '../store';
import type { MongoModels } from './models';
import { definedFields } from './patches';
import { toUnqueuedWebhookEvent, toWebhookDelivery, toWebhookEndpoint } from './records';
import type { UnqueuedWebhookEventDoc, WebhookDeliveryDoc, WebhookEndpointDoc } from './schemas/webhooks';
import { guardDuplicates } from './unique-indexes';

const ENDPOINT_ORDER = { createdAt: 1, webhookId: 1 } as const;
const DELIVERY_LOG_ORDER = { createdAt: -1, deliveryId: -1 } as const;
const UNQUEUED_ORDER = { keptAt: 1, eventId: 1 } as const;

type WebhookMethods = Pick<Store,
  | 'createWebhookEndpoint' | 'getWebhookEndpoint' | 'listWebhookEndpoints' | 'updateWebhookEndpoint' | 'markWebhookEndpointFailing'
  | 'deleteWebhookEndpoint' | 'listSubscribedWebhookEndpoints' | 'insertWebhookDelivery' | 'getWebhookDelivery'
  | 'listWebhookDeliveries' | 'recordWebhookAttempt' | 'setWebhookDeliveryStatus' | 'purgeWebhookDeliveries'
  | 'keepUnqueuedWebhookEvent' | 'listUnqueuedWebhookEvents' | 'deleteUnqueuedWebhookEvent'>;

/**
 * Webhook endpoints (an event's subscribers found through the multikey index on `events`), their
 * delivery log, and the events Redis refused, kept until they are queued.
 */
export class MongoWebhooks implements WebhookMethods {
  constructor(private readonly models: MongoModels) {}

  async createWebhookEndpoint(endpoint: WebhookEndpoint): Promise<WebhookEndpoint> {
    await guardDuplicates(this.models.webhookEndpoints, () => this.models.webhookEndpoints.create(endpoint));
    return endpoint;
  }

  async getWebhookEndpoint(webhookId: string): Promise<WebhookEndpoint | null> {
    const doc = await this.models.webhookEndpoints.findOne({ webhookId }).lean<WebhookEndpointDoc>();
    return doc ? toWebhookEndpoint(doc) : null;
  }

  async listWebhookEndpoints(page: number, pageSize: number): Promise<Page<WebhookEndpoint>> {
    requirePage(page, pageSize);
    const [total, docs] = await Promise.all([
      // Hinted: an unfiltered count would scan the collection; the listing index gives the same total.
      this.models.webhookEndpoints.countDocuments().hint(ENDPOINT_ORDER),
      this.models.webhookEndpoints.find().sort(ENDPOINT_ORDER).skip((page - 1) * pageSize).limit(pageSize).lean<WebhookEndpointDoc[]>(),
    ]);
    return { items: docs.map(toWebhookEndpoint), total };
  }

  async updateWebhookEndpoint(webhookId: string, patch: WebhookEndpointPatch, at: Date): Promise<WebhookEndpoint | null> {
    const doc = await this.models.webhookEndpoints
      .findOneAndUpdate({ webhookId }, { $set: { ...definedFields(patch), updatedAt: at } }, { new: true })
      .lean<WebhookEndpointDoc>();
    return doc ? toWebhookEndpoint(doc) : null;
  }

  async markWebhookEndpointFailing(webhookId: string, at: Date): Promise<WebhookEndpoint | null> {
    await this.models.webhookEndpoints.updateOne({ webhookId, failingSince: null }, { $set: { failingSince: at } });
    return this.getWebhookEndpoint(webhookId);
  }

  async deleteWebhookEndpoint(webhookId: string): Promise<boolean> {
    // The endpoint first: once it is gone no new delivery is made for it. A log left by a failure in
    // between is purged with age.
    const { deletedCount } = await this.models.webhookEndpoints.deleteOne({ webhookId });
    await this.models.webhookDeliveries.deleteMany({ webhookId });
    return deletedCount > 0;
  }

  async listSubscribedWebhookEndpoints(eventType: string): Promise<WebhookEndpoint[]> {
    const docs = await this.models.webhookEndpoints
      .find({ events: eventType, isActive: true })
      .sort(ENDPOINT_ORDER)
      .lean<WebhookEndpointDoc[]>();
    return docs.map(toWebhookEndpoint);
  }

  async insertWebhookDelivery(delivery: WebhookDelivery): Promise<WebhookDelivery> {
    await guardDuplicates(this.models.webhookDeliveries, () => this.models.webhookDeliveries.create(delivery));
    return delivery;
  }

  async getWebhookDelivery(deliveryId: string): Promise<WebhookDelivery | null> {
    const doc = await this.models.webhookDeliveries.findOne({ deliveryId }).lean<WebhookDeliveryDoc>();
    return doc ? toWebhookDelivery(doc) : null;
  }

  async listWebhookDeliveries(webhookId: string, page: number, pageSize: number): Promise<Page<WebhookDelivery>> {
    requirePage(page, pageSize);
    const [total, docs] = await Promise.all([
      this.models.webhookDeliveries.countDocuments({ webhookId }),
      this.models.webhookDeliveries.find({ webhookId }).sort(DELIVERY_LOG_ORDER).skip((page - 1) * pageSize).limit(pageSize)
        .lean<WebhookDeliveryDoc[]>(),
    ]);
    return { items: docs.map(toWebhookDelivery), total };
  }

  async recordWebhookAttempt(deliveryId: string, result: WebhookAttemptResult, at: Date): Promise<WebhookDelivery | null> {
    const doc = await this.models.webhookDeliveries
      .findOneAndUpdate(
        { deliveryId, status: 'pending' },
        { $inc: { attempts: 1 }, $set: { ...result, lastAttemptAt: at, updatedAt: at } },
        { new: true },
      )
      .lean<WebhookDeliveryDoc>();
    return doc ? toWebhookDelivery(doc) : null;
  }

  async setWebhookDeliveryStatus(
    deliveryId: string, from: WebhookDeliveryStatus[], to: WebhookDeliveryStatus, error: string | null, at: Date,
  ): Promise<WebhookDelivery | null> {
    const doc = await this.models.webhookDeliveries
      .findOneAndUpdate({ deliveryId, status: { $in: from } }, { $set: { status: to, error, updatedAt: at } }, { new: true })
      .lean<WebhookDeliveryDoc>();
    return doc ? toWebhookDelivery(doc) : null;
  }

  async purgeWebhookDeliveries(before: Date, limit: number): Promise<number> {
    requireCount('limit', limit);
    const old = await this.models.webhookDeliveries.find({ createdAt: { $lt: before } }, { _id: 1 }).limit(limit).lean();
    const { deletedCount } = await this.models.webhookDeliveries.deleteMany({ _id: { $in: old.map((delivery) => delivery._id) } });
    return deletedCount;
  }

  async keepUnqueuedWebhookEvent(event: UnqueuedWebhookEvent): Promise<void> {
    // An upsert that sets only on insert: a repeat of the same event leaves the one kept as it is
    // (two at once: one inserts, the other's duplicate key means the same).
    try {
      await guardDuplicates(this.models.unqueuedWebhookEvents, () => this.models.unqueuedWebhookEvents.updateOne(
        { eventId: event.eventId },
        { $setOnInsert: { ...event, data: JSON.stringify(event.data) } },
        { upsert: true },
      ));
    } catch (error) {
      if (!(error instanceof DuplicateError)) throw error;
    }
  }

  async listUnqueuedWebhookEvents(limit: number): Promise<UnqueuedWebhookEvent[]> {
    requireCount('limit', limit);
    const docs = await this.models.unqueuedWebhookEvents.find().sort(UNQUEUED_ORDER).limit(limit).lean<UnqueuedWebhookEventDoc[]>();
    return docs.map(toUnqueuedWebhookEvent);
  }

  async deleteUnqueuedWebhookEvent(eventId: string): Promise<boolean> {
    const { deletedCount } = await this.models.unqueuedWebhookEvents.deleteOne({ eventId });
    return deletedCount > 0;
  }
}
