import type { Next } from 'koa';
import { hash, timingSafeEqual } from 'node:crypto';
import { customerIdOfKey } from '../../shared/api-keys';
import { forbidden, unauthorized } from '../../shared/errors';
import type { ApiKeyCache } from '../auth/api-key-cache';
import type { AppContext, Principal } from '../http/context';

/** The scheme name is case-insensitive (RFC 9110 11.1); the key is not. */
const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/i;

/**
 * Establishes ctx.state.principal from `Authorization: Bearer <key>`: an admin key (compared in
 * constant time against every configured hash) or a customer key `<customerId>.<secret>`.
 */
export function authenticate(adminKeyHashes: readonly string[], keyCache: ApiKeyCache) {
  const adminDigests = adminKeyHashes.map((h) => Buffer.from(h, 'hex'));
  const isAdminKey = (digest: Buffer): boolean => {
    let match = false;
    for (const candidate of adminDigests) match = timingSafeEqual(candidate, digest) || match;
    return match;
  };

  return async (ctx: AppContext, next: Next): Promise<void> => {
    const presented = BEARER.exec(ctx.get('Authorization'))?.[1];
    if (!presented) throw unauthorized('an API key is required: Authorization: Bearer <key>');
    // One hash serves both checks: admin keys and customer keys are both stored as SHA-256.
    const digest = hash('sha256', presented, 'buffer');
    ctx.state.principal = isAdminKey(digest) ? { kind: 'admin' } : await identifyCustomer(presented, digest.toString('hex'), keyCache);
    await next();
  };
}

async function identifyCustomer(presented: string, keyHash: string, keyCache: ApiKeyCache): Promise<Principal> {
  const customerId = customerIdOfKey(presented);
  if (!customerId) throw unauthorized('invalid API key');
  const resolved = await keyCache.resolve(customerId, keyHash);
  if (!resolved) throw unauthorized('invalid API key');
  if (!resolved.customer.isActive) throw forbidden('customer account is inactive');
  return { kind: 'customer', customerId: resolved.key.customerId, keyId: resolved.key.keyId, tier: resolved.customer.tier };
}

export async function requireAdmin(ctx: AppContext, next: Next): Promise<void> {
  if (ctx.state.principal?.kind !== 'admin') throw forbidden('this endpoint requires an admin API key');
  await next();
}

export async function requireCustomer(ctx: AppContext, next: Next): Promise<void> {
  if (ctx.state.principal?.kind !== 'customer') throw forbidden('this endpoint requires a customer API key');
  await next();
}

/** The authenticated customer; only for routes behind requireCustomer. */
export function customerOf(ctx: AppContext): Extract<Principal, { kind: 'customer' }> {
  const principal = ctx.state.principal;
  if (principal?.kind !== 'customer') throw forbidden('this endpoint requires a customer API key');
  return principal;
}
