import { BoundedMap } from '../../shared/cache/bounded-map';
import { IN_PROCESS_CACHE_TTL_MS } from '../../shared/policy';
import type { CacheTag, InvalidationBus } from '../../shared/cache/invalidation-bus';

interface Entry<T> {
  value: T;
  expiresAt: number;
  /** Ids (per topic) whose invalidation drops this entry. */
  tags: CacheTag[];
}

/**
 * A small in-process cache in front of Redis and the store, for the customer hot paths. Entries are
 * dropped by the invalidation bus (by topic and id), expire after IN_PROCESS_CACHE_TTL_MS as a second
 * bound, and are neither served nor filled while the bus is not live, nor filled while a change of
 * theirs is held.
 */
export class LocalCache<T> {
  private readonly entries: BoundedMap<string, Entry<T>>;

  constructor(
    private readonly bus: InvalidationBus,
    private readonly ttlMs = IN_PROCESS_CACHE_TTL_MS,
    maxEntries = 10_000,
  ) {
    this.entries = new BoundedMap(maxEntries);
    bus.onReset(() => this.entries.clear());
    bus.onInvalidate((topic, id) => {
      for (const [key, entry] of this.entries) {
        if (entry.tags.some(([t, i]) => t === topic && i === id)) this.entries.delete(key);
      }
    });
  }

  get(key: string): T | undefined {
    if (!this.bus.live) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * The cached value, else the one `load` reads, kept when it exists unless an invalidation arrived
   * while it was being read. `tags` may be read from the value (a record names its owner).
   */
  async getOrLoad(key: string, load: () => Promise<T | null>, tags: CacheTag[] | ((value: T) => CacheTag[])): Promise<T | null> {
    const cached = this.get(key);
    if (cached) return cached;
    const generation = this.bus.generation;
    const value = await load();
    if (value) this.set(key, value, generation, typeof tags === 'function' ? tags(value) : tags);
    return value;
  }

  /**
   * Stores a value read while the bus was at `generation`; ignored when any change was held or
   * released since, or is being written now, because the value may predate it.
   */
  set(key: string, value: T, generation: number, tags: CacheTag[]): void {
    if (!this.bus.live || generation !== this.bus.generation || this.bus.isHeld(tags)) return;
    this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs, tags });
  }
}
