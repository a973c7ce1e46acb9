import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimit } from '../../shared/policy';
import type { Eventually } from '../http/eventually';

/** A request's standing under one policy. */
export interface Standing {
  allowed: boolean;
  /** Requests left in the window. */
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
}

/** Points taken in process reach Redis within this long. */
const SYNC_INTERVAL_MS = 100;
/**
 * The share of what Redis last reported left that a process takes without asking it again. Up to
 * 1 / LOCAL_SHARE gateways never admit more than the limit between them: near the limit the share
 * rounds down to nothing and every request asks Redis.
 */
const LOCAL_SHARE = 1 / 16;
/** A counter whose window ended is dropped at the first sweep after it; sweeps run this often at most. */
const SWEEP_INTERVAL_MS = 10_000;
/** After Redis failed to count, a counter asks it again only this much later. */
const RETRY_AFTER_FAILURE_MS = 5_000;

/** One partition's count in this process. */
interface Counter {
  /** Requests left in the window: Redis's figure at the last sync, less what was taken here since. */
  remaining: number;
  /** When the window ends (ms since the epoch), by the TTL Redis reported at the last sync. */
  resetAt: number;
  /** Requests taken here that Redis has not counted yet. */
  unsent: number;
  /** Requests on their way to Redis in the sync under way. */
  sending: number;
  /** How many requests this process may take, unsent and sending, before Redis is asked again. */
  allowance: number;
  syncing: Promise<RateLimiterRes | null> | undefined;
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
   * Without Redis: `open` admits every request uncounted; `local` counts in this process alone
   * (the library's in-memory limiter, as an insurance).
   */
  withoutRedis: 'open' | 'local';
  /** Called when Redis could not count, with what the policy does meanwhile. */
  onRedisFailure(error: unknown): void;
}

/**
 * One rate-limit policy, counted in Redis by rate-limiter-flexible (a fixed window per partition,
 * shared by every gateway) and taken in process between syncs, so that a request does not wait for
 * Redis: a process takes up to a share of what Redis last reported left, sends what it took at least
 * every SYNC_INTERVAL_MS, and asks Redis first only for a partition's first request of a window, once
 * its share is spent, and near the limit, where every request is counted by Redis before it is
 * admitted. A partition known to be over the limit is refused without asking Redis until its window ends.
 */
export class SharedRateLimit {
  /** The policy's item of the RateLimit-Policy header (draft-ietf-httpapi-ratelimit-headers). */
  readonly policyItem: string;
  private readonly counters = new Map<string, Counter>();
  /** Partitions with requests taken here and not sent yet. */
  private readonly unsentPartitions = new Set<string>();
  private readonly redisCounts: RateLimiterRedis;
  private readonly localCounts: RateLimiterMemory | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private lastSweep = Date.now();

  constructor(private readonly options: SharedRateLimitOptions) {
    const { name, limit, redis, keyPrefix } = options;
    this.policyItem = `"${name}";q=${limit.requests};w=${limit.windowSeconds}`;
    const counting = { points: limit.requests, duration: limit.windowSeconds, keyPrefix };
    this.redisCounts = new RateLimiterRedis({ ...counting, storeClient: redis });
    this.localCounts = options.withoutRedis === 'local' ? new RateLimiterMemory(counting) : undefined;
  }

  /** Takes one request of `partition`: its standing now when this process can tell, else once Redis has counted it. */
  take(partition: string): Eventually<Standing> {
    const now = Date.now();
    const counter = this.counters.get(partition);
    if (counter !== undefined && now < counter.resetAt) {
      if (counter.open) return this.standing(counter, true, now);
      if (counter.remaining <= 0) return this.standing(counter, false, now);
      if (counter.unsent + counter.sending < counter.allowance) {
        counter.unsent += 1;
        counter.remaining -= 1;
        if (counter.unsent === 1) this.unsentPartitions.add(partition);
        this.scheduleFlush();
        return this.standing(counter, true, now);
      }
    }
    return this.takeThroughRedis(partition, counter, now);
  }

  /** The policy's item of the RateLimit header for `standing`. */
  limitItem(standing: Standing): string {
    return `"${this.options.name}";r=${standing.remaining};t=${standing.resetSeconds}`;
  }

  private takeThroughRedis(partition: string, existing: Counter | undefined, now: number): Promise<Standing> {
    const counter = existing ?? this.newCounter(partition);
    if (counter.syncing) return counter.syncing.then(() => this.take(partition));
    // What was taken in a window that has ended is not counted in the next.
    if (now >= counter.resetAt) counter.unsent = 0;
    return this.sync(partition, counter, 1);
  }

  private newCounter(partition: string): Counter {
    const counter: Counter = { remaining: 0, resetAt: 0, unsent: 0, sending: 0, allowance: 0, syncing: undefined, open: false };
    this.counters.set(partition, counter);
    return counter;
  }

  /** Sends what was taken here, with `taking` requests more, and learns the partition's count from the answer. */
  private async sync(partition: string, counter: Counter, taking: number): Promise<Standing> {
    const points = counter.unsent + taking;
    counter.unsent = 0;
    counter.sending = points;
    this.unsentPartitions.delete(partition);
    counter.syncing = this.count(partition, points);
    const counted = await counter.syncing;
    counter.syncing = undefined;
    counter.sending = 0;
    this.scheduleFlush();
    const now = Date.now();
    if (counted === null) {
      counter.open = true;
      counter.resetAt = now + RETRY_AFTER_FAILURE_MS;
      counter.remaining = this.options.limit.requests;
      counter.unsent = 0;
      return { allowed: true, remaining: counter.remaining, resetSeconds: this.options.limit.windowSeconds };
    }
    counter.open = false;
    const left = this.options.limit.requests - counted.consumedPoints;
    counter.remaining = Math.max(0, left - counter.unsent);
    counter.resetAt = now + counted.msBeforeNext;
    counter.allowance = Math.floor(Math.max(0, left) * LOCAL_SHARE);
    // The requests taken now were the last ones counted: admitted when they fit in the limit.
    return this.standing(counter, left >= 0, now);
  }

  /** Adds `points` to the partition's count: Redis's answer, or the local one, or null (admit uncounted). */
  private async count(partition: string, points: number): Promise<RateLimiterRes | null> {
    try {
      return await this.redisCounts.penalty(partition, points);
    } catch (error) {
      this.options.onRedisFailure(error);
      return this.localCounts ? this.localCounts.penalty(partition, points) : null;
    }
  }

  private standing(counter: Counter, allowed: boolean, now: number): Standing {
    return { allowed, remaining: counter.remaining, resetSeconds: Math.max(0, Math.ceil((counter.resetAt - now) / 1000)) };
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flush();
    }, SYNC_INTERVAL_MS);
    this.flushTimer.unref();
  }

  /** Sends every partition's unsent requests; now and then drops the counters of ended windows. */
  private flush(): void {
    const now = Date.now();
    for (const partition of this.unsentPartitions) {
      const counter = this.counters.get(partition);
      if (counter === undefined || now >= counter.resetAt) {
        this.unsentPartitions.delete(partition);
      } else if (!counter.syncing) {
        void this.sync(partition, counter, 0);
      }
    }
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const [partition, counter] of this.counters) {
      if (now >= counter.resetAt && !counter.syncing) this.counters.delete(partition);
    }
  }
}
