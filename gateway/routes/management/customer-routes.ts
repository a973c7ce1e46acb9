import type { RouteModule } from '../api-routes';
import { respond } from '../../http/respond';
import { validate } from '../../http/validate';
import { pagination, presentApiKey, presentCustomer } from '../../presenters/present';
import {
  createCustomerSchema,
  issueApiKeySchema,
  listCustomersQuery,
  updateCustomerSchema,
} from '../../schemas/customer-schemas';
import { CustomerService, IssuedApiKey } from '../../services/customer-service';

const CUSTOMERS = '/management/customers';
const CUSTOMER = `${CUSTOMERS}/:customerId`;
const API_KEYS = `${CUSTOMER}/apikeys`;

/** Customer accounts and their API keys (admin only). The full key appears only in the response that issues it. */
export const customerRoutes: RouteModule = (router, deps, guards) => {
  const customers = new CustomerService(deps.store, deps.keyCache);
  const createSchema = createCustomerSchema(deps.config.tiers);
  const updateSchema = updateCustomerSchema(deps.config.tiers);

  router.post(CUSTOMERS, guards.admin, async (ctx) => {
    const input = validate(createSchema, ctx.request.body);
    const { customer, key } = await customers.provision(input);
    respond(ctx, { ...presentCustomer(customer), apiKey: key.apiKey, keyId: key.record.keyId }, 201);
  });

  router.get(CUSTOMERS, guards.admin, async (ctx) => {
    const { page, pageSize } = validate(listCustomersQuery, ctx.query);
    const { items, total } = await customers.list(page, pageSize);
    respond(ctx, { customers: items.map(presentCustomer), pagination: pagination(page, pageSize, total) });
  });

  router.get(CUSTOMER, guards.admin, async (ctx) => {
    respond(ctx, presentCustomer(await customers.get(ctx.params.customerId)));
  });

  router.patch(CUSTOMER, guards.admin, async (ctx) => {
    const patch = validate(updateSchema, ctx.request.body);
    respond(ctx, presentCustomer(await customers.update(ctx.params.customerId, patch)));
  });

  router.post(API_KEYS, guards.admin, async (ctx) => {
    validate(issueApiKeySchema, ctx.request.body);
    respond(ctx, presentIssuedKey(await customers.createApiKey(ctx.params.customerId)), 201);
  });

  router.get(API_KEYS, guards.admin, async (ctx) => {
    const keys = await customers.listApiKeys(ctx.params.customerId);
    respond(ctx, { apiKeys: keys.map(presentApiKey) });
  });

  router.delete(`${API_KEYS}/:keyId`, guards.admin, async (ctx) => {
    const revoked = await customers.revokeApiKey(ctx.params.customerId, ctx.params.keyId);
    respond(ctx, { customerId: revoked.customerId, keyId: revoked.keyId, revokedAt: revoked.revokedAt?.toISOString() ?? null });
  });
};

function presentIssuedKey({ record, apiKey }: IssuedApiKey) {
  return { customerId: record.customerId, keyId: record.keyId, apiKey, createdAt: record.createdAt.toISOString() };
}
