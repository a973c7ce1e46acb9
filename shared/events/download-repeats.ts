import { DOWNLOAD_REPEAT_WINDOW_MS, DOWNLOAD_REPEATS_TRACKED_MAX } from '../policy';

interface Counted {
  /** When the window of the counted download ends. */
  until: number;
  /** Its event's write: a repeat answers once it is stored, as the download counted does. */
  stored: Promise<void>;
}

export interface DownloadRepeatOptions {
  windowMs?: number;
  maxTracked?: number;
  now?: () => number;
}

/**
 * The rule that a customer's downloads of one file count once per window (DOWNLOAD_REPEAT_WINDOW_MS
 * from the download counted), kept in process memory: no store or Redis round trip on the download
 * path. Bounded: entries are kept in the order they were counted, so the expired ones are dropped
 * from the front as they go, and past `maxTracked` the oldest is forgotten (its next download counts).
 * Each gateway process keeps its own, so behind several processes a repeat that reaches another one
 * counts again.
 */
export class DownloadRepeats {
  private readonly counted = new Map<string, Counted>();
  private readonly windowMs: number;
  private readonly maxTracked: number;
  private readonly now: () => number;

  constructor(options: DownloadRepeatOptions = {}) {
    this.windowMs = options.windowMs ?? DOWNLOAD_REPEAT_WINDOW_MS;
    this.maxTracked = options.maxTracked ?? DOWNLOAD_REPEATS_TRACKED_MAX;
    this.now = options.now ?? Date.now;
  }

  /**
   * The write of the download counted for this customer and file in the current window, or, when
   * there is none, `store()`'s, which then counts. A write that fails counts nothing: the next
   * request stores its own.
   */
  once(customerId: string, fileId: string, store: () => Promise<void>): Promise<void> {
    const now = this.now();
    this.forgetExpired(now);
    const key = `${customerId}\n${fileId}`;
    const known = this.counted.get(key);
    if (known && known.until > now) return known.stored;
    const entry: Counted = { until: now + this.windowMs, stored: store() };
    // Re-inserted at the end, so that the map stays in the order of `until`.
    this.counted.delete(key);
    this.counted.set(key, entry);
    if (this.counted.size > this.maxTracked) this.counted.delete(this.counted.keys().next().value as string);
    entry.stored.catch(() => {
      if (this.counted.get(key) === entry) this.counted.delete(key);
    });
    return entry.stored;
  }

  private forgetExpired(now: number): void {
    if (this.counted.size === 0) return;
    for (const [key, entry] of this.counted) {
      if (entry.until > now) return;
      this.counted.delete(key);
    }
  }
}
