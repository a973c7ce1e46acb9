import { operationRoute } from '../http/operation-route';
import { inParams,inResult } from '../http/access';
import type { RouteModule } from '../gateway-deps';
import type { AccessTokenService } from './access-token-service';
import {
presentAccessToken,
presentAccessTokenList,
presentAccessTokenWithUsage,
presentIssuedAccessToken
} from '../../shared/contract/access-tokens';


/**
 * Customers' access tokens (admin only), with the scopes of customer keys: a credential for downloads
 * and update feeds, with limits. The token itself appears only in the answer that creates it.
 */
export const accessTokenRoutes: RouteModule<{ accessTokens: AccessTokenService }> = (deps, { accessTokens }) => {
  const { publicBaseUrl } = deps.config;
  return [
    operationRoute(deps.config, 'createAccessToken', {
      guard: 'admin', scope: 'manage', summary: 'Create an access token for a customer, with optional limits',
      audit: { action: 'accessToken.create', target: [inParams('customerId'), inResult('tokenId')] },
      status: 201, failures: [404, 409, 422],
      handle: async ({ params, body }) => {
        const { record, token } = await accessTokens.create(params.customerId, body);
        return presentIssuedAccessToken(record, token, publicBaseUrl);
      },
    }),
    operationRoute(deps.config, 'listAccessTokens', {
      guard: 'admin', scope: 'read', summary: "List a customer's active access tokens",
      status: 200, failures: [404],
      handle: async ({ params }) => presentAccessTokenList(await accessTokens.list(params.customerId)),
    }),
    operationRoute(deps.config, 'getAccessToken', {
      guard: 'admin', scope: 'read', summary: 'Read an access token and its usage in the current period',
      status: 200, failures: [404],
      handle: async ({ params }) => {
        const { token, usage, period } = await accessTokens.get(params.customerId, params.tokenId);
        return presentAccessTokenWithUsage(token, usage, period);
      },
    }),
    operationRoute(deps.config, 'updateAccessToken', {
      guard: 'admin', scope: 'manage', summary: "Change an access token's limits (null removes one)",
      audit: { action: 'accessToken.update', target: [inParams('customerId'), inParams('tokenId')] },
      status: 200, failures: [404, 422],
      handle: async ({ params, body }) => presentAccessToken(await accessTokens.update(params.customerId, params.tokenId, body)),
    }),
    operationRoute(deps.config, 'revokeAccessToken', {
      guard: 'admin', scope: 'manage', summary: 'Revoke an access token: refused on every gateway from the next request',
      audit: { action: 'accessToken.revoke', target: [inParams('customerId'), inParams('tokenId')] },
      status: 200, failures: [404],
      handle: async ({ params }) => presentAccessToken(await accessTokens.revoke(params.customerId, params.tokenId)),
    }),
  ];
};
