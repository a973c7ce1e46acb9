import path from 'node:path';
import { MongoStore } from './mongo/mongo-store';
import { SqliteStore } from './sqlite/sqlite-store';
import type { Store } from './store';

/** MongoDB when a URI is configured, else the embedded SQLite file in the data directory. */
export async function createStore(options: { mongodbUri?: string; dataDir: string }): Promise<Store> {
  if (options.mongodbUri) return MongoStore.connect(options.mongodbUri);
  return new SqliteStore(path.join(options.dataDir, 'store.sqlite'));
}
