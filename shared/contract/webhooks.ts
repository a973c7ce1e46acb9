import { z } from 'zod';
import type { WebhookDelivery, WebhookEndpoint } from '../store/models';
import { iso, isoOrNull, messageField, pagination, paginationResponse, timestamp } from './common';

/** An endpoint as listed: never its secret, sealed or not. */
export const webhookResponse = z.object({
  webhookId: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  isActive: z.boolean(),
  /** Why it was disabled for failing; null when it was not. */
  disabledReason: z.string().nullable(),
  /** Since when every delivery has failed; null while deliveries succeed. */
  failingSince: timestamp.nullable(),
  /** Until when the secret before the last rotation still signs. */
  previousSecretExpiresAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export function presentWebhook(endpoint: WebhookEndpoint): z.input<typeof webhookResponse> {
  return {
    webhookId: endpoint.webhookId,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    isActive: endpoint.isActive,
    disabledReason: endpoint.disabledReason,
    failingSince: isoOrNull(endpoint.failingSince),
    previousSecretExpiresAt: isoOrNull(endpoint.previousSecretExpiresAt),
    createdAt: iso(endpoint.createdAt),
    updatedAt: iso(endpoint.updatedAt),
  };
}

/** A new endpoint with its signing secret: the only time that secret is shown. */
export const createdWebhookResponse = webhookResponse.extend({ secret: z.string() });

export function presentCreatedWebhook(endpoint: WebhookEndpoint, secret: string): z.input<typeof createdWebhookResponse> {
  return { ...presentWebhook(endpoint), secret };
}

export const webhookListResponse = z.object({ webhooks: z.array(webhookResponse), pagination: paginationResponse });

export function presentWebhookList(items: WebhookEndpoint[], page: number, pageSize: number, total: number): z.input<typeof webhookListResponse> {
  return { webhooks: items.map(presentWebhook), pagination: pagination(page, pageSize, total) };
}

export const deletedWebhookResponse = z.object({ message: messageField, webhookId: z.string() });

export function presentDeletedWebhook(webhookId: string): z.input<typeof deletedWebhookResponse> {
  return { message: `webhook ${webhookId} deleted`, webhookId };
}

/** The new secret, shown only here; the previous one keeps signing until previousSecretExpiresAt. */
export const rotatedSecretResponse = z.object({ webhookId: z.string(), secret: z.string(), previousSecretExpiresAt: timestamp });

export function presentRotatedSecret(endpoint: WebhookEndpoint, secret: string): z.input<typeof rotatedSecretResponse> {
  return { webhookId: endpoint.webhookId, secret, previousSecretExpiresAt: isoOrNull(endpoint.previousSecretExpiresAt) as string };
}

export const deliveryResponse = z.object({
  deliveryId: z.string(),
  webhookId: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  lastAttemptAt: timestamp.nullable(),
  responseStatus: z.number().int().nullable(),
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  deliveredAt: timestamp.nullable(),
  /** The body every attempt sends, parsed. */
  payload: z.unknown(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export function presentDelivery(delivery: WebhookDelivery): z.input<typeof deliveryResponse> {
  return {
    deliveryId: delivery.deliveryId,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    lastAttemptAt: isoOrNull(delivery.lastAttemptAt),
    responseStatus: delivery.responseStatus,
    responseBody: delivery.responseBody,
    error: delivery.error,
    deliveredAt: isoOrNull(delivery.deliveredAt),
    payload: JSON.parse(delivery.payload),
    createdAt: iso(delivery.createdAt),
    updatedAt: iso(delivery.updatedAt),
  };
}

export const deliveryListResponse = z.object({ deliveries: z.array(deliveryResponse), pagination: paginationResponse });

export function presentDeliveryList(items: WebhookDelivery[], page: number, pageSize: number, total: number): z.input<typeof deliveryListResponse> {
  return { deliveries: items.map(presentDelivery), pagination: pagination(page, pageSize, total) };
}
