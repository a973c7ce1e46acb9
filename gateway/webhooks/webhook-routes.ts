import { inParams, inResult } from '../http/access';
import { route} from '../http/route';
import type { RouteModule } from '../gateway-deps';
import type { WebhookService } from './webhook-service';
import { Reply } from '../http/reply';
import {
  createdWebhookResponse,
  deletedWebhookResponse,
  deliveryListResponse,
  deliveryResponse,
  presentCreatedWebhook,
  presentDeletedWebhook,
  presentDelivery,
  presentDeliveryList,
  presentRotatedSecret,
  presentWebhook,
  presentWebhookList,
  rotatedSecretResponse,
  webhookListResponse,
  webhookResponse,
} from '../../shared/contract/webhooks';
import {
  createWebhookSchema,
  deliveryParams,
  listDeliveriesQuery,
  listWebhooksQuery,
  noParametersSchema,
  updateWebhookSchema,
  webhookParams,
} from '../../shared/contract/webhooks-requests';

const WEBHOOKS = '/v1/management/webhooks';
const WEBHOOK = `${WEBHOOKS}/:webhookId`;
const DELIVERIES = `${WEBHOOK}/deliveries`;

/** Webhook endpoints and their delivery logs (admin only). A signing secret appears only in the response that makes it. */
export const webhookRoutes: RouteModule<{ webhookEndpoints: WebhookService }> = (deps, { webhookEndpoints: webhooks }) => {
  const { allowedHosts } = deps.config.webhooks;

  return [
    route({
      method: 'post', path: WEBHOOKS, operationId: 'createWebhook', guard: 'admin', scope: 'admin', summary: 'Register a webhook endpoint (its signing secret is shown once)',
      audit: { action: 'webhook.create', target: inResult('webhookId') },
      body: createWebhookSchema(allowedHosts),
      status: 201, response: createdWebhookResponse,
      handle: async ({ body }) => {
        const { endpoint, secret } = await webhooks.create(body);
        return presentCreatedWebhook(endpoint, secret);
      },
    }),
    route({
      method: 'get', path: WEBHOOKS, operationId: 'listWebhooks', guard: 'admin', scope: 'read', summary: 'List webhook endpoints',
      query: listWebhooksQuery,
      status: 200, response: webhookListResponse,
      handle: async ({ query: { page, pageSize } }) => {
        const { items, total } = await webhooks.list(page, pageSize);
        return presentWebhookList(items, page, pageSize, total);
      },
    }),
    route({
      method: 'get', path: WEBHOOK, operationId: 'getWebhook', guard: 'admin', scope: 'read', summary: 'Read a webhook endpoint',
      params: webhookParams,
      status: 200, response: webhookResponse,
      handle: async ({ params }) => presentWebhook(await webhooks.get(params.webhookId)),
    }),
    route({
      method: 'patch', path: WEBHOOK, operationId: 'updateWebhook', guard: 'admin', scope: 'admin', summary: "Change a webhook endpoint's URL, events, description or status",
      audit: { action: 'webhook.update', target: inParams('webhookId') },
      params: webhookParams, body: updateWebhookSchema(allowedHosts),
      status: 200, response: webhookResponse,
      handle: async ({ params, body }) => presentWebhook(await webhooks.update(params.webhookId, body)),
    }),
    route({
      method: 'delete', path: WEBHOOK, operationId: 'deleteWebhook', guard: 'admin', scope: 'admin', summary: 'Delete a webhook endpoint and its delivery log',
      audit: { action: 'webhook.delete', target: inParams('webhookId') },
      params: webhookParams,
      status: 200, response: deletedWebhookResponse,
      handle: async ({ params }) => {
        await webhooks.delete(params.webhookId);
        return presentDeletedWebhook(params.webhookId);
      },
    }),
    route({
      method: 'post', path: `${WEBHOOK}/rotate-secret`, operationId: 'rotateWebhookSecret', guard: 'admin', scope: 'admin', summary: 'Issue a new signing secret (the previous one signs too for 24 h)',
      audit: { action: 'webhook.rotateSecret', target: inParams('webhookId') },
      params: webhookParams, body: noParametersSchema,
      status: 201, response: rotatedSecretResponse,
      handle: async ({ params }) => {
        const { endpoint, secret } = await webhooks.rotateSecret(params.webhookId);
        return presentRotatedSecret(endpoint, secret);
      },
    }),
    route({
      method: 'get', path: DELIVERIES, operationId: 'listWebhookDeliveries', guard: 'admin', scope: 'read', summary: "List a webhook endpoint's deliveries, newest first",
      params: webhookParams, query: listDeliveriesQuery,
      status: 200, response: deliveryListResponse,
      handle: async ({ params, query: { page, pageSize } }) => {
        const { items, total } = await webhooks.listDeliveries(params.webhookId, page, pageSize);
        return presentDeliveryList(items, page, pageSize, total);
      },
    }),
    route({
      method: 'post', path: `${DELIVERIES}/:deliveryId/redeliver`, operationId: 'redeliverWebhookDelivery', guard: 'admin', scope: 'admin', summary: 'Send a delivered or failed message again',
      audit: { action: 'webhookDelivery.redeliver', target: [inParams('webhookId'), inParams('deliveryId')] },
      params: deliveryParams, body: noParametersSchema,
      status: 202, response: deliveryResponse,
      handle: async ({ params }) => Reply.withStatus(202, presentDelivery(await webhooks.redeliver(params.webhookId, params.deliveryId))),
    }),
  ];
};
