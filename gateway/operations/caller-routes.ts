import { operationRoute } from '../http/operation-route';
import type { RouteModule } from '../gateway-deps';
import { presentCaller } from '../../shared/contract/caller';

/** GET /v1/me: any key learns whose it is and its scopes; the console and the portal start here. */
export const callerRoutes: RouteModule = (deps) => [
  operationRoute(deps.config, 'getCaller', {
    guard: 'key', summary: "The kind of the presented key, its scopes and the applications it is limited to; to an admin key, the service's tiers and channels",
    status: 200,
    handle: async (_input, _ctx, caller) => {
      const customer = caller.kind === 'customer' ? await deps.store.accounts.getCustomer(caller.customerId) : null;
      return presentCaller(caller, deps.config, customer?.name ?? null);
    },
  }),
];
