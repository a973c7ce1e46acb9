import { isAccessToken } from '../../shared/api-keys';
import type { Clock } from '../../shared/clock';
import { AppError, forbidden, unauthorized } from '../../shared/errors';
import { hashSecret } from '../../shared/secrets';
import type { AccessToken } from '../../shared/store/models';
import { entitlementOf } from '../../shared/releases/maintenance-window';
import type { CustomerPrincipal, TokenGrant } from '../http/context';
import { andThen, Eventually } from '../http/eventually';
import type { AccessTokenCache } from './access-token-cache';
import type { ApiKeyCache, CustomerStanding } from './api-key-cache';

/**
 * The paths a token opens: downloads, update feeds, package repositories and TUF repositories, read only (a token never creates a share link
 * or changes anything), and whose it is (`GET /v1/me`, for the portal); its one write is accepting a
 * licence, which its downloads wait for.
 */
const TOKEN_READS = /^\/v1\/((downloads|updates|repos|tuf)\/|me$)/;
const TOKEN_WRITES = /^\/v1\/downloads\/licence\/[^/]+\/accept$/;

const tokenOpens = (method: string, path: string): boolean =>
  method === 'GET' || method === 'HEAD' ? TOKEN_READS.test(path) : method === 'POST' && TOKEN_WRITES.test(path);

/**
 * The customer a presented access token stands for, with the token's grant: 401 for a token unknown
 * or revoked, 403 outside its validity (TOKEN_NOT_YET_VALID with when it starts, TOKEN_EXPIRED), for an
 * inactive customer, or on a route a token does not open. Answers now when the token and its customer
 * are cached in process.
 */
export function tokenAdmission(tokens: AccessTokenCache, keyCache: ApiKeyCache, clock: Clock) {
  const admit = (record: AccessToken | null, presented: string): Eventually<CustomerPrincipal> => {
    if (!record || record.revokedAt) throw unauthorized('invalid access token');
    const now = clock.now();
    if (record.validFrom && now < record.validFrom.getTime()) {
      throw new AppError(403, 'TOKEN_NOT_YET_VALID', `this access token is valid from ${record.validFrom.toISOString()}`,
        [{ field: 'validFrom', message: record.validFrom.toISOString() }], record.validFrom);
    }
    if (record.validUntil && now >= record.validUntil.getTime()) {
      throw new AppError(403, 'TOKEN_EXPIRED', `this access token expired at ${record.validUntil.toISOString()}`,
        [{ field: 'validUntil', message: record.validUntil.toISOString() }]);
    }
    const grant: TokenGrant = { record, clientKey: tokens.clientKey(record.tokenHash, presented) };
    const standing = keyCache.cachedStanding(record.customerId) ?? keyCache.standing(record.customerId);
    return andThen(standing, (customer: CustomerStanding | null) => {
      if (!customer) throw unauthorized('invalid access token');
      if (!customer.isActive) throw forbidden('customer account is inactive');
      tokens.recordUse(record.tokenId);
      const principal: CustomerPrincipal = { kind: 'customer', customerId: record.customerId, keyId: record.tokenId, tier: customer.tier, token: grant };
      const entitlement = entitlementOf(customer, record);
      if (entitlement) principal.entitlement = entitlement;
      return principal;
    }, undefined);
  };

  return (presented: string, method: string, path: string): Eventually<CustomerPrincipal> => {
    if (!isAccessToken(presented)) throw unauthorized('invalid access token');
    if (!tokenOpens(method, path)) {
      throw forbidden('an access token only downloads, reads update feeds and accepts licences: this request needs an API key');
    }
    const tokenHash = hashSecret(presented);
    const cached = tokens.cached(tokenHash);
    return cached ? admit(cached, presented) : tokens.resolve(tokenHash).then((record) => admit(record, presented));
  };
}

export type TokenAdmission = ReturnType<typeof tokenAdmission>;
