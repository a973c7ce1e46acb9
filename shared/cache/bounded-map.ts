/**
 * A Map that holds at most `maxEntries` entries and starts over when a new key would exceed them:
 * the memos and caches of the hot paths, whose entries are cheap to make again, stay within a fixed
 * size whatever callers send. Starting over instead of evicting the oldest keeps a hit free of any
 * bookkeeping (no recency to update); a burst of distinct keys costs one refill.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly maxEntries: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.maxEntries && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}
