import type { Config } from '../shared/config';
import type { Logger } from '../shared/logger';
import type { JobQueues } from '../shared/queues/job-queues';
import type { ObjectStorage } from '../shared/storage/object-storage';
import type { Store } from '../shared/store/store';

/** What processors use; built once per worker process. */
export interface WorkerDeps {
  config: Readonly<Config>;
  logger: Logger;
  store: Store;
  storage: ObjectStorage;
  jobs: JobQueues;
}
