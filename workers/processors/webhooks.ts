import { ExpectedJobFailure } from '../../shared/queues/expected-job-failure';
import type { Job } from 'bullmq';
import { DuplicateError } from '../../shared/errors';
import {
  WEBHOOK_DELIVERY_RETENTION_MS, WEBHOOK_DISABLE_AFTER_FAILING_MS, WEBHOOK_OUTBOX_ABANDON_AFTER_MS, WEBHOOK_OUTBOX_RELAY_AFTER_MS, WEBHOOK_OUTBOX_RELAY_BATCH,
} from '../../shared/policy';
import type { JobPayloads } from '../../shared/queues/jobs';
import type { WebhookDelivery, WebhookEndpoint, WebhookOutboxPosition } from '../../shared/store/models';
import { deliveryIdOf } from '../../shared/webhooks/delivery-ids';
import { recoverAnnouncedData } from '../../shared/webhooks/outbox-recovery';
import { sendMessage } from '../../shared/webhooks/send-message';
import type { WorkerDeps } from '../worker-deps';

const PURGE_BATCH = 500;

/**
 * Records the event's delivery to every active endpoint subscribed to it and queues each. Safe to
 * repeat: a delivery's id is derived from the event and the endpoint, and its job id from that.
 */
export async function dispatchWebhookEvent(job: Job<JobPayloads['dispatch-webhook-event']>, deps: WorkerDeps): Promise<number> {
  const { eventId, type, occurredAt, data } = job.data;
  const endpoints = await deps.store.webhooks.listSubscribedWebhookEndpoints(type);
  const payload = JSON.stringify({ type, timestamp: occurredAt, data });
  for (const endpoint of endpoints) {
    const now = new Date();
    const deliveryId = deliveryIdOf(eventId, endpoint.webhookId);
    try {
      await deps.store.webhooks.insertWebhookDelivery({
        deliveryId, webhookId: endpoint.webhookId, eventId, eventType: type, payload, status: 'pending', attempts: 0,
        lastAttemptAt: null, responseStatus: null, responseBody: null, error: null, deliveredAt: null, createdAt: now, updatedAt: now,
      });
    } catch (error) {
      if (!(error instanceof DuplicateError)) throw error;
    }
    await deps.jobs.enqueue('deliver-webhook', { deliveryId, round: 0, retryBaseMs: deps.config.webhooks.retryBaseMs });
  }
  return endpoints.length;
}

/**
 * One attempt of a delivery. A 2xx within the timeout delivers it; anything else is recorded and
 * thrown, so BullMQ retries it on the schedule (jobs.ts) with the same message and id, until the
 * last attempt fails it. An endpoint all of whose deliveries have failed for
 * WEBHOOK_DISABLE_AFTER_FAILING_MS is disabled, with the reason, and its delivery ends there.
 */
export async function deliverWebhook(job: Job<JobPayloads['deliver-webhook']>, deps: WorkerDeps): Promise<string> {
  const delivery = await deps.store.webhooks.getWebhookDelivery(job.data.deliveryId);
  if (!delivery || delivery.status !== 'pending') return 'nothing to deliver';
  const endpoint = await deps.store.webhooks.getWebhookEndpoint(delivery.webhookId);
  if (!endpoint || !endpoint.isActive) {
    const reason = !endpoint ? 'the endpoint was deleted' : `the endpoint is disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''}`;
    await deps.store.webhooks.setWebhookDeliveryStatus(delivery.deliveryId, ['pending'], 'failed', reason, new Date());
    return 'endpoint inactive';
  }

  const outcome = await sendMessage(
    endpoint.url, deps.config.webhooks.allowedHosts, deps.signingSecrets.signingSecrets(endpoint, new Date()), delivery.deliveryId, delivery.payload,
  );
  const at = new Date();
  const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  await deps.store.webhooks.recordWebhookAttempt(delivery.deliveryId, {
    status: outcome.delivered ? 'delivered' : lastAttempt ? 'failed' : 'pending',
    responseStatus: outcome.responseStatus,
    responseBody: outcome.responseBody,
    error: outcome.error,
    deliveredAt: outcome.delivered ? at : null,
  }, at);
  if (outcome.delivered) {
    deps.metrics.recordWebhookDelivery('delivered');
    if (endpoint.failingSince !== null) await deps.store.webhooks.updateWebhookEndpoint(endpoint.webhookId, { failingSince: null }, at);
    return 'delivered';
  }
  const disabled = await disableWhenFailingTooLong(endpoint, delivery, outcome.error, at, deps);
  deps.metrics.recordWebhookDelivery(outcome.refused ? 'refused' : lastAttempt || disabled ? 'failed' : 'retried');
  if (disabled) return 'endpoint disabled';
  // A receiver that fails is expected now and then: retried, and logged with its status, not a stack.
  throw new ExpectedJobFailure(`webhook delivery ${delivery.deliveryId} failed: ${outcome.error}`, {
    deliveryId: delivery.deliveryId, webhookId: endpoint.webhookId, responseStatus: outcome.responseStatus,
  });
}

