import type { Middleware, Next } from 'koa';
import { customerIdOfKey } from '../../shared/api-keys';
import { forbidden, unauthorized } from '../../shared/errors';
import { hashSecret, sameDigest } from '../../shared/secrets';
import type { ApiKeyCache, ResolvedKey } from '../auth/api-key-cache';
import type { AppContext, AppState, Principal } from '../http/context';

/** The scheme name is case-insensitive (RFC 9110 11.1); the key is not. */
const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/i;
const ADMIN: Principal = Object.freeze({ kind: 'admin' });

export type CustomerPrincipal = Extract<Principal, { kind: 'customer' }>;

/**
 * Who presents `Authorization: Bearer <key>`: an admin key (compared in constant time against every
 * configured hash) or a customer key `<customerId>.<secret>`. Answers synchronously when the key is
 * in the in-process cache, which is what the busiest requests find: no promise to wait for.
 */
export type Identify = (ctx: AppContext) => Principal | Promise<Principal>;

export function identifier(adminKeyHashes: readonly string[], keyCache: ApiKeyCache): Identify {
  const adminDigests = adminKeyHashes.map((h) => h.toLowerCase());
  const isAdminKey = (digest: string): boolean => {
    let match = false;
    for (const candidate of adminDigests) match = sameDigest(candidate, digest) || match;
    return match;
  };

  return (ctx) => {
    const presented = BEARER.exec(ctx.get('Authorization'))?.[1];
    if (!presented) throw unauthorized('an API key is required: Authorization: Bearer <key>');
    // One hash serves both checks: admin keys and customer keys are both stored as SHA-256.
    const keyHash = hashSecret(presented);
    if (isAdminKey(keyHash)) return ADMIN;
    const customerId = customerIdOfKey(presented);
    if (!customerId) throw unauthorized('invalid API key');
    const known = keyCache.cached(customerId, keyHash);
    return known ? customerPrincipal(known) : keyCache.resolve(customerId, keyHash).then(customerPrincipal);
  };
}

function customerPrincipal(resolved: ResolvedKey | null): CustomerPrincipal {
  if (!resolved) throw unauthorized('invalid API key');
  if (!resolved.customer.isActive) throw forbidden('customer account is inactive');
  return { kind: 'customer', customerId: resolved.key.customerId, keyId: resolved.key.keyId, tier: resolved.customer.tier };
}

const REFUSALS: Record<Principal['kind'], string> = {
  admin: 'this endpoint requires an admin API key',
  customer: 'this endpoint requires a customer API key',
};

/** Sets ctx.state.principal, or refuses a caller of the other kind with 403. */
function admit(ctx: AppContext, principal: Principal, kind: Principal['kind']): void {
  if (principal.kind !== kind) throw forbidden(REFUSALS[kind]);
  ctx.state.principal = principal;
}

/**
 * Identifies the caller and admits it when it is of `kind` (401 without a valid key, 403 for the
 * other kind). Returns a promise only when the key had to be looked up beyond the in-process cache.
 */
export function admitCaller(ctx: AppContext, identify: Identify, kind: Principal['kind']): void | Promise<void> {
  const identified = identify(ctx);
  if (identified instanceof Promise) return identified.then((principal) => admit(ctx, principal, kind));
  admit(ctx, identified, kind);
}

/** A guard for routes of one kind of caller. */
export function requirePrincipal(identify: Identify, kind: Principal['kind']): Middleware<AppState> {
  const guard = async (ctx: AppContext, next: Next): Promise<void> => {
    await admitCaller(ctx, identify, kind);
    await next();
  };
  return guard as Middleware<AppState>;
}

/** The authenticated customer; only for routes behind a customer guard. */
export function customerOf(ctx: AppContext): CustomerPrincipal {
  const principal = ctx.state.principal;
  if (principal?.kind !== 'customer') throw forbidden(REFUSALS.customer);
  return principal;
}
