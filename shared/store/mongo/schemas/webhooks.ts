import { Schema } from 'mongoose';
import type { WebhookDelivery, WebhookEndpoint } from '../../models';
import { uniqueIndex } from '../unique-indexes';
import { collectionOptions } from './schema-options';

export type WebhookEndpointDoc = WebhookEndpoint;
export type WebhookDeliveryDoc = WebhookDelivery;

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
