import { RATE_LIMIT_DEFAULTS, RATE_LIMIT_MAX_REQUESTS, RATE_LIMIT_MAX_WINDOW_SECONDS, RateLimit } from './policy';

/**
 * The rate-limit policies, by the names RATE_LIMITS and the RateLimit-Policy header use: one per
 * customer tier, and these. A tier cannot take one of these names.
 */
export const ADMIN_POLICY = 'admin';
/** Customers whose tier has no limit of its own. */
export const CUSTOMER_POLICY = 'customer';
export const SHARE_LINK_POLICY = 'share-link';
export const SHARE_CLIENT_POLICY = 'share-client';
const NAMED_POLICIES = [ADMIN_POLICY, CUSTOMER_POLICY, SHARE_LINK_POLICY, SHARE_CLIENT_POLICY];

/** Requests per window by policy name: every named policy and every configured tier. */
export type RateLimits = Readonly<Record<string, RateLimit>>;

const ENTRY = /^([a-z0-9_-]{1,32})=(\d{1,10})\/(\d{1,6})$/;

/**
 * RATE_LIMITS: `off`, or comma-separated `<policy>=<requests>/<seconds>` entries over the defaults
 * (shared/policy.ts). Returns null for `off`; problems are added to `problems`.
 */
export function readRateLimits(raw: string | undefined, tiers: readonly string[], problems: string[]): RateLimits | null {
  const taken = tiers.filter((tier) => NAMED_POLICIES.includes(tier));
  if (taken.length > 0) problems.push(`TIERS must not use the names of rate-limit policies (${NAMED_POLICIES.join(', ')}): ${taken.join(', ')}`);
  if (raw?.toLowerCase() === 'off') return null;

  const limits: Record<string, RateLimit> = {};
  for (const name of [...NAMED_POLICIES, ...tiers]) {
    limits[name] = RATE_LIMIT_DEFAULTS[name] ?? RATE_LIMIT_DEFAULTS[CUSTOMER_POLICY];
  }
  const given = raw === undefined ? [] : raw.split(',').map((entry) => entry.trim());
  for (const entry of given) {
    const match = ENTRY.exec(entry);
    const [name, requests, windowSeconds] = match ? [match[1], Number(match[2]), Number(match[3])] : ['', 0, 0];
    if (!match || !(name in limits)) {
      problems.push(`RATE_LIMITS must be off or a comma-separated list of <policy>=<requests>/<seconds>, policies being ${NAMED_POLICIES.join(', ')} and the tiers: "${entry}"`);
    } else if (requests < 1 || requests > RATE_LIMIT_MAX_REQUESTS || windowSeconds < 1 || windowSeconds > RATE_LIMIT_MAX_WINDOW_SECONDS) {
      problems.push(`RATE_LIMITS ${name}: from 1 to ${RATE_LIMIT_MAX_REQUESTS} requests per 1 to ${RATE_LIMIT_MAX_WINDOW_SECONDS} seconds`);
    } else {
      limits[name] = { requests, windowSeconds };
    }
  }
  // A tier the entries leave out follows `customer`, also when `customer` itself was given.
  for (const tier of tiers) {
    if (RATE_LIMIT_DEFAULTS[tier] === undefined && !given.some((entry) => entry.startsWith(`${tier}=`))) limits[tier] = limits[CUSTOMER_POLICY];
  }
  return Object.freeze(limits);
}
