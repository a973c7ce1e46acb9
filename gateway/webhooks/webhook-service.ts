import type { InvalidationBus } from '../../shared/cache/invalidation-bus';
import { conflict, notFound, redisUnavailable } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { WEBHOOK_ENDPOINTS_MAX, WEBHOOK_SECRET_OVERLAP_MS } from '../../shared/policy';
import type { JobQueues } from '../../shared/queues/job-queues';
import type { WebhookDelivery, WebhookEndpoint } from '../../shared/store/models';
import type { Page, Store, WebhookEndpointPatch } from '../../shared/store/store';
import { generateSigningSecret } from '../../shared/webhooks/signature';
import type { SigningSecrets } from '../../shared/webhooks/signing-secrets';
import { WEBHOOK_SUBSCRIPTIONS_TAG } from '../../shared/webhooks/subscribed-event-types';
import type { CreateWebhookRequest, UpdateWebhookRequest } from '../../shared/contract/webhooks-requests';

/** An endpoint as created, with its signing secret, which exists in the clear only in this response. */
export interface CreatedWebhook {
  endpoint: WebhookEndpoint;
  secret: string;
}

/**
 * Webhook endpoints, their secrets and their delivery logs (admin). Deliveries themselves are the
 * workers'. Every change of an endpoint's subscriptions is written through the invalidation bus, so
 * no process skips an event an endpoint now wants (SubscribedEventTypes).
 */
export class WebhookService {
  constructor(
    private readonly store: Store,
    private readonly signingSecrets: SigningSecrets,
    private readonly jobs: JobQueues,
    private readonly bus: InvalidationBus,
    private readonly retryBaseMs: number,
  ) {}

  async create(input: CreateWebhookRequest): Promise<CreatedWebhook> {
    const { total } = await this.store.webhooks.listWebhookEndpoints(1, 1);
    if (total >= WEBHOOK_ENDPOINTS_MAX) throw conflict(`at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints can be registered; delete one first`);
    const now = new Date();
    const webhookId = newId('whk');
    const secret = generateSigningSecret();
    const endpoint = await this.subscriptionsChange(() => this.store.webhooks.createWebhookEndpoint({
      webhookId,
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      isActive: input.isActive ?? true,
      disabledReason: null,
      secret: this.signingSecrets.seal(webhookId, secret),
      previousSecret: null,
      previousSecretExpiresAt: null,
      failingSince: null,
      createdAt: now,
      updatedAt: now,
    }));
    return { endpoint, secret };
  }

  list(page: number, pageSize: number): Promise<Page<WebhookEndpoint>> {
    return this.store.webhooks.listWebhookEndpoints(page, pageSize);
  }

  async get(webhookId: string): Promise<WebhookEndpoint> {
    const endpoint = await this.store.webhooks.getWebhookEndpoint(webhookId);
    if (!endpoint) throw webhookNotFound(webhookId);
    return endpoint;
  }

  /** Turning an endpoint on again clears why it was disabled and its run of failures: it starts afresh. */
  async update(webhookId: string, request: UpdateWebhookRequest): Promise<WebhookEndpoint> {
    const patch: WebhookEndpointPatch = { ...request };
    if (request.isActive !== undefined) Object.assign(patch, { disabledReason: null, failingSince: null });
    const updated = await this.subscriptionsChange(() => this.store.webhooks.updateWebhookEndpoint(webhookId, patch, new Date()));
    if (!updated) throw webhookNotFound(webhookId);
    return updated;
  }

  async delete(webhookId: string): Promise<void> {
    if (!(await this.subscriptionsChange(() => this.store.webhooks.deleteWebhookEndpoint(webhookId)))) throw webhookNotFound(webhookId);
  }

  /** A new secret signs from now on; the one it replaces signs beside it for WEBHOOK_SECRET_OVERLAP_MS (24 h). */
  async rotateSecret(webhookId: string): Promise<CreatedWebhook> {
    const current = await this.get(webhookId);
    const now = new Date();
    const secret = generateSigningSecret();
    const endpoint = await this.store.webhooks.updateWebhookEndpoint(webhookId, {
      secret: this.signingSecrets.seal(webhookId, secret),
      previousSecret: current.secret,
      previousSecretExpiresAt: new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_MS),
    }, now);
    if (!endpoint) throw webhookNotFound(webhookId);
    return { endpoint, secret };
  }

  /** Writes a change of which events some endpoint wants, held in every process first (503, nothing written, when it cannot be). */
  private subscriptionsChange<T>(write: () => Promise<T>): Promise<T> {
    return this.bus.change([WEBHOOK_SUBSCRIPTIONS_TAG], write);
  }

  async listDeliveries(webhookId: string, page: number, pageSize: number): Promise<Page<WebhookDelivery>> {
    await this.get(webhookId);
    return this.store.webhooks.listWebhookDeliveries(webhookId, page, pageSize);
  }

  /**
   * Sends a delivered or failed message again, same id and body, on a fresh retry schedule. Refused
   * while it is still being attempted, and for a disabled endpoint; when the job cannot be queued the
   * delivery is left as it was (503).
   */
  async redeliver(webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
    const endpoint = await this.get(webhookId);
    const delivery = await this.store.webhooks.getWebhookDelivery(deliveryId);
    if (!delivery || delivery.webhookId !== webhookId) throw notFound(`delivery ${deliveryId} of webhook ${webhookId} not found`);
    if (!endpoint.isActive) throw conflict(`webhook ${webhookId} is disabled; enable it (PATCH isActive: true) before redelivering`);
    const pending = await this.store.webhooks.setWebhookDeliveryStatus(deliveryId, ['delivered', 'failed'], 'pending', null, new Date());
    if (!pending) throw conflict(`delivery ${deliveryId} is still being attempted`);
    try {
      await this.jobs.enqueue('deliver-webhook', { deliveryId, round: Date.now(), retryBaseMs: this.retryBaseMs });
    } catch {
      await this.store.webhooks.setWebhookDeliveryStatus(deliveryId, ['pending'], delivery.status, delivery.error, new Date());
      throw redisUnavailable('could not queue the redelivery; try again shortly');
    }
    return pending;
  }
}

const webhookNotFound = (webhookId: string) => notFound(`webhook ${webhookId} not found`);
