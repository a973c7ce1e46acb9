import { inParams, inResult } from '../../http/access';
import { route, RouteModule } from '../../http/route';
import {
  apiKeyListResponse,
  customerListResponse,
  customerResponse,
  issuedApiKeyResponse,
  presentApiKeyList,
  presentCustomer,
  presentCustomerList,
  presentIssuedApiKey,
  presentProvisionedCustomer,
  presentRevokedApiKey,
  provisionedCustomerResponse,
  revokedApiKeyResponse,
} from '../../presenters/customers';
import {
  apiKeyParams,
  createCustomerSchema,
  customerParams,
  issueApiKeySchema,
  listCustomersQuery,
  updateCustomerSchema,
} from '../../schemas/customer-schemas';
import { CustomerService } from '../../services/customer-service';

const CUSTOMERS = '/v1/management/customers';
const CUSTOMER = `${CUSTOMERS}/:customerId`;
const API_KEYS = `${CUSTOMER}/apikeys`;

/** Customer accounts and their API keys (admin only). The full key appears only in the response that issues it. */
export const customerRoutes: RouteModule = (deps) => {
  const customers = new CustomerService(deps.store, deps.keyCache, deps.webhooks);

  return [
    route({
      method: 'post', path: CUSTOMERS, operationId: 'createCustomer', guard: 'admin', scope: 'manage', summary: 'Create a customer and its first API key',
      audit: { action: 'customer.create', target: inResult('customerId') },
      body: createCustomerSchema(deps.config.tiers),
      status: 201, response: provisionedCustomerResponse,
      handle: async ({ body }) => {
        const { customer, key } = await customers.provision(body);
        return presentProvisionedCustomer(customer, key);
      },
    }),
    route({
      method: 'get', path: CUSTOMERS, operationId: 'listCustomers', guard: 'admin', scope: 'read', summary: 'List customers',
      query: listCustomersQuery,
      status: 200, response: customerListResponse,
      handle: async ({ query: { page, pageSize } }) => {
        const { items, total } = await customers.list(page, pageSize);
        return presentCustomerList(items, page, pageSize, total);
      },
    }),
    route({
      method: 'get', path: CUSTOMER, operationId: 'getCustomer', guard: 'admin', scope: 'read', summary: 'Read a customer',
      params: customerParams,
      status: 200, response: customerResponse,
      handle: async ({ params }) => presentCustomer(await customers.get(params.customerId)),
    }),
    route({
      method: 'patch', path: CUSTOMER, operationId: 'updateCustomer', guard: 'admin', scope: 'manage', summary: "Change a customer's name, tier, notes or status",
      audit: { action: 'customer.update', target: inParams('customerId') },
      params: customerParams, body: updateCustomerSchema(deps.config.tiers),
      status: 200, response: customerResponse,
      handle: async ({ params, body }) => presentCustomer(await customers.update(params.customerId, body)),
    }),
    route({
      method: 'post', path: API_KEYS, operationId: 'issueCustomerApiKey', guard: 'admin', scope: 'manage', summary: 'Issue another API key',
      audit: { action: 'customerKey.create', target: [inParams('customerId'), inResult('keyId')] },
      params: customerParams, body: issueApiKeySchema,
      status: 201, response: issuedApiKeyResponse,
      handle: async ({ params }) => presentIssuedApiKey(await customers.createApiKey(params.customerId)),
    }),
    route({
      method: 'get', path: API_KEYS, operationId: 'listCustomerApiKeys', guard: 'admin', scope: 'read', summary: "List a customer's active API keys",
      params: customerParams,
      status: 200, response: apiKeyListResponse,
      handle: async ({ params }) => presentApiKeyList(await customers.listApiKeys(params.customerId)),
    }),
    route({
      method: 'delete', path: `${API_KEYS}/:keyId`, operationId: 'revokeCustomerApiKey', guard: 'admin', scope: 'manage', summary: 'Revoke an API key',
      audit: { action: 'customerKey.revoke', target: [inParams('customerId'), inParams('keyId')] },
      params: apiKeyParams,
      status: 200, response: revokedApiKeyResponse,
      handle: async ({ params }) => presentRevokedApiKey(await customers.revokeApiKey(params.customerId, params.keyId)),
    }),
  ];
};
