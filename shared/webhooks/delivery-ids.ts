import { hash } from 'node:crypto';

/**
 * The message id (`webhook-id`) of an event's delivery to one endpoint: derived from both, so a
 * dispatch repeated after a crash makes the same delivery, never a second one.
 */
export function deliveryIdOf(eventId: string, webhookId: string): string {
  return `msg_${hash('sha256', `${eventId}/${webhookId}`, 'base64url').slice(0, 27)}`;
}
