import type { CacheLookups } from '../../shared/metrics/process-metrics';

const lookups = (): CacheLookups => ({ hits: 0, misses: 0 });

/**
 * Hits and misses of the in-process caches a download goes through, counted by their users as plain
 * numbers (no work on the request path beyond an increment) and read by the metrics when scraped
 * (download_cache_lookups_total). A miss is a lookup that had to wait for Redis or the store.
 */
export class DownloadCacheLookups {
  /** Customer keys and standing (auth/api-key-cache.ts), asked by the guard of every customer route. */
  readonly keys = lookups();
  /** The application, version and file records of the access check (catalog-cache.ts). */
  readonly catalog = lookups();
  /** Share links by token. */
  readonly shareLinks = lookups();
  /** The answer signed for a file in the current second (answer-cache.ts). */
  readonly answers = lookups();

  byCache(): Readonly<Record<string, CacheLookups>> {
    return { keys: this.keys, catalog: this.catalog, 'share-links': this.shareLinks, answers: this.answers };
  }
}

/** Counts one lookup: a hit when `found` is defined. */
export function counted<T>(found: T | undefined, lookupsOf: CacheLookups): T | undefined {
  if (found === undefined) lookupsOf.misses += 1;
  else lookupsOf.hits += 1;
  return found;
}
