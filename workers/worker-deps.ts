import type { Redis } from 'ioredis';
import type { Clock } from '../shared/clock';
import type { Config } from '../shared/config';
import type { Hashing } from '../shared/hashing';
import type { Logger } from '../shared/logger';
import type { ProcessMetrics } from '../shared/metrics/process-metrics';
import type { JobQueues } from '../shared/queues/job-queues';
import type { ObjectStorage } from '../shared/storage/object-storage';
import type { Store } from '../shared/store/store';
import type { TufRepositories } from '../shared/tuf/tuf-repositories';
import type { SigningSecrets } from '../shared/webhooks/signing-secrets';
import type { WebhookEvents } from '../shared/webhooks/webhook-events';
import type { FileObjects } from '../shared/uploads/file-objects';

/** What processors use; built once per worker process. */
export interface WorkerDeps {
  config: Readonly<Config>;
  /** The process's clock: when a rollout plan's steps are due, and how long ago installs were offered. */
  clock: Clock;
  logger: Logger;
  store: Store;
  storage: ObjectStorage;
  /** Verified files' content-addressed objects: placed once, deleted when no file points at them. */
  fileObjects: FileObjects;
  /** Where file digests are computed: the process's hashing threads. */
  hashing: Hashing;
  jobs: JobQueues;
  /** The workers' own Redis connection (retrying): the adoption rollup's HyperLogLogs. */
  redis: Redis;
  /** Announces webhook events (upload.completed, upload.failed, version.published). */
  webhooks: WebhookEvents;
  /** Opens endpoints' signing secrets to sign deliveries. */
  signingSecrets: SigningSecrets;
  /** Applications' TUF repositories: the re-signing job signs their due metadata. */
  tufRepositories: TufRepositories;
  /** This process's metrics: job durations are recorded by the workers, webhook delivery attempts by deliverWebhook. */
  metrics: ProcessMetrics;
  /**
   * Writes a change of an application's versions or files as the gateway's own changes are written
   * (InvalidationBus.change): held on every gateway first, so none serves its cached records of the
   * application past the write; refused with 503, nothing written, when that cannot be guaranteed.
   */
  catalogChange<T>(applicationId: string, write: () => Promise<T>): Promise<T>;
}
