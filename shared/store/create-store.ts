import path from 'node:path';
import { SqliteStore } from './sqlite/sqlite-store';
import { DEFAULT_STORE_OPTIONS, type StoreOptions } from './options';
import type { Store } from './store';

/** The embedded store's file in DATA_DIR. */
export const SQLITE_STORE_FILE = 'store.sqlite';

/** MongoDB when a URI is configured, else the embedded SQLite file in the data directory. */
export async function createStore(options: { mongodbUri?: string; dataDir: string } & Partial<StoreOptions>): Promise<Store> {
  const storeOptions: StoreOptions = { defaultChannel: options.defaultChannel ?? DEFAULT_STORE_OPTIONS.defaultChannel };
  if (options.mongodbUri) {
    // Loaded only when used: mongoose adds about a second to every start of the embedded default.
    const { MongoStore } = await import('./mongo/mongo-store');
    return MongoStore.connect(options.mongodbUri, storeOptions);
  }
  return new SqliteStore(path.join(options.dataDir, SQLITE_STORE_FILE), storeOptions);
}
