import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * Tells whether anything committed to the service's SQLite store since the last look, from a
 * read-only connection of our own (SQLite's data_version moves with every commit by any other
 * connection). A request that committed nothing changed no record, so the full snapshot through the
 * API is taken only when this moved. On MongoDB there is no such signal: every request is checked.
 */
export class StoreCommits {
  private constructor(private readonly db: Database.Database) {}

  static open(dataDir: string): StoreCommits | undefined {
    if (process.env.MONGODB_URI) return undefined;
    return new StoreCommits(new Database(path.join(dataDir, 'store.sqlite'), { readonly: true, fileMustExist: true }));
  }

  version(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  close(): void {
    this.db.close();
  }
}
