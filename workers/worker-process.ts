import { ExpectedJobFailure } from '../shared/queues/expected-job-failure';
import { Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { JobName, JOBS, QUEUE_NAMES, QueueName, RECURRING_JOBS, RecurringJob, RETIRED_SCHEDULERS, START_UP_JOBS, StartUpJob } from '../shared/queues/jobs';
import { JobQueues } from '../shared/queues/job-queues';
import { invalidationChannel, InvalidationBus } from '../shared/cache/invalidation-bus';
import { createSubscriberConnection, createWorkerConnection, whileRedisAnswers } from '../shared/redis/connections';
import { RedisOutageLog } from '../shared/redis/redis-outage-log';
import { KeyLocks } from '../shared/redis/key-locks';
import { FileObjects } from '../shared/uploads/file-objects';
import { FILE_OBJECT_LOCK_SECONDS, FILE_OBJECT_LOCK_WAIT_MS } from '../shared/policy';
import type { CoreServices } from '../shared/runtime/core-services';
import { webhookSecretKey } from '../shared/runtime/local-secrets';
import { openTufRepositories } from '../shared/runtime/tuf-repositories';
import { SigningSecrets } from '../shared/webhooks/signing-secrets';
import { WebhookEvents } from '../shared/webhooks/webhook-events';
import { SubscribedEventTypes } from '../shared/webhooks/subscribed-event-types';
import type { FailureHandler, FailureHandlerRegistry, Processor, ProcessorRegistry } from './processor';
import { FAILURE_HANDLERS, PROCESSORS } from './processors/registry';
import type { WorkerDeps } from './worker-deps';

export interface RunningWorkers {
  workers: Worker[];
  /** Waits for active jobs and the handling of failed ones to finish, then closes the workers. */
  close(): Promise<void>;
}

const CONCURRENCY: Record<QueueName, number> = {
  uploads: 2,
  'share-links': 5,
  statistics: 1,
  // Deliveries wait on receivers (up to 10 s each), not on this process.
  webhooks: 10,
  // Long, one-off work (backfills) that must not take the other queues' slots.
  maintenance: 1,
};

/**
 * Job locks and stall checks (BullMQ). A worker renews its active jobs' locks every
 * lockDuration / 2 (3 s) while its event loop is free: digests are computed on hashing threads, and
 * on the event loop (HASHING_THREADS=0) hashing yields after every 1 MiB read, so a 1 GiB hash holds
 * the loop for at most about 100 ms at a time, far inside that margin. A job whose
 * worker died keeps its lock for at most lockDuration; the stalled check, run every stalledInterval by
 * any live worker, puts it back in the queue once the lock has lapsed, so it resumes within about
 * lockDuration + stalledInterval (8 s) of the crash (30 to 60 s with BullMQ's defaults). A job that
 * stalls more than maxStalledCount times (it keeps killing its worker) fails instead of looping;
 * every processor is safe to repeat, so a stall that was not a crash costs only a repeated run.
 */
export const JOB_LOCKS = {
  lockDuration: 6_000,
  stalledInterval: 2_000,
  maxStalledCount: 2,
} as const;

/**
 * One BullMQ worker per queue, dispatching by job name. Start-up fails when a job has no processor;
 * recurring jobs are upserted under fixed scheduler ids, and the start-up jobs added (their job ids
 * keep each to one run at a time).
 *
 * A job that ends failed goes to its failure handler, from the worker's own `failed` event rather
 * than QueueEvents: the worker that fails a job emits it, and a job that stalled too often is failed
 * by the live worker that takes it next, not by the one that died. QueueEvents would deliver every
 * failure to every worker process (each racing to handle it) over one more blocking connection each,
 * and would still miss failures while no process listened. What the event misses (a process dying
 * before its handler finishes, a job failed outside the workers) is left to the sweeps.
 */
export async function startWorkers(
  deps: WorkerDeps,
  connection: Redis,
  redisOutage: RedisOutageLog,
  processors: ProcessorRegistry,
  failureHandlers: FailureHandlerRegistry,
  recurring: readonly RecurringJob[],
  startUp: readonly StartUpJob[],
): Promise<RunningWorkers> {
  const missing = (Object.keys(JOBS) as JobName[]).filter((name) => typeof processors[name] !== 'function');
  if (missing.length > 0) throw new Error(`no processor for jobs: ${missing.join(', ')}`);

  // Scheduled and start-up jobs are added before any worker consumes: a start-up job already queued
  // (a run resumed from where it stopped) then stays the one that runs, and a failed add leaves no
  // worker behind.
  for (const job of recurring) {
    await deps.jobs.queue(JOBS[job.name].queue).upsertJobScheduler(job.name, { every: job.everyMs }, { name: job.name, data: {} });
  }
  for (const retired of RETIRED_SCHEDULERS) await deps.jobs.queue(retired.queue).removeJobScheduler(retired.name);
  for (const job of startUp) await deps.jobs.enqueue(job.name, job.data);

  const handlingFailures = new Set<Promise<void>>();
  const handleFailure = (job: Job) => {
    const handler = failureHandlers[job.name as JobName] as FailureHandler<JobName> | undefined;
    if (!handler) return;
    const handling = handler(job, deps)
      .catch((error) => deps.logger.warn({ err: error, job: job.name, jobId: job.id }, 'could not handle a failed job; the next sweep does'))
      .finally(() => handlingFailures.delete(handling));
    handlingFailures.add(handling);
  };

  const workers = QUEUE_NAMES.map((queueName) => {
    const worker = new Worker(
      queueName,
      async (job: Job) => {
        const processor = processors[job.name as JobName] as Processor<JobName> | undefined;
        if (!processor || JOBS[job.name as JobName]?.queue !== queueName) throw new Error(`unknown job ${job.name} on ${queueName}`);
        const started = performance.now();
        const took = () => (performance.now() - started) / 1000;
        try {
          const result = await processor(job, deps);
          deps.metrics.recordJob(queueName, job.name, 'completed', took());
          return result;
        } catch (error) {
          deps.metrics.recordJob(queueName, job.name, 'failed', took());
          throw error;
        }
      },
      { connection, prefix: deps.config.redisPrefix, concurrency: CONCURRENCY[queueName], ...JOB_LOCKS },
    );
    worker.on('failed', (job, error) => {
      const attempt = { job: job?.name, jobId: job?.id, attempt: job?.attemptsMade, retried: job?.finishedOn === undefined };
      if (error instanceof ExpectedJobFailure) deps.logger.warn({ ...attempt, ...error.details, reason: error.message }, 'job failed');
      else deps.logger.warn({ err: error, ...attempt }, 'job failed');
      // finishedOn is set once the job has ended failed, not after an attempt that will be retried.
      if (job?.finishedOn !== undefined) handleFailure(job);
    });
    worker.on('stalled', (jobId) =>
      deps.logger.warn({ queue: queueName, jobId }, 'job stalled: its worker stopped renewing its lock, so it runs again'));
    worker.on('error', (error) => {
      if (redisOutage.explains(error)) redisOutage.affected(error);
      else deps.logger.error({ err: error, queue: queueName }, 'worker error');
    });
    return worker;
  });

  return {
    workers,
    close: async () => {
      // With Redis unreachable an active job can neither finish nor report back: waiting for it would
      // only run out the shutdown deadline. Its lock lapses and another worker retries it.
      const force = connection.status !== 'ready';
      await whileRedisAnswers(connection, Promise.all(workers.map((w) => w.close(force))));
      await whileRedisAnswers(connection, Promise.all(handlingFailures));
    },
  };
}

export interface LaunchedWorkers {
  running: RunningWorkers;
  /** Lets active jobs finish, then closes what launchWorkers opened (not the core services). */
  close(): Promise<void>;
}

/**
 * Opens the workers' own Redis connection (retrying, as BullMQ requires) and starts every processor.
 * Workers that publish a file also change its version, which gateways cache: they write it through
 * the gateways' invalidation bus, as the gateways write their own changes.
 */
export async function launchWorkers(
  config: WorkerDeps['config'],
  logger: WorkerDeps['logger'],
  core: CoreServices,
  redisUrl: string,
): Promise<LaunchedWorkers> {
  const connection = createWorkerConnection(redisUrl);
  const subscriber = createSubscriberConnection(redisUrl);
  const redisOutage = new RedisOutageLog(logger, 'failedOperations');
  for (const redis of [connection, subscriber]) redisOutage.watch(redis);
  const jobs = new JobQueues(connection, config.redisPrefix, logger, redisOutage);
  const bus = new InvalidationBus(connection, subscriber, invalidationChannel(config.redisPrefix), logger);
  await bus.start();
  const catalogChange = <T>(applicationId: string, write: () => Promise<T>) => bus.change([['application', applicationId]], write);
  const webhooks = new WebhookEvents(jobs, core.store, new SubscribedEventTypes(core.store, bus, logger), logger);
  const secretKey = webhookSecretKey(config.webhooks.secretKeyHex, config.dataDir);
  const signingSecrets = new SigningSecrets(secretKey);
  const tufRepositories = openTufRepositories(core.store, config);
  const fileObjects = new FileObjects(core.store, core.storage, new KeyLocks(connection, config.redisPrefix, FILE_OBJECT_LOCK_SECONDS, FILE_OBJECT_LOCK_WAIT_MS));
  const deps: WorkerDeps = {
    config, clock: core.clock, logger, store: core.store, storage: core.storage, fileObjects, hashing: core.hashing, jobs, redis: connection, metrics: core.metrics, catalogChange, webhooks, signingSecrets, tufRepositories,
  };
  const running = await startWorkers(deps, connection, redisOutage, PROCESSORS, FAILURE_HANDLERS, RECURRING_JOBS, START_UP_JOBS);
  // Read only when scraped: the queues' depths and how far the statistics lag behind downloads.
  const stopReporting = [core.metrics.reportQueueDepths(() => jobs.depths()), core.metrics.reportRollupLag(() => core.store.activity.oldestUncountedEventAt())];
  logger.info({ queues: QUEUE_NAMES }, 'workers started');
  return {
    running,
    close: async () => {
      for (const stop of stopReporting) stop();
      await running.close();
      redisOutage.close();
      // The queues share this connection; closing them waits for Redis, so without it they are left
      // to go with the connection.
      await whileRedisAnswers(connection, jobs.close());
      await bus.close();
      connection.disconnect();
    },
  };
}
