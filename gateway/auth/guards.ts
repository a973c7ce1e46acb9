import { customerIdOfKey, isAccessToken, isScopedAdminKey } from '../../shared/api-keys';
import { forbidden, unauthorized } from '../../shared/errors';
import { grants, Scope } from '../../shared/scopes';
import { entitlementOf } from '../../shared/releases/maintenance-window';
import type { CacheLookups } from '../../shared/metrics/process-metrics';
import { bearerCredential, hashSecret, sameDigest } from '../../shared/secrets';
import type { AdminGrant, AdminKeyCache } from './admin-key-cache';
import type { ApiKeyCache, ResolvedKey } from './api-key-cache';
import type { TokenAdmission } from './token-admission';
import type { AdminPrincipal, AppContext, CustomerPrincipal, Guard, Principal } from '../http/context';
import { andThen, Eventually } from '../http/eventually';

/** A key of ADMIN_API_KEYS: every scope, every application. */
export const ROOT: AdminPrincipal = Object.freeze({ kind: 'admin', actor: 'root', scopes: Object.freeze(['admin'] as Scope[]), applicationIds: null });

/**
 * Who presents `Authorization: Bearer <key>`: a root admin key (compared in constant time against
 * every configured hash), a scoped admin key `adm_<secret>`, a customer key `<customerId>.<secret>`,
 * or a customer's access token `bdt_<secret>` (also in the path: `/t/{token}/...`, token-admission.ts).
 * Answers now when the key is in the in-process cache, which is what the busiest requests find.
 */
export type Identify = (ctx: AppContext) => Eventually<Principal>;

export function identifier(
  adminKeyHashes: readonly string[],
  keyCache: ApiKeyCache,
  adminKeys: AdminKeyCache,
  keyLookups: CacheLookups,
  admitToken: TokenAdmission,
): Identify {
  const adminDigests = adminKeyHashes.map((h) => h.toLowerCase());
  const isAdminKey = (digest: string): boolean => {
    let match = false;
    for (const candidate of adminDigests) match = sameDigest(candidate, digest) || match;
    return match;
  };

  return (ctx) => {
    // An access token in the path (`/t/{token}/...`) stands for the request's credential.
    const { pathToken } = ctx.state;
    if (pathToken !== undefined) return admitToken(pathToken, ctx.method, ctx.path);
    const presented = presentedKey(ctx);
    if (!presented) {
      const basic = basicCredentials(ctx.get('Authorization'));
      if (basic && ctx.path.startsWith(REPOSITORY_PATH)) return andThen(admitToken(basic.password, ctx.method, ctx.path), sameCustomer, basic.login);
      throw unauthorized('an API key is required: Authorization: Bearer <key>');
    }
    if (isAccessToken(presented)) return admitToken(presented, ctx.method, ctx.path);
    // One hash serves both checks: admin keys and customer keys are both stored as SHA-256.
    const keyHash = hashSecret(presented);
    if (isAdminKey(keyHash)) return ROOT;
    if (isScopedAdminKey(presented)) {
      const grant = adminKeys.cached(keyHash);
      return grant ? scopedPrincipal(grant, adminKeys) : adminKeys.resolve(keyHash).then((resolved) => scopedPrincipal(resolved, adminKeys));
    }
    const customerId = customerIdOfKey(presented);
    if (!customerId) throw unauthorized('invalid API key');
    const known = keyCache.cached(customerId, keyHash);
    if (known) {
      keyLookups.hits += 1;
      return customerPrincipal(known);
    }
    keyLookups.misses += 1;
    return keyCache.resolve(customerId, keyHash).then(customerPrincipal);
  };
}

/**
 * Package repositories also take HTTP Basic credentials, as apt's auth.conf and dnf's
 * username/password send them: the customer id as the login, one of its access tokens as the
 * password (so the token need not sit in sources.list or a .repo file). Nowhere else.
 */
const REPOSITORY_PATH = '/v1/repos/';
const BASIC = /^Basic ([A-Za-z0-9+/=]{1,1024})$/i;

function basicCredentials(authorization: string | undefined): { login: string; password: string } | undefined {
  const encoded = authorization ? BASIC.exec(authorization)?.[1] : undefined;
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** A token presented with a login is admitted only for the customer the login names. */
function sameCustomer(principal: CustomerPrincipal, login: string): CustomerPrincipal {
  if (principal.customerId !== login) throw unauthorized('invalid access token');
  return principal;
}

/** The key a request presents in `Authorization: Bearer <key>`, if any. */
export function presentedKey(ctx: AppContext): string | undefined {
  return bearerCredential(ctx.get('Authorization'));
}

function customerPrincipal(resolved: ResolvedKey | null): CustomerPrincipal {
  if (!resolved) throw unauthorized('invalid API key');
  if (!resolved.customer.isActive) throw forbidden('customer account is inactive');
  const entitlement = entitlementOf(resolved.customer);
  const principal: CustomerPrincipal = { kind: 'customer', customerId: resolved.key.customerId, keyId: resolved.key.keyId, tier: resolved.customer.tier };
  if (entitlement) principal.entitlement = entitlement;
  return principal;
}

function scopedPrincipal(grant: AdminGrant | null, adminKeys: AdminKeyCache): AdminPrincipal {
  if (!grant) throw unauthorized('invalid API key');
  if (grant.expiresAt !== null && grant.expiresAt <= Date.now()) throw unauthorized('this API key has expired');
  adminKeys.recordUse(grant.keyId);
  return { kind: 'admin', actor: grant.keyId, scopes: grant.scopes, applicationIds: grant.applicationIds };
}

/** Admits the holder of any valid key, admin or customer. */
function admitAnyKey(principal: Principal, ctx: AppContext): Principal {
  ctx.state.principal = principal;
  return principal;
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

/**
 * The step a guard puts before a route's handler: 401 without a valid key, 403 for the other kind of
 * caller, and for an admin route 403 for a key without the scope it declares.
 */
export type Admission = (ctx: AppContext) => Eventually<Principal | undefined>;

/** What the guards check credentials against. */
export interface Credentials {
  identify: Identify;
  /** Whether a request presents the metrics token; absent when metrics are not served. */
  presentsMetricsToken?: (authorization: string | undefined) => boolean;
}

export function admission(guard: Guard, scope: Scope | undefined, credentials: Credentials): Admission {
  if (guard === 'none') return () => undefined;
  if (guard === 'metrics') {
    const presentsToken = credentials.presentsMetricsToken ?? (() => false);
    return (ctx) => {
      // API keys are not asked about: the token is the only credential here, anything else is a 401.
      if (!presentsToken(ctx.get('Authorization'))) throw unauthorized('the metrics token is required: Authorization: Bearer <METRICS_TOKEN>');
      return undefined;
    };
  }
  const { identify } = credentials;
  if (guard === 'key') return (ctx) => andThen(identify(ctx), admitAnyKey, ctx);
  const admit = admitting(guard);
  if (guard === 'customer') return (ctx) => andThen(identify(ctx), admit, ctx);
  if (scope === undefined) throw new Error('an admin route declares the scope it needs');
  const admitScoped = (principal: Principal, ctx: AppContext): Principal => {
    const admitted = admit(principal, ctx) as AdminPrincipal;
    if (!grants(admitted.scopes, scope)) throw forbidden(`this API key does not have the ${scope} scope`);
    return admitted;
  };
  return (ctx) => andThen(identify(ctx), admitScoped, ctx);
}
