/** What a group gathers its items in: an array, or a compact form that keeps no object per item. */
export interface Gathering<T> {
  push(item: T): unknown;
  readonly length: number;
}

interface Group<G> {
  items: G;
  stored: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout;
}

/** When a group is written: once it holds `maxItems`, or `maxDelayMs` after its first item. */
export interface GroupWindow {
  maxItems: number;
  maxDelayMs: number;
}

/**
 * Writes items in groups gathered over a short window, for writes no answer waits on (update
 * checks). GroupCommit writes what one turn of the event loop gathered, which under load is a few
 * requests' items, each group one message to the store's write thread; gathering for a window makes
 * one write carry hundreds of items, and the per-write costs (the message, the transaction) are
 * shared by all of them. Each item's promise settles with its group's write. close() writes what is
 * gathered and waits for every write started; an item added after close is written at once.
 */
export class WindowedGroupCommit<T, G extends Gathering<T> = T[]> {
  private open: Group<G> | undefined;
  private readonly writing = new Set<Promise<void>>();
  private closed = false;

  /**
   * `gather` makes each group's gathering (an array by default). Items wait up to the window's delay:
   * under load a young-generation collection or two runs meanwhile, and every object an item keeps
   * alive is copied, then promoted, so a compact gathering saves the collector that work.
   */
  constructor(
    private readonly writeGroup: (items: G) => Promise<void>,
    private readonly window: GroupWindow,
    private readonly gather: () => G = () => [] as unknown as G,
  ) {}

  add(item: T): Promise<void> {
    const group = this.open ?? this.startGroup();
    group.items.push(item);
    if (group.items.length >= this.window.maxItems || this.closed) this.flush();
    return group.stored;
  }

  /** Writes what is gathered, then waits until every write started has settled. */
  async close(): Promise<void> {
    this.closed = true;
    this.flush();
    await Promise.allSettled([...this.writing]);
  }

  private startGroup(): Group<G> {
    const group = { items: this.gather() } as unknown as Group<G>;
    group.stored = new Promise<void>((resolve, reject) => {
      group.resolve = resolve;
      group.reject = reject;
    });
    group.timer = setTimeout(() => this.flush(), this.window.maxDelayMs);
    this.open = group;
    return group;
  }

  private flush(): void {
    const group = this.open;
    if (!group) return;
    this.open = undefined;
    clearTimeout(group.timer);
    // A writer that throws instead of rejecting fails its group the same way.
    const written = (async () => this.writeGroup(group.items))();
    written.then(group.resolve, group.reject);
    const settled: Promise<void> = written.then(() => undefined, () => undefined).finally(() => this.writing.delete(settled));
    this.writing.add(settled);
  }
}
