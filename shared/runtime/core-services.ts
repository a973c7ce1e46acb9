import { type Clock, systemClock } from '../clock';
import type { Config } from '../config';
import { HashingThreads } from '../hashing-threads/hashing-threads';
import type { Logger } from '../logger';
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
  /** The process's hashing threads: uploads' and verifications' digests are computed on them. */
  hashing: HashingThreads;
  /** The process's clock (access tokens' validity and periods); tests hand in one they move. */
  clock: Clock;
  close(): Promise<void>;
}

export async function openCoreServices(config: Readonly<Config>, logger: Logger, clock: Clock = systemClock): Promise<CoreServices> {
  const store = await createStore({ mongodbUri: config.mongodbUri, dataDir: config.dataDir, defaultChannel: defaultChannel(config.channels) });
  const { storage, signedAccess } = createObjectStorage(config);
  const hashing = new HashingThreads({
    threads: config.hashingThreads,
    onUnavailable: (error) => logger.warn({ err: error }, 'hashing threads could not start: file digests are computed on the event loop'),
  });
  return {
    store,
    storage,
    signedAccess,
    metrics: new ProcessMetrics(config.metricsToken !== undefined),
    hashing,
    clock,
    close: async () => {
      await Promise.allSettled([store.close(), storage.close(), hashing.close()]);
    },
  };
}
