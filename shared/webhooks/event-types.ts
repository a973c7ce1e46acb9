/** The events webhooks can subscribe to: a pure list, which the CLI checks its options against too (events.ts gives each its data). */
export const WEBHOOK_EVENT_TYPES = [
  'upload.completed',
  'upload.failed',
  'version.published',
  'version.yanked',
  'version.deleted',
  'version.rollout_advanced',
  'version.rollout_halted',
  'application.deleted',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'apikey.created',
  'apikey.revoked',
  'access_token.created',
  'access_token.revoked',
  'share_link.created',
  'download.recorded',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
