import { Schema } from 'mongoose';
import type { WebhookDelivery, WebhookEndpoint, WebhookOutboxState } from '../../models';
import { uniqueIndex } from '../unique-indexes';
import { collectionOptions } from './schema-options';

export type WebhookEndpointDoc = WebhookEndpoint;
export type WebhookDeliveryDoc = WebhookDelivery;
/**
 * An outbox entry as stored, in the collection that kept the events Redis refused before there was an
 * outbox (kept under its name, so those are relayed too): `keptAt` is when the entry was written, the
 * data is JSON text (null while pending), and a document without a state is ready (one kept before).
 */
export interface WebhookOutboxDoc {
  eventId: string;
  type: string;
  occurredAt: Date;
  state?: WebhookOutboxState;
  data: string | null;
  subject?: string[];
  keptAt: Date;
}

export const webhookEndpointSchema = new Schema<WebhookEndpointDoc>(
  {
    webhookId: String,
    url: String,
    events: [String],
    description: String,
    isActive: Boolean,
    disabledReason: String,
    secret: String,
    previousSecret: String,
    previousSecretExpiresAt: Date,
    failingSince: Date,
    createdAt: Date,
    updatedAt: Date,
  },
  collectionOptions('webhookEndpoints'),
);
webhookEndpointSchema.index({ webhookId: 1 }, uniqueIndex('unique_webhookId'));
webhookEndpointSchema.index({ createdAt: 1, webhookId: 1 });
// Multikey on the event types: an event's subscribers, in listing order, without reading every endpoint.
webhookEndpointSchema.index({ events: 1, isActive: 1, createdAt: 1, webhookId: 1 });

export const webhookDeliverySchema = new Schema<WebhookDeliveryDoc>(
  {
    deliveryId: String,
    webhookId: String,
    eventId: String,
    eventType: String,
    payload: String,
    status: String,
    attempts: Number,
    lastAttemptAt: Date,
    responseStatus: Number,
    responseBody: String,
    error: String,
    deliveredAt: Date,
    createdAt: Date,
    updatedAt: Date,
  },
  collectionOptions('webhookDeliveries'),
);
webhookDeliverySchema.index({ deliveryId: 1 }, uniqueIndex('unique_deliveryId'));
webhookDeliverySchema.index({ webhookId: 1, createdAt: -1, deliveryId: -1 });
webhookDeliverySchema.index({ createdAt: 1 });

export const webhookOutboxSchema = new Schema<WebhookOutboxDoc>(
  {
    eventId: String,
    type: String,
    occurredAt: Date,
    state: String,
    data: String,
    subject: [String],
    keptAt: Date,
  },
  collectionOptions('unqueuedWebhookEvents'),
);
webhookOutboxSchema.index({ eventId: 1 }, uniqueIndex('unique_eventId'));
// The relay's read: entries older than their writer needs, oldest first.
webhookOutboxSchema.index({ keptAt: 1, eventId: 1 });
