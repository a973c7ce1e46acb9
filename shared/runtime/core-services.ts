import type { Config } from '../config';
import { ProcessMetrics } from '../metrics/process-metrics';
import { defaultChannel } from '../releases/channels';
import { createObjectStorage } from '../storage/create-object-storage';
import type { ObjectStorage } from '../storage/object-storage';
import type { SignedObjectAccess } from '../storage/signed-object-access';
import { createStore } from '../store/create-store';
import type { Store } from '../store/store';

/** The store, object storage and metrics, which every process needs once. */
export interface CoreServices {
  store: Store;
  storage: ObjectStorage;
  /** What a gateway needs to answer the object store's signed URLs, when they point at it (the embedded store). */
  signedAccess?: SignedObjectAccess;
  /** What the gateway and the workers of this process record; served when METRICS_TOKEN is set. */
  metrics: ProcessMetrics;
  close(): Promise<void>;
}

export async function openCoreServices(config: Readonly<Config>): Promise<CoreServices> {
  const store = await createStore({ mongodbUri: config.mongodbUri, dataDir: config.dataDir, defaultChannel: defaultChannel(config.channels) });
  const { storage, signedAccess } = createObjectStorage(config);
  return {
    store,
    storage,
    signedAccess,
    metrics: new ProcessMetrics(config.metricsToken !== undefined),
    close: async () => {
      await Promise.allSettled([store.close(), storage.close()]);
    },
  };
}
