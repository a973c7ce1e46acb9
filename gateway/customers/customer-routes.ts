import { inParams, inResult } from '../http/access';
import { applicationResponse, presentApplication } from '../../shared/contract/applications';
import { route} from '../http/route';
import type { RouteModule } from '../gateway-deps';
import type { CustomerService } from './customer-service';
import type { ApplicationService } from '../applications/application-service';
import {
  apiKeyListResponse,
  customerListResponse,
  customerResponse,
  deletedCustomerResponse,
  issuedApiKeyResponse,
  presentApiKeyList,
  presentCustomer,
  presentCustomerList,
  presentDeletedCustomer,
  presentIssuedApiKey,
  presentProvisionedCustomer,
  presentRevokedApiKey,
  provisionedCustomerResponse,
  revokedApiKeyResponse,
} from '../../shared/contract/customers';
import {
  apiKeyParams,
  createCustomerSchema,
  customerAccessParams,
  grantAccessSchema,
  issueApiKeySchema,
  listCustomersQuery,
  updateCustomerSchema,
} from '../../shared/contract/customers-requests';
import { customerParams } from '../../shared/contract/fields';

const CUSTOMERS = '/v1/management/customers';
const CUSTOMER = `${CUSTOMERS}/:customerId`;
const API_KEYS = `${CUSTOMER}/apikeys`;
const ACCESS = `${CUSTOMER}/applications/:applicationId`;

/** Customer accounts and their API keys (admin only). The full key appears only in the response that issues it. */
export const customerRoutes: RouteModule<{ customers: CustomerService; applications: ApplicationService }> = (deps, { customers, applications }) => {

  return [
    route({
      method: 'post', path: CUSTOMERS, operationId: 'createCustomer', guard: 'admin', scope: 'manage', summary: 'Create a customer and its first API key',
      audit: { action: 'customer.create', target: inResult('customerId') },
      body: createCustomerSchema(deps.config.tiers),
      status: 201, failures: [422], response: provisionedCustomerResponse,
      handle: async ({ body }) => {
        const { customer, key } = await customers.provision(body);
        return presentProvisionedCustomer(customer, key);
      },
    }),
    route({
      method: 'get', path: CUSTOMERS, operationId: 'listCustomers', guard: 'admin', scope: 'read', summary: 'List customers',
      query: listCustomersQuery,
      status: 200, response: customerListResponse,
      handle: async ({ query: { page, pageSize, search } }) => {
        const { items, total } = await customers.list(page, pageSize, search);
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
      method: 'patch', path: CUSTOMER, operationId: 'updateCustomer', guard: 'admin', scope: 'manage', summary: "Change a customer's name, tier, notes, status or maintenance window",
      audit: { action: 'customer.update', target: inParams('customerId') },
      params: customerParams, body: updateCustomerSchema(deps.config.tiers),
      status: 200, failures: [422], response: customerResponse,
      handle: async ({ params, body }) => presentCustomer(await customers.update(params.customerId, body)),
    }),
    route({
      method: 'delete', path: CUSTOMER, operationId: 'deleteCustomer', guard: 'admin', scope: 'manage',
      summary: 'Delete a customer: its keys and share links revoked, its access removed, its activity anonymised (statistics keep counting it)',
      audit: { action: 'customer.delete', target: inParams('customerId') },
      params: customerParams,
      status: 200, response: deletedCustomerResponse,
      handle: async ({ params }) => presentDeletedCustomer(await customers.delete(params.customerId)),
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
    // One customer's access to one application, without replacing the application's whole list.
    route({
      method: 'put', path: ACCESS, operationId: 'grantCustomerApplicationAccess', guard: 'admin', scope: 'manage', summary: 'Let a customer download an application (its other customers unchanged)',
      application: inParams('applicationId'), audit: { action: 'customerAccess.grant', target: [inParams('customerId'), inParams('applicationId')] },
      params: customerAccessParams, body: grantAccessSchema,
      status: 200, response: applicationResponse,
      handle: async ({ params }) => presentApplication(await applications.grant(params.applicationId, params.customerId)),
    }),
    route({
      method: 'delete', path: ACCESS, operationId: 'revokeCustomerApplicationAccess', guard: 'admin', scope: 'manage', summary: "Take a customer's access to an application away (its other customers unchanged)",
      application: inParams('applicationId'), audit: { action: 'customerAccess.revoke', target: [inParams('customerId'), inParams('applicationId')] },
      params: customerAccessParams,
      status: 200, response: applicationResponse,
      handle: async ({ params }) => presentApplication(await applications.revoke(params.applicationId, params.customerId)),
    }),
  ];
};
