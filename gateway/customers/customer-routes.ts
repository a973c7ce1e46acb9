import { operationRoute } from '../http/operation-route';
import { inParams,inResult } from '../http/access';
import { presentApplication } from '../../shared/contract/applications';
import type { RouteModule } from '../gateway-deps';
import type { CustomerService } from './customer-service';
import type { ApplicationService } from '../applications/application-service';
import {
presentApiKeyList,
presentCustomer,
presentCustomerList,
presentDeletedCustomer,
presentIssuedApiKey,
presentProvisionedCustomer,
presentRevokedApiKey
} from '../../shared/contract/customers';


/** Customer accounts and their API keys (admin only). The full key appears only in the response that issues it. */
export const customerRoutes: RouteModule<{ customers: CustomerService; applications: ApplicationService }> = (deps, { customers, applications }) => {

  return [
    operationRoute(deps.config, 'createCustomer', {
      guard: 'admin', scope: 'manage', summary: 'Create a customer and its first API key',
      audit: { action: 'customer.create', target: inResult('customerId') },
      status: 201, failures: [422],
      handle: async ({ body }) => {
        const { customer, key } = await customers.provision(body);
        return presentProvisionedCustomer(customer, key);
      },
    }),
    operationRoute(deps.config, 'listCustomers', {
      guard: 'admin', scope: 'read', summary: 'List customers',
      status: 200,
      handle: async ({ query: { page, pageSize, search } }) => {
        const { items, total } = await customers.list(page, pageSize, search);
        return presentCustomerList(items, page, pageSize, total);
      },
    }),
    operationRoute(deps.config, 'getCustomer', {
      guard: 'admin', scope: 'read', summary: 'Read a customer',
      status: 200,
      handle: async ({ params }) => presentCustomer(await customers.get(params.customerId)),
    }),
    operationRoute(deps.config, 'updateCustomer', {
      guard: 'admin', scope: 'manage', summary: "Change a customer's name, tier, notes, status or maintenance window",
      audit: { action: 'customer.update', target: inParams('customerId') },
      status: 200, failures: [422],
      handle: async ({ params, body }) => presentCustomer(await customers.update(params.customerId, body)),
    }),
    operationRoute(deps.config, 'deleteCustomer', {
      guard: 'admin', scope: 'manage',
      summary: 'Delete a customer: its keys and share links revoked, its access removed, its activity anonymised (statistics keep counting it)',
      audit: { action: 'customer.delete', target: inParams('customerId') },
      status: 200,
      handle: async ({ params }) => presentDeletedCustomer(await customers.delete(params.customerId)),
    }),
    operationRoute(deps.config, 'issueCustomerApiKey', {
      guard: 'admin', scope: 'manage', summary: 'Issue another API key',
      audit: { action: 'customerKey.create', target: [inParams('customerId'), inResult('keyId')] },
      status: 201,
      handle: async ({ params }) => presentIssuedApiKey(await customers.createApiKey(params.customerId)),
    }),
    operationRoute(deps.config, 'listCustomerApiKeys', {
      guard: 'admin', scope: 'read', summary: "List a customer's active API keys",
      status: 200,
      handle: async ({ params }) => presentApiKeyList(await customers.listApiKeys(params.customerId)),
    }),
    operationRoute(deps.config, 'revokeCustomerApiKey', {
      guard: 'admin', scope: 'manage', summary: 'Revoke an API key',
      audit: { action: 'customerKey.revoke', target: [inParams('customerId'), inParams('keyId')] },
      status: 200,
      handle: async ({ params }) => presentRevokedApiKey(await customers.revokeApiKey(params.customerId, params.keyId)),
    }),
    // One customer's access to one application, without replacing the application's whole list.
    operationRoute(deps.config, 'grantCustomerApplicationAccess', {
      guard: 'admin', scope: 'manage', summary: 'Let a customer download an application (its other customers unchanged)',
      application: inParams('applicationId'), audit: { action: 'customerAccess.grant', target: [inParams('customerId'), inParams('applicationId')] },
      status: 200,
      handle: async ({ params }) => presentApplication(await applications.grant(params.applicationId, params.customerId)),
    }),
    operationRoute(deps.config, 'revokeCustomerApplicationAccess', {
      guard: 'admin', scope: 'manage', summary: "Take a customer's access to an application away (its other customers unchanged)",
      application: inParams('applicationId'), audit: { action: 'customerAccess.revoke', target: [inParams('customerId'), inParams('applicationId')] },
      status: 200,
      handle: async ({ params }) => presentApplication(await applications.revoke(params.applicationId, params.customerId)),
    }),
  ];
};
