import { Schema } from 'mongoose';
import type { UnqueuedWebhookEvent, WebhookDelivery, WebhookEndpoint } from '../../models';
import { uniqueIndex } from '../unique-indexes';
import { collectionOptions } from './schema-options';

export type WebhookEndpointDoc = WebhookEndpoint;
export type WebhookDeliveryDoc = WebhookDelivery;
/** The event's data as JSON text: what a receiver gets, whatever keys it holds. */
export type UnqueuedWebhookEventDoc = Omit<UnqueuedWebhookEvent, 'data'> & { data: string };

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

export const unqueuedWebhookEventSchema = new Schema<UnqueuedWebhookEventDoc>(
  {
    eventId: String,
    type: String,
    occurredAt: Date,
    data: String,
    keptAt: Date,
  },
  collectionOptions('unqueuedWebhookEvents'),
);
unqueuedWebhookEventSchema.index({ eventId: 1 }, uniqueIndex('unique_eventId'));
unqueuedWebhookEventSchema.index({ keptAt: 1, eventId: 1 });
