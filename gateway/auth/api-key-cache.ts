import type { Redis } from 'ioredis';
import { serviceUnavailable } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { Store } from '../../shared/store/store';
import type { InvalidationBus } from '../cache/invalidation-bus';
import { LocalCache } from '../cache/local-cache';

export interface KeyIdentity {
  keyId: string;
  customerId: string;
}

export interface CustomerStanding {
  tier: string;
  isActive: boolean;
}

export interface ResolvedKey {
  key: KeyIdentity;
  customer: CustomerStanding;
}

const UNKNOWN = 'unknown';
/** Written on every change: it blocks the refill of a stale read racing the change (fills use NX). */
const INVALIDATED = 'invalidated';
const LAST_USED_RESOLUTION_MS = 60_000;
const MAX_TRACKED_KEYS = 100_000;
const LOCAL_TTL_MS = 30_000;

/**
 * Customer-key lookups: an in-process cache first, then Redis, then the store. In Redis a key entry
 * (by key hash) and a customer entry (by id) are read in one round trip; changes overwrite them with
 * a marker instead of deleting them, so a request that read the store before the change cannot put
 * the old value back. The in-process entries are dropped through the invalidation bus in every
 * gateway process before the change is answered. Either way, the next request after a change sees it.
 */
export class ApiKeyCache {
  private readonly localKeys: LocalCache<KeyIdentity>;
  private readonly localCustomers: LocalCache<CustomerStanding>;

  constructor(
    private readonly redis: Redis,
    private readonly store: Store,
    private readonly bus: InvalidationBus,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly ttlSeconds = 300,
  ) {
    this.localKeys = new LocalCache(bus, LOCAL_TTL_MS);
    this.localCustomers = new LocalCache(bus, LOCAL_TTL_MS);
  }

  private readonly lastRecordedUse = new Map<string, number>();

  /** The key and its customer from the in-process cache, without waiting; undefined when not there. */
  cached(customerId: string, keyHash: string): ResolvedKey | undefined {
    const localKey = this.localKeys.get(keyHash);
    if (!localKey || localKey.customerId !== customerId) return undefined;
    const localCustomer = this.localCustomers.get(customerId);
    if (!localCustomer) return undefined;
    this.recordUse(localKey.keyId);
    return { key: localKey, customer: localCustomer };
  }

  /** The key and its customer, or null when the key is unknown, revoked or not that customer's. */
  async resolve(customerId: string, keyHash: string): Promise<ResolvedKey | null> {
    const known = this.cached(customerId, keyHash);
    if (known) return known;
    const generation = this.bus.generation;
    const keyEntry = this.keyEntry(keyHash);
    const customerEntry = this.customerEntry(customerId);
    const [cachedKey, cachedCustomer] = await this.guard(() => this.redis.mget(keyEntry, customerEntry));

    const key = await this.keyIdentity(keyEntry, cachedKey, customerId, keyHash);
    if (!key) return null;
    const customer = await this.customerStanding(customerEntry, cachedCustomer, customerId);
    if (!customer) return null;
    this.localKeys.set(keyHash, key, generation, [['key', keyHash]]);
    this.localCustomers.set(customerId, customer, generation, [['customer', customerId]]);
    this.recordUse(key.keyId);
    return { key, customer };
  }

  /** A customer's standing when it is cached in process, without waiting; undefined otherwise. */
  cachedStanding(customerId: string): CustomerStanding | undefined {
    return this.localCustomers.get(customerId);
  }

  /** A customer's tier and status as they stand now; null when the customer does not exist. */
  async standing(customerId: string): Promise<CustomerStanding | null> {
    return this.localCustomers.getOrLoad(customerId, async () => {
      const entry = this.customerEntry(customerId);
      const cached = await this.guard(() => this.redis.get(entry));
      return this.customerStanding(entry, cached, customerId);
    }, [['customer', customerId]]);
  }

  async invalidateKey(keyHash: string): Promise<void> {
    await this.guard(() => this.redis.set(this.keyEntry(keyHash), INVALIDATED, 'EX', this.ttlSeconds));
    await this.guard(() => this.bus.publish('key', keyHash));
  }

  async invalidateCustomer(customerId: string): Promise<void> {
    await this.guard(() => this.redis.set(this.customerEntry(customerId), INVALIDATED, 'EX', this.ttlSeconds));
    await this.guard(() => this.bus.publish('customer', customerId));
  }

  private async keyIdentity(entry: string, cached: string | null, customerId: string, keyHash: string): Promise<KeyIdentity | null> {
    if (cached === UNKNOWN) return null;
    if (cached !== null && cached !== INVALIDATED) return JSON.parse(cached) as KeyIdentity;
    const stored = await this.store.findApiKeyByHash(keyHash);
    if (!stored || stored.revokedAt || stored.customerId !== customerId) {
      await this.fill(entry, UNKNOWN, 60);
      return null;
    }
    const identity = { keyId: stored.keyId, customerId: stored.customerId };
    await this.fill(entry, JSON.stringify(identity), this.ttlSeconds);
    return identity;
  }

  private async customerStanding(entry: string, cached: string | null, customerId: string): Promise<CustomerStanding | null> {
    if (cached !== null && cached !== INVALIDATED && cached !== UNKNOWN) return JSON.parse(cached) as CustomerStanding;
    const customer = await this.store.getCustomer(customerId);
    if (!customer) return null;
    const standing = { tier: customer.tier, isActive: customer.isActive };
    await this.fill(entry, JSON.stringify(standing), this.ttlSeconds);
    return standing;
  }

  private async fill(entry: string, value: string, ttlSeconds: number): Promise<void> {
    await this.guard(() => this.redis.set(entry, value, 'EX', ttlSeconds, 'NX'));
  }

  /** lastUsedAt is kept to the minute: at most one store write per key and minute from each process. */
  private recordUse(keyId: string): void {
    const now = Date.now();
    if (now - (this.lastRecordedUse.get(keyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    if (this.lastRecordedUse.size >= MAX_TRACKED_KEYS) this.lastRecordedUse.clear();
    this.lastRecordedUse.set(keyId, now);
    this.store.touchApiKey(keyId, new Date(now)).catch((error) => this.logger.warn({ err: error, keyId }, 'could not record key use'));
  }

  /** Redis failures become 503: the request cannot be authorised safely without the cache's invalidations. */
  private async guard<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      this.logger.warn({ err: error }, 'redis unavailable for key lookup');
      throw serviceUnavailable('the service is temporarily unavailable, try again shortly');
    }
  }

  private keyEntry(keyHash: string): string {
    return `${this.prefix}:auth:key:${keyHash}`;
  }

  private customerEntry(customerId: string): string {
    return `${this.prefix}:auth:customer:${customerId}`;
  }

}
