import type { Route } from '../../gateway/http/route';
import type { Config } from '../config';
import { defaultChannel } from '../releases/channels';
import { createObjectStorage } from '../storage/create-object-storage';
import type { ObjectStorage } from '../storage/object-storage';
import { createStore } from '../store/create-store';
import type { Store } from '../store/store';

/** The store and object storage, which every process needs. */
export interface CoreServices {
  store: Store;
  storage: ObjectStorage;
  /** What a gateway serves for the object store besides the API (the embedded store's signed URLs), if anything. */
  storageRoutes?: readonly Route[];
  close(): Promise<void>;
}

export async function openCoreServices(config: Readonly<Config>): Promise<CoreServices> {
  const store = await createStore({ mongodbUri: config.mongodbUri, dataDir: config.dataDir, defaultChannel: defaultChannel(config.channels) });
  const { storage, routes } = createObjectStorage(config);
  return {
    store,
    storage,
    storageRoutes: routes,
    close: async () => {
      await Promise.allSettled([store.close(), storage.close()]);
    },
  };
}
