import { DuplicateError } from '../../errors';
import { requireCount, requirePage } from '../bounds';
import type { FilterQuery } from 'mongoose';
import type { WebhookDelivery, WebhookDeliveryStatus, WebhookEndpoint, WebhookOutboxEntry, WebhookOutboxPosition } from '../models';
import type { Page, WebhookAttemptResult, WebhookEndpointPatch, WebhookStore } from '../store';
import type { MongoModels } from './models';
import { definedFields } from './patches';
import { toWebhookDelivery, toWebhookEndpoint, toWebhookOutboxEntry } from './records';
import type { WebhookDeliveryDoc, WebhookEndpointDoc, WebhookOutboxDoc } from './schemas/webhooks';
import { guardDuplicates } from './unique-indexes';

const ENDPOINT_ORDER = { createdAt: 1, webhookId: 1 } as const;
const DELIVERY_LOG_ORDER = { createdAt: -1, deliveryId: -1 } as const;
const OUTBOX_ORDER = { keptAt: 1, eventId: 1 } as const;

/**
 * Webhook endpoints (an event's subscribers found through the multikey index on `events`), their
 * delivery log, and the webhook outbox (read by its index on (keptAt, eventId)).
 */
export class MongoWebhooks implements WebhookStore {
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

  async addWebhookOutboxEntries(entries: WebhookOutboxEntry[]): Promise<void> {
    if (entries.length === 0) return;
    // Upserts that set only on insert: a repeat of the same event leaves the entry as it is.
    try {
      await guardDuplicates(this.models.webhookOutbox, () => this.models.webhookOutbox.bulkWrite(entries.map((entry) => ({
        updateOne: { filter: { eventId: entry.eventId }, update: { $setOnInsert: toOutboxDoc(entry) }, upsert: true },
      })), { ordered: false }));
    } catch (error) {
      if (!(error instanceof DuplicateError)) throw error;
    }
  }

  async confirmWebhookOutboxEntries(confirmed: { eventId: string; data: unknown }[]): Promise<void> {
    if (confirmed.length === 0) return;
    await this.models.webhookOutbox.bulkWrite(confirmed.map(({ eventId, data }) => ({
      updateOne: { filter: { eventId, state: 'pending' }, update: { $set: { state: 'ready', data: JSON.stringify(data) } } },
    })), { ordered: false });
  }

  async listWebhookOutboxEntries(writtenBefore: Date, limit: number, after?: WebhookOutboxPosition): Promise<WebhookOutboxEntry[]> {
    requireCount('limit', limit);
    const filter: FilterQuery<WebhookOutboxDoc> = after
      ? { keptAt: { $lt: writtenBefore }, $or: [{ keptAt: { $gt: after.writtenAt } }, { keptAt: after.writtenAt, eventId: { $gt: after.eventId } }] }
      : { keptAt: { $lt: writtenBefore } };
    const docs = await this.models.webhookOutbox.find(filter).sort(OUTBOX_ORDER).limit(limit).lean<WebhookOutboxDoc[]>();
    return docs.map(toWebhookOutboxEntry);
  }

  async deleteWebhookOutboxEntries(eventIds: string[]): Promise<number> {
    if (eventIds.length === 0) return 0;
    const { deletedCount } = await this.models.webhookOutbox.deleteMany({ eventId: { $in: eventIds } });
    return deletedCount;
  }
}

function toOutboxDoc(entry: WebhookOutboxEntry): WebhookOutboxDoc {
  return {
    eventId: entry.eventId,
    type: entry.type,
    occurredAt: entry.occurredAt,
    state: entry.state,
    data: entry.data === null ? null : JSON.stringify(entry.data),
    subject: entry.subject,
    keptAt: entry.writtenAt,
  };
}