/** Ends a delivery whose job ended failed without its last attempt being recorded (it stalled too often). */
export async function settleFailedDelivery(job: Job<JobPayloads['deliver-webhook']>, deps: WorkerDeps): Promise<void> {
  await deps.store.webhooks.setWebhookDeliveryStatus(job.data.deliveryId, ['pending'], 'failed', 'the delivery stopped without a result', new Date());
}

export async function purgeWebhookDeliveries(_job: unknown, deps: WorkerDeps): Promise<number> {
  const before = new Date(Date.now() - WEBHOOK_DELIVERY_RETENTION_MS);
  let purged = 0;
  for (;;) {
    const count = await deps.store.webhooks.purgeWebhookDeliveries(before, PURGE_BATCH);
    purged += count;
    if (count < PURGE_BATCH) return purged;
  }
}

/**
 * Relays the webhook outbox: every entry its writer has had time to queue, oldest first, in batches
 * until one comes back short. A ready entry is queued and removed. A pending one (its writer stopped
 * between its change and the queueing) is queued with its data when its change is in the store
 * (outbox-recovery.ts), dropped when it still is not WEBHOOK_OUTBOX_ABANDON_AFTER_MS after it was
 * written, and left for a later run before that. An entry queued but not removed (the store failed
 * in between) is queued again by the next run and still delivered once per endpoint (a delivery's id
 * comes from its event's).
 */
export async function relayWebhookOutbox(_job: unknown, deps: WorkerDeps): Promise<number> {
  const now = Date.now();
  let relayed = 0;
  let after: WebhookOutboxPosition | undefined;
  for (;;) {
    const entries = await deps.store.webhooks.listWebhookOutboxEntries(new Date(now - WEBHOOK_OUTBOX_RELAY_AFTER_MS), WEBHOOK_OUTBOX_RELAY_BATCH, after);
    for (const entry of entries) {
      const data = entry.state === 'ready' ? entry.data : await recoverAnnouncedData(deps.store, entry);
      if (data !== null) {
        await deps.webhooks.relay({ ...entry, data });
        relayed += 1;
        await deps.store.webhooks.deleteWebhookOutboxEntries([entry.eventId]);
      } else if (now - entry.writtenAt.getTime() >= WEBHOOK_OUTBOX_ABANDON_AFTER_MS) {
        await deps.store.webhooks.deleteWebhookOutboxEntries([entry.eventId]);
        deps.logger.info({ eventId: entry.eventId, eventType: entry.type, subject: entry.subject }, 'a pending webhook event was dropped: its change was never written');
      }
    }
    if (entries.length < WEBHOOK_OUTBOX_RELAY_BATCH) return relayed;
    const last = entries[entries.length - 1];
    after = { writtenAt: last.writtenAt, eventId: last.eventId };
  }
}

async function disableWhenFailingTooLong(
  endpoint: WebhookEndpoint, delivery: WebhookDelivery, error: string | null, at: Date, deps: WorkerDeps,
): Promise<boolean> {
  const failing = await deps.store.webhooks.markWebhookEndpointFailing(endpoint.webhookId, at);
  const since = failing?.failingSince;
  if (!failing?.isActive || !since || at.getTime() - since.getTime() < WEBHOOK_DISABLE_AFTER_FAILING_MS) return false;
  const reason = `disabled at ${at.toISOString()}: every delivery failed since ${since.toISOString()} (last: ${error})`;
  await deps.store.webhooks.updateWebhookEndpoint(endpoint.webhookId, { isActive: false, disabledReason: reason }, at);
  await deps.store.webhooks.setWebhookDeliveryStatus(delivery.deliveryId, ['pending'], 'failed', `the endpoint was ${reason}`, at);
  deps.logger.warn({ webhookId: endpoint.webhookId, failingSince: since }, 'webhook endpoint disabled: its deliveries have failed for too long');
  return true;
}
