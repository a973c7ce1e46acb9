import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimit } from '../../shared/policy';
import type { Eventually } from '../http/eventually';

/** A request's standing under one policy. */
export interface Standing {
  allowed: boolean;
  /** Requests left in the window, as this process knows it. */
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
}

/**
 * The share of the requests no gateway has reserved yet that a process reserves at once. Near the
 * limit it rounds down to one request, and every request is counted in Redis before it is admitted.
 */
const RESERVED_SHARE = 1 / 16;
/** Counters of ended windows are dropped at most this often. */
const SWEEP_INTERVAL_MS = 10_000;
/** After Redis failed to count, a counter asks it again only this much later. */
const RETRY_AFTER_FAILURE_MS = 5_000;

/** One partition's requests in this process. */
interface Counter {
  /** Requests this process has reserved in Redis and not taken yet. */
  reserved: number;
  /** Requests no gateway had reserved at the last reservation (0 once the limit is reached). */
  unreserved: number;
  /** When the window ends (ms since the epoch), by the TTL Redis reported. */
  resetAt: number;
  reserving: Promise<RateLimiterRes | null> | undefined;
  /** Redis could not count: requests are admitted uncounted until resetAt. */
  open: boolean;
}

export interface SharedRateLimitOptions {
  /** The policy's name, as RATE_LIMITS and the RateLimit headers name it. */
  name: string;
  limit: RateLimit;
  redis: Redis;
  /** Prefix of the policy's Redis keys. */
  keyPrefix: string;
  /**
   * The Redis key of a partition, when it must not be the partition itself (a share token is counted
   * by its SHA-256): computed only when Redis is asked, not for every request.
   */
  redisKeyOf?: (partition: string) => string;
  /**
   * Without Redis: `open` admits every request uncounted; `local` counts in this process alone
   * (the library's in-memory limiter, as an insurance).
   */
  withoutRedis: 'open' | 'local';
  /** Called when Redis could not count. */
  onRedisFailure(error: unknown): void;
}

/**
 * One rate-limit policy, counted in Redis by rate-limiter-flexible (a fixed window per partition,
 * shared by every gateway) and taken in process from reservations, so that a request does not wait
 * for Redis: a process reserves a sixteenth of what no gateway has reserved yet in one atomic count,
 * and admits requests from its reservation until it is spent. Redis counts every reservation whole,
 * so the gateways together never admit more than the limit; a reservation a gateway does not use
 * (its traffic went to the others) is at most a sixteenth of what was left when it was made, and near
 * the limit reservations are single requests. A partition known to be over the limit is refused
 * without asking Redis until its window ends.
 */
export class SharedRateLimit {
  /** The policy's item of the RateLimit-Policy header (draft-ietf-httpapi-ratelimit-headers). */
  readonly policyItem: string;
  /** The start of its items of the RateLimit header. */
  private readonly limitItemStart: string;
  private readonly counters = new Map<string, Counter>();
  private readonly redisCounts: RateLimiterRedis;
  private readonly localCounts: RateLimiterMemory | undefined;
  private lastSweep = Date.now();

  constructor(private readonly options: SharedRateLimitOptions) {
    const { name, limit, redis, keyPrefix } = options;
    this.policyItem = `"${name}";q=${limit.requests};w=${limit.windowSeconds}`;
    this.limitItemStart = `"${name}";r=`;
    const counting = { points: limit.requests, duration: limit.windowSeconds, keyPrefix };
    this.redisCounts = new RateLimiterRedis({ ...counting, storeClient: redis });
    this.localCounts = options.withoutRedis === 'local' ? new RateLimiterMemory(counting) : undefined;
  }

  /** Takes one request of `partition`: its standing now when this process can tell, else once Redis has counted it. */
  take(partition: string, now = Date.now()): Eventually<Standing> {
    const counter = this.counters.get(partition);
    if (counter !== undefined && now < counter.resetAt) {
      if (counter.open) return this.standing(counter, true, now);
      if (counter.reserved > 0) {
        counter.reserved -= 1;
        return this.standing(counter, true, now);
      }
      if (counter.unreserved <= 0) return this.standing(counter, false, now);
    }
    return this.reserve(partition, counter, now);
  }

  /** The policy's item of the RateLimit header for `standing`. */
  limitItem(standing: Standing): string {
    return `${this.limitItemStart}${standing.remaining};t=${standing.resetSeconds}`;
  }

  /** Reserves requests in Redis and takes the first of them for this request. */
  private async reserve(partition: string, existing: Counter | undefined, now: number): Promise<Standing> {
    const counter = existing ?? this.newCounter(partition, now);
    if (counter.reserving) {
      await counter.reserving;
      return this.take(partition);
    }
    // A window that ended takes what was reserved in it along.
    if (now >= counter.resetAt) {
      counter.reserved = 0;
      counter.unreserved = this.options.limit.requests;
    }
    const size = Math.max(1, Math.floor(counter.unreserved * RESERVED_SHARE));
    counter.reserving = this.count(partition, size);
    const counted = await counter.reserving;
    counter.reserving = undefined;
    const answeredAt = Date.now();
    if (counted === null) {
      counter.open = true;
      counter.resetAt = answeredAt + RETRY_AFTER_FAILURE_MS;
      return { allowed: true, remaining: this.options.limit.requests, resetSeconds: this.options.limit.windowSeconds };
    }
    const { requests } = this.options.limit;
    // Of the requests counted now, those that fit under the limit are this process's.
    const granted = Math.min(size, Math.max(0, requests - (counted.consumedPoints - size)));
    counter.open = false;
    counter.unreserved = Math.max(0, requests - counted.consumedPoints);
    counter.resetAt = answeredAt + counted.msBeforeNext;
    if (granted === 0) return this.standing(counter, false, answeredAt);
    counter.reserved = granted - 1;
    return this.standing(counter, true, answeredAt);
  }

  /** Adds `points` to the partition's count: Redis's answer, or the local one, or null (admit uncounted). */
  private async count(partition: string, points: number): Promise<RateLimiterRes | null> {
    try {
      return await this.redisCounts.penalty(this.options.redisKeyOf ? this.options.redisKeyOf(partition) : partition, points);
    } catch (error) {
      this.options.onRedisFailure(error);
      return this.localCounts ? this.localCounts.penalty(partition, points) : null;
    }
  }

  private standing(counter: Counter, allowed: boolean, now: number): Standing {
    const remaining = counter.open ? this.options.limit.requests : counter.unreserved + counter.reserved;
    return { allowed, remaining, resetSeconds: Math.max(0, Math.ceil((counter.resetAt - now) / 1000)) };
  }

  private newCounter(partition: string, now: number): Counter {
    if (now - this.lastSweep >= SWEEP_INTERVAL_MS) this.sweep(now);
    const counter: Counter = { reserved: 0, unreserved: this.options.limit.requests, resetAt: 0, reserving: undefined, open: false };
    this.counters.set(partition, counter);
    return counter;
  }

  /** Drops the counters of windows that have ended: a partition seen again starts afresh. */
  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [partition, counter] of this.counters) {
      if (now >= counter.resetAt && !counter.reserving) this.counters.delete(partition);
    }
  }
}
