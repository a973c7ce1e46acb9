import type { Redis } from 'ioredis';
import { rateLimited } from '../../shared/errors';
import type { RedisOutageLog } from '../../shared/redis/redis-outage-log';
import { ADMIN_POLICY, CUSTOMER_POLICY, RateLimits, SHARE_CLIENT_POLICY, SHARE_LINK_POLICY } from '../../shared/rate-limit-policies';
import { hashSecret } from '../../shared/secrets';
import { clientAddress } from '../http/client-origin';
import type { AppContext, Principal } from '../http/context';
import { Eventually, isPending } from '../http/eventually';
import type { Route } from '../http/route';
import { SharedRateLimit, Standing } from './shared-rate-limit';

/** Whether a route is rate-limited: per key behind a key, per use where it declares `limitedPer`; the metrics scrape is not. */
export function isRateLimited(route: Route): boolean {
  return route.guard === 'admin' || route.guard === 'customer' || route.limitedPer !== undefined;
}

/** The step rate limits put after a route's guard: the caller again, or a 429. */
export type LimitStep = (caller: Principal | undefined, ctx: AppContext) => Eventually<Principal | undefined>;

/** Logged once per Redis outage, by a gateway whose limits of API keys had to ask Redis during it. */
export const KEYS_FAIL_OPEN = 'rate limits of API keys are not enforced while redis is unreachable';
const USES_COUNTED_LOCALLY = 'rate limits of share-link uses are enforced by each gateway alone while redis is unreachable';

/**
 * The rate limits of every route (RATE_LIMITS): per key for routes with a key, by the caller's kind
 * and tier; per token and per client address for share-link uses. Every answer they let through or
 * refuse carries RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers); a refusal is
 * 429 RATE_LIMITED with Retry-After. Without Redis, keys are not limited (a customer keeps
 * downloading through an outage) and share-link uses, which anyone can send, are limited by each
 * gateway on its own.
 */
export class RateLimiting {
  /** What /readyz says about rate limits while Redis is unreachable. */
  readonly withoutRedis = 'API keys are not limited (failing open); share-link uses are limited by each gateway alone';
  private readonly policies = new Map<string, SharedRateLimit>();

  constructor(limits: RateLimits, redis: Redis, redisPrefix: string, redisOutage: RedisOutageLog) {
    for (const [name, limit] of Object.entries(limits)) {
      const keyed = name !== SHARE_LINK_POLICY && name !== SHARE_CLIENT_POLICY;
      const note = keyed ? KEYS_FAIL_OPEN : USES_COUNTED_LOCALLY;
      this.policies.set(name, new SharedRateLimit({
        name,
        limit,
        redis,
        keyPrefix: `${redisPrefix}:rate:${name}`,
        // Tokens are secrets: Redis sees their SHA-256, hashed only when it is asked.
        redisKeyOf: name === SHARE_LINK_POLICY ? hashSecret : undefined,
        withoutRedis: keyed ? 'open' : 'local',
        onRedisFailure: (error) => redisOutage.degraded(note, error),
      }));
    }
  }

  /** The route's step, by its declaration: none for a route without a key that declares no limit, nor for the metrics scrape. */
  stepFor(route: Route): LimitStep | undefined {
    if (!isRateLimited(route)) return undefined;
    return route.limitedPer === undefined ? this.limitCaller : this.limitUses(route.limitedPer);
  }

  /** Per key: each customer key by its customer's tier, admin keys by the admin policy. */
  private readonly limitCaller: LimitStep = (caller, ctx) => {
    const principal = caller as Principal;
    const policy = principal.kind === 'customer'
      ? this.policies.get(principal.tier) ?? this.policy(CUSTOMER_POLICY)
      : this.policy(ADMIN_POLICY);
    // Each scoped admin key is counted on its own, the root keys of ADMIN_API_KEYS together.
    const standing = policy.take(principal.kind === 'customer' ? principal.keyId : principal.actor);
    if (isPending(standing)) return standing.then((resolved) => admitted(ctx, principal, policy, resolved));
    return admitted(ctx, principal, policy, standing);
  };

  /**
   * Per client address first, then per value of `param`: a client refused for its own requests does
   * not spend the link's allowance for its other users.
   */
  private limitUses(param: string): LimitStep {
    const perClient = this.policy(SHARE_CLIENT_POLICY);
    const perValue = this.policy(SHARE_LINK_POLICY);
    const policyItems = `${perValue.policyItem}, ${perClient.policyItem}`;
    const afterClient = (ctx: AppContext, byClient: Standing, now?: number): Eventually<undefined> => {
      if (!byClient.allowed) {
        ctx.set('RateLimit-Policy', policyItems);
        ctx.set('RateLimit', perClient.limitItem(byClient));
        throw refusal(ctx, byClient);
      }
      const byValue = perValue.take(String(ctx.params[param]), now);
      if (isPending(byValue)) return byValue.then((resolved) => usesAdmitted(ctx, resolved, byClient));
      return usesAdmitted(ctx, byValue, byClient);
    };
    const usesAdmitted = (ctx: AppContext, byValue: Standing, byClient: Standing): undefined => {
      ctx.set('RateLimit-Policy', policyItems);
      ctx.set('RateLimit', `${perValue.limitItem(byValue)}, ${perClient.limitItem(byClient)}`);
      if (!byValue.allowed) throw refusal(ctx, byValue);
      return undefined;
    };
    return (_caller, ctx) => {
      const now = Date.now();
      const byClient = perClient.take(addressPartition(clientAddress(ctx)), now);
      return isPending(byClient) ? byClient.then((resolved) => afterClient(ctx, resolved)) : afterClient(ctx, byClient, now);
    };
  }

  private policy(name: string): SharedRateLimit {
    return this.policies.get(name) as SharedRateLimit;
  }
}

/** Sets the RateLimit headers of a caller's one policy; a 429 when it refused. */
function admitted(ctx: AppContext, caller: Principal, policy: SharedRateLimit, standing: Standing): Principal {
  ctx.set('RateLimit-Policy', policy.policyItem);
  ctx.set('RateLimit', policy.limitItem(standing));
  if (!standing.allowed) throw refusal(ctx, standing);
  return caller;
}

/** 429 with Retry-After: the seconds until the refusing window ends. */
function refusal(ctx: AppContext, standing: Standing): Error {
  const retryAfter = Math.max(1, standing.resetSeconds);
  ctx.set('Retry-After', String(retryAfter));
  return rateLimited(`too many requests: retry after ${retryAfter} s`);
}

/** IPv6 clients are counted by their /64, the block one subscriber is given; IPv4 clients by their address. */
export function addressPartition(address: string | null): string {
  if (address === null) return 'unknown';
  if (!address.includes(':')) return address;
  const [head, tail] = address.toLowerCase().split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const missing = 8 - groups(head).length - groups(tail).length;
  const full = [...groups(head), ...Array<string>(Math.max(0, missing)).fill('0'), ...groups(tail)];
  return `${full.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
