interface Batch<T> {
  items: T[];
  stored: Promise<void>;
  write: () => void;
}

/**
 * Writes items in groups, resolving each only once its group is written. Items added in the same turn
 * of the event loop are written together, and while one write is in flight the next group goes on
 * gathering until it settles: under load one write carries many requests' items (each write costs a
 * message to the store's write thread, which a profile of the download path found to be the largest
 * single cost on the event loop). The items of one group wait on the group's one promise.
 */
export class GroupCommit<T> {
  private open: Batch<T> | undefined;
  private writing = false;

  constructor(private readonly writeGroup: (items: T[]) => Promise<void>) {}

  add(item: T): Promise<void> {
    if (this.open) {
      this.open.items.push(item);
      return this.open.stored;
    }
    const batch = { items: [item] } as Batch<T>;
    batch.stored = new Promise<void>((resolve, reject) => {
      batch.write = () => {
        this.open = undefined;
        this.writing = true;
        const written = (async () => this.writeGroup(batch.items))();
        written.then(resolve, reject).finally(() => this.settled());
      };
    });
    this.open = batch;
    setImmediate(() => {
      if (!this.writing && this.open === batch) batch.write();
    });
    return batch.stored;
  }

  /** The write in flight has settled: the group gathered meanwhile, if any, is written now. */
  private settled(): void {
    this.writing = false;
    this.open?.write();
  }
}
