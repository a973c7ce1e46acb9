import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/event-types';
import { destinationUrlPattern, destinationUrlProblem } from '../webhooks/destination-rules';
import { WEBHOOK_URL_MAX_LENGTH } from '../policy';
import { atLeastOneField, descriptionField, distinctItems, isSingleLineText } from './fields';
import { pageFields } from './query-fields';

/** A JSON object body; unknown fields are refused rather than silently dropped. */
const body = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape, { invalid_type_error: 'must be a JSON object' }).strict();

/** Where deliveries may go (shared/webhooks/destination.ts); a host name is checked again, resolved, at every delivery. */
export const webhookUrlField = (allowedHosts: readonly string[]) =>
  z.string({ invalid_type_error: 'must be a string' }).superRefine((url, ctx) => {
    const problem = isSingleLineText(url) ? destinationUrlProblem(url, allowedHosts) : 'must not contain control characters';
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  }).openapi({
    format: 'uri',
    maxLength: WEBHOOK_URL_MAX_LENGTH,
    pattern: destinationUrlPattern(allowedHosts),
    description: 'An https URL without credentials or fragment (http only to a host in WEBHOOK_ALLOWED_HOSTS); its host must resolve to public '
      + 'unicast addresses only (checked again at every delivery), except a host in WEBHOOK_ALLOWED_HOSTS',
  });

/** Event types by name, each at most once: download.recorded only when listed. */
const eventsField = distinctItems(z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { errorMap: () => ({ message: `must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}` }) }), {
    invalid_type_error: 'must be an array of event types',
  })
  .min(1, 'must name at least one event type')
  .max(WEBHOOK_EVENT_TYPES.length), 'must not repeat an event type');

const isActiveField = z.boolean({ invalid_type_error: 'must be true or false' });

export function createWebhookSchema(allowedHosts: readonly string[]) {
  return body({
    url: webhookUrlField(allowedHosts),
    events: eventsField,
    description: descriptionField.nullable().optional(),
    isActive: isActiveField.optional(),
  });
}

export type CreateWebhookRequest = z.output<ReturnType<typeof createWebhookSchema>>;

export function updateWebhookSchema(allowedHosts: readonly string[]) {
  return atLeastOneField(body({
    url: webhookUrlField(allowedHosts).optional(),
    events: eventsField.optional(),
    description: descriptionField.nullable().optional(),
    isActive: isActiveField.optional(),
  }), 'give at least one of url, events, description, isActive');
}

export type UpdateWebhookRequest = z.output<ReturnType<typeof updateWebhookSchema>>;

/** Any string: an id that cannot exist is answered like an unknown one (404). */
export const webhookParams = z.object({ webhookId: z.string() });
export const deliveryParams = z.object({ webhookId: z.string(), deliveryId: z.string() });

export const listWebhooksQuery = z.object(pageFields).strict();
export const listDeliveriesQuery = z.object(pageFields).strict();

/** Rotating a secret and redelivering take no parameters: no body, or an empty object. */
export const noParametersSchema = body({});
