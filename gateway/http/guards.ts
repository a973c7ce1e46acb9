import { customerIdOfKey } from '../../shared/api-keys';
import { forbidden, unauthorized } from '../../shared/errors';
import { hashSecret, sameDigest } from '../../shared/secrets';
import type { ApiKeyCache, ResolvedKey } from '../auth/api-key-cache';
import type { AdminPrincipal, AppContext, CustomerPrincipal, Principal } from './context';
import { andThen, Eventually } from './eventually';

/** Who may call a route: an admin key, a customer key, or anyone (share-link uses, health, signed object URLs). */
export type Guard = 'admin' | 'customer' | 'none';

/** The caller a route's handler is given, by its guard. */
export type CallerOf<G extends Guard> = G extends 'admin' ? AdminPrincipal : G extends 'customer' ? CustomerPrincipal : undefined;

/** The scheme name is case-insensitive (RFC 9110 11.1); the key is not. */
const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/i;
const ADMIN: AdminPrincipal = Object.freeze({ kind: 'admin' });

/**
 * Who presents `Authorization: Bearer <key>`: an admin key (compared in constant time against every
 * configured hash) or a customer key `<customerId>.<secret>`. Answers now when the key is in the
 * in-process cache, which is what the busiest requests find.
 */
export type Identify = (ctx: AppContext) => Eventually<Principal>;

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

/** Admits a caller of one kind to a request: returns it (and sets ctx.state.principal), or refuses the other kind with 403. */
function admitting(kind: Principal['kind']) {
  const refusal = `this endpoint requires ${kind === 'admin' ? 'an admin' : 'a customer'} API key`;
  return (principal: Principal, ctx: AppContext): Principal => {
    if (principal.kind !== kind) throw forbidden(refusal);
    ctx.state.principal = principal;
    return principal;
  };
}

/** The step a guard puts before a route's handler: 401 without a valid key, 403 for the other kind of caller. */
export type Admission = (ctx: AppContext) => Eventually<Principal | undefined>;

export function admission(guard: Guard, identify: Identify): Admission {
  if (guard === 'none') return () => undefined;
  const admit = admitting(guard);
  return (ctx) => andThen(identify(ctx), admit, ctx);
}
