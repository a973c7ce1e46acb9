import { inParams, inResult } from '../http/access';
import { route} from '../http/route';
import type { RouteModule } from '../gateway-deps';
import type { AccessTokenService } from './access-token-service';
import {
  accessTokenListResponse,
  accessTokenResponse,
  accessTokenWithUsageResponse,
  issuedAccessTokenResponse,
  presentAccessToken,
  presentAccessTokenList,
  presentAccessTokenWithUsage,
  presentIssuedAccessToken,
} from '../../shared/contract/access-tokens';
import { accessTokenParams, createAccessTokenSchema, updateAccessTokenSchema } from '../../shared/contract/access-tokens-requests';
import { customerParams } from '../../shared/contract/fields';

const TOKENS = '/v1/management/customers/:customerId/tokens';
const TOKEN = `${TOKENS}/:tokenId`;

/**
 * Customers' access tokens (admin only), with the scopes of customer keys: a credential for downloads
 * and update feeds, with limits. The token itself appears only in the answer that creates it.
 */
export const accessTokenRoutes: RouteModule<{ accessTokens: AccessTokenService }> = (deps, { accessTokens }) => {
  const { channels, publicBaseUrl } = deps.config;
  return [
    route({
      method: 'post', path: TOKENS, operationId: 'createAccessToken', guard: 'admin', scope: 'manage', summary: 'Create an access token for a customer, with optional limits',
      audit: { action: 'accessToken.create', target: [inParams('customerId'), inResult('tokenId')] },
      params: customerParams, body: createAccessTokenSchema(channels),
      status: 201, failures: [404, 409, 422], response: issuedAccessTokenResponse,
      handle: async ({ params, body }) => {
        const { record, token } = await accessTokens.create(params.customerId, body);
        return presentIssuedAccessToken(record, token, publicBaseUrl);
      },
    }),
    route({
      method: 'get', path: TOKENS, operationId: 'listAccessTokens', guard: 'admin', scope: 'read', summary: "List a customer's active access tokens",
      params: customerParams,
      status: 200, failures: [404], response: accessTokenListResponse,
      handle: async ({ params }) => presentAccessTokenList(await accessTokens.list(params.customerId)),
    }),
    route({
      method: 'get', path: TOKEN, operationId: 'getAccessToken', guard: 'admin', scope: 'read', summary: 'Read an access token and its usage in the current period',
      params: accessTokenParams,
      status: 200, failures: [404], response: accessTokenWithUsageResponse,
      handle: async ({ params }) => {
        const { token, usage, period } = await accessTokens.get(params.customerId, params.tokenId);
        return presentAccessTokenWithUsage(token, usage, period);
      },
    }),
    route({
      method: 'patch', path: TOKEN, operationId: 'updateAccessToken', guard: 'admin', scope: 'manage', summary: "Change an access token's limits (null removes one)",
      audit: { action: 'accessToken.update', target: [inParams('customerId'), inParams('tokenId')] },
      params: accessTokenParams, body: updateAccessTokenSchema(channels),
      status: 200, failures: [404, 422], response: accessTokenResponse,
      handle: async ({ params, body }) => presentAccessToken(await accessTokens.update(params.customerId, params.tokenId, body)),
    }),
    route({
      method: 'delete', path: TOKEN, operationId: 'revokeAccessToken', guard: 'admin', scope: 'manage', summary: 'Revoke an access token: refused on every gateway from the next request',
      audit: { action: 'accessToken.revoke', target: [inParams('customerId'), inParams('tokenId')] },
      params: accessTokenParams,
      status: 200, failures: [404], response: accessTokenResponse,
      handle: async ({ params }) => presentAccessToken(await accessTokens.revoke(params.customerId, params.tokenId)),
    }),
  ];
};
