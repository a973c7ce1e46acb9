import type { Redis } from 'ioredis';
import { redisUnavailable } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { ServerIncarnation } from '../../shared/redis/server-incarnation';
import type { Store } from '../../shared/store/store';
import type { CacheTag, InvalidationBus } from '../../shared/cache/invalidation-bus';
import { LocalCache } from '../../shared/cache/local-cache';
import { KeyUseRecorder } from './key-use-recorder';
import { type StoredWindow, storedWindow } from '../../shared/releases/maintenance-window';

export interface KeyIdentity {
  keyId: string;
  customerId: string;
}

export interface CustomerStanding extends Partial<StoredWindow> {
  tier: string;
  isActive: boolean;
}

export interface ResolvedKey {
  key: KeyIdentity;
  customer: CustomerStanding;
}

const UNKNOWN = 'unknown';
/**
 * Written before every change's store write: while it stands, lookups read the store and nothing
 * fills the entry (fills use NX), so no value read before the change can be put back.
 */
const INVALIDATED = 'invalidated';

/** A value cached in Redis, with the run id of the server that took it. */
interface RedisEntry<T> {
  server: string;
  value: T;
}

/**
 * Customer-key lookups: an in-process cache first, then Redis, then the store. In Redis a key entry
 * (by key hash) and a customer entry (by id) are read in one round trip. A change is refused (503)
 * unless it can first overwrite its Redis entry with a marker and hold its in-process entries in every
 * gateway (InvalidationBus.change); only then is the store written. So a revocation is either refused
 * with nothing changed or in force on every gateway's next request, and a Redis that comes back from
 * an outage holds nothing older than the store. Values are trusted only from the Redis server run that
 * took them: a restarted server may have lost a marker written just before it went down.
 */
export class ApiKeyCache {
  private readonly localKeys: LocalCache<KeyIdentity>;
  private readonly localCustomers: LocalCache<CustomerStanding>;
  private readonly server: ServerIncarnation;
  private readonly uses: KeyUseRecorder;

  constructor(
    private readonly redis: Redis,
    private readonly store: Store,
    private readonly bus: InvalidationBus,
    private readonly prefix: string,
    logger: Logger,
    private readonly ttlSeconds = 300,
  ) {
    this.localKeys = new LocalCache(bus);
    this.localCustomers = new LocalCache(bus);
    this.server = new ServerIncarnation(redis);
    this.uses = new KeyUseRecorder((keyId, at) => store.accounts.touchApiKey(keyId, at), logger);
  }

  /** The key and its customer from the in-process cache, without waiting; undefined when not there. */
  cached(customerId: string, keyHash: string): ResolvedKey | undefined {
    const localKey = this.localKeys.get(keyHash);
    if (!localKey || localKey.customerId !== customerId) return undefined;
    const localCustomer = this.localCustomers.get(customerId);
    if (!localCustomer) return undefined;
    this.uses.record(localKey.keyId);
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
    this.uses.record(key.keyId);
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

  /** Writes a change of the customer's tier or status (see the class comment); 503 and nothing written when it cannot be made safely. */
  changeCustomer<T>(customerId: string, write: () => Promise<T>): Promise<T> {
    return this.change(this.customerEntry(customerId), ['customer', customerId], write);
  }

  /** Writes a key's revocation (see the class comment); 503 and nothing written when it cannot be made safely. */
  changeKey<T>(keyHash: string, write: () => Promise<T>): Promise<T> {
    return this.change(this.keyEntry(keyHash), ['key', keyHash], write);
  }

  /**
   * Writes a customer's deletion: the customer's entry and every key's are marked, and held together
   * with `alsoHeld` (the catalogue entries of the applications it could download) in one change, so
   * none of its keys is accepted on any gateway once the answer is sent; 503 and nothing written when
   * that cannot be made safely.
   */
  async changeCustomerAndKeys<T>(customerId: string, keyHashes: readonly string[], alsoHeld: readonly CacheTag[], write: () => Promise<T>): Promise<T> {
    const entries = [this.customerEntry(customerId), ...keyHashes.map((hash) => this.keyEntry(hash))];
    await this.guard(async () => {
      const marking = this.redis.multi();
      for (const entry of entries) marking.set(entry, INVALIDATED, 'EX', this.ttlSeconds);
      const results = await marking.exec();
      const failed = results?.find(([error]) => error);
      if (!results || failed) throw failed?.[0] ?? new Error('the marking transaction was discarded');
    });
    const tags: CacheTag[] = [['customer', customerId], ...keyHashes.map((hash): CacheTag => ['key', hash]), ...alsoHeld];
    return this.bus.change(tags, write);
  }

  private async change<T>(entry: string, tag: CacheTag, write: () => Promise<T>): Promise<T> {
    await this.guard(() => this.redis.set(entry, INVALIDATED, 'EX', this.ttlSeconds));
    return this.bus.change([tag], write);
  }

  private async keyIdentity(entry: string, cached: string | null, customerId: string, keyHash: string): Promise<KeyIdentity | null> {
    if (cached === UNKNOWN) return null;
    const trusted = this.trusted<KeyIdentity>(cached);
    if (trusted) return trusted;
    const stored = await this.store.accounts.findApiKeyByHash(keyHash);
    if (!stored || stored.revokedAt || stored.customerId !== customerId) {
      if (cached === null) await this.fill(entry, UNKNOWN, 60);
      return null;
    }
    const identity = { keyId: stored.keyId, customerId: stored.customerId };
    if (cached === null) await this.fillValue(entry, identity);
    return identity;
  }

  private async customerStanding(entry: string, cached: string | null, customerId: string): Promise<CustomerStanding | null> {
    const trusted = this.trusted<CustomerStanding>(cached);
    if (trusted) return trusted;
    const customer = await this.store.accounts.getCustomer(customerId);
    if (!customer) return null;
    const standing: CustomerStanding = { tier: customer.tier, isActive: customer.isActive, ...storedWindow(customer) };
    if (cached === null) await this.fillValue(entry, standing);
    return standing;
  }

  /** A cached value taken by the server this connection talks to now; undefined for anything else. */
  private trusted<T>(cached: string | null): T | undefined {
    if (cached === null || cached === INVALIDATED || cached === UNKNOWN) return undefined;
    try {
      const entry = JSON.parse(cached) as Partial<RedisEntry<T>>;
      return entry.server !== undefined && entry.server === this.server.current ? entry.value : undefined;
    } catch {
      return undefined;
    }
  }

  /** Fills an empty entry; an entry that is not empty (a marker, another run's value) is left to expire. */
  private async fillValue<T>(entry: string, value: T): Promise<void> {
    const server = this.server.current;
    if (server === undefined) return;
    const cached: RedisEntry<T> = { server, value };
    await this.fill(entry, JSON.stringify(cached), this.ttlSeconds);
  }

  private async fill(entry: string, value: string, ttlSeconds: number): Promise<void> {
    await this.guard(() => this.redis.set(entry, value, 'EX', ttlSeconds, 'NX'));
  }

  /** Redis failures become 503: the request cannot be authorised safely without the cache's invalidations. */
  private async guard<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch {
      throw redisUnavailable('the service is temporarily unavailable, try again shortly');
    }
  }

  private keyEntry(keyHash: string): string {
    return `${this.prefix}:auth:key:${keyHash}`;
  }

  private customerEntry(customerId: string): string {
    return `${this.prefix}:auth:customer:${customerId}`;
  }

}
