import { operationRoute } from '../http/operation-route';
import { inParams,inResult } from '../http/access';
import type { RouteModule } from '../gateway-deps';
import type { WebhookService } from './webhook-service';
import { Reply } from '../http/reply';
import {
presentCreatedWebhook,
presentDeletedWebhook,
presentDelivery,
presentDeliveryList,
presentRotatedSecret,
presentWebhook,
presentWebhookList
} from '../../shared/contract/webhooks';


/** Webhook endpoints and their delivery logs (admin only). A signing secret appears only in the response that makes it. */
export const webhookRoutes: RouteModule<{ webhookEndpoints: WebhookService }> = (deps, { webhookEndpoints: webhooks }) => {

  return [
    operationRoute(deps.config, 'createWebhook', {
      guard: 'admin', scope: 'admin', summary: 'Register a webhook endpoint (its signing secret is shown once)',
      audit: { action: 'webhook.create', target: inResult('webhookId') },
      status: 201,
      handle: async ({ body }) => {
        const { endpoint, secret } = await webhooks.create(body);
        return presentCreatedWebhook(endpoint, secret);
      },
    }),
    operationRoute(deps.config, 'listWebhooks', {
      guard: 'admin', scope: 'read', summary: 'List webhook endpoints',
      status: 200,
      handle: async ({ query: { page, pageSize } }) => {
        const { items, total } = await webhooks.list(page, pageSize);
        return presentWebhookList(items, page, pageSize, total);
      },
    }),
    operationRoute(deps.config, 'getWebhook', {
      guard: 'admin', scope: 'read', summary: 'Read a webhook endpoint',
      status: 200,
      handle: async ({ params }) => presentWebhook(await webhooks.get(params.webhookId)),
    }),
    operationRoute(deps.config, 'updateWebhook', {
      guard: 'admin', scope: 'admin', summary: "Change a webhook endpoint's URL, events, description or status",
      audit: { action: 'webhook.update', target: inParams('webhookId') },
      status: 200,
      handle: async ({ params, body }) => presentWebhook(await webhooks.update(params.webhookId, body)),
    }),
    operationRoute(deps.config, 'deleteWebhook', {
      guard: 'admin', scope: 'admin', summary: 'Delete a webhook endpoint and its delivery log',
      audit: { action: 'webhook.delete', target: inParams('webhookId') },
      status: 200,
      handle: async ({ params }) => {
        await webhooks.delete(params.webhookId);
        return presentDeletedWebhook(params.webhookId);
      },
    }),
    operationRoute(deps.config, 'rotateWebhookSecret', {
      guard: 'admin', scope: 'admin', summary: 'Issue a new signing secret (the previous one signs too for 24 h)',
      audit: { action: 'webhook.rotateSecret', target: inParams('webhookId') },
      status: 201,
      handle: async ({ params }) => {
        const { endpoint, secret } = await webhooks.rotateSecret(params.webhookId);
        return presentRotatedSecret(endpoint, secret);
      },
    }),
    operationRoute(deps.config, 'listWebhookDeliveries', {
      guard: 'admin', scope: 'read', summary: "List a webhook endpoint's deliveries, newest first",
      status: 200,
      handle: async ({ params, query: { page, pageSize } }) => {
        const { items, total } = await webhooks.listDeliveries(params.webhookId, page, pageSize);
        return presentDeliveryList(items, page, pageSize, total);
      },
    }),
    operationRoute(deps.config, 'redeliverWebhookDelivery', {
      guard: 'admin', scope: 'admin', summary: 'Send a delivered or failed message again',
      audit: { action: 'webhookDelivery.redeliver', target: [inParams('webhookId'), inParams('deliveryId')] },
      status: 202,
      handle: async ({ params }) => Reply.withStatus(202, presentDelivery(await webhooks.redeliver(params.webhookId, params.deliveryId))),
    }),
  ];
};
