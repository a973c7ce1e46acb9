import { Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOB_QUEUE, JobName, QUEUE_NAMES, QueueName } from '../shared/queues/jobs';
import { JobQueues } from '../shared/queues/job-queues';
import { createWorkerConnection } from '../shared/redis/connections';
import type { CoreServices } from '../shared/runtime/core-services';
import type { Processor, ProcessorRegistry, RecurringJob } from './processor';
import { PROCESSORS, RECURRING_JOBS } from './processors/registry';
import type { WorkerDeps } from './worker-deps';

export interface RunningWorkers {
  workers: Worker[];
  /** Waits for active jobs to finish, then closes the workers. */
  close(): Promise<void>;
}

const CONCURRENCY: Record<QueueName, number> = {
  uploads: 2,
  'share-links': 5,
  statistics: 1,
};

/**
 * One BullMQ worker per queue, dispatching by job name. Start-up fails when a job has no processor;
 * recurring jobs are upserted under fixed scheduler ids.
 */
export async function startWorkers(
  deps: WorkerDeps,
  connection: Redis,
  processors: ProcessorRegistry,
  recurring: readonly RecurringJob[],
): Promise<RunningWorkers> {
  const missing = (Object.keys(JOB_QUEUE) as JobName[]).filter((name) => typeof processors[name] !== 'function');
  if (missing.length > 0) throw new Error(`no processor for jobs: ${missing.join(', ')}`);

  const workers = QUEUE_NAMES.map((queueName) => {
    const worker = new Worker(
      queueName,
      async (job: Job) => {
        const processor = processors[job.name as JobName] as Processor<JobName> | undefined;
        if (!processor || JOB_QUEUE[job.name as JobName] !== queueName) throw new Error(`unknown job ${job.name} on ${queueName}`);
        return processor(job, deps);
      },
      { connection, prefix: deps.config.redisPrefix, concurrency: CONCURRENCY[queueName] },
    );
    worker.on('failed', (job, error) =>
      deps.logger.warn({ err: error, job: job?.name, jobId: job?.id, attempt: job?.attemptsMade }, 'job failed'));
    worker.on('error', (error) => deps.logger.error({ err: error, queue: queueName }, 'worker error'));
    return worker;
  });

  for (const job of recurring) {
    await deps.jobs.queue(JOB_QUEUE[job.name]).upsertJobScheduler(job.name, { every: job.everyMs }, { name: job.name, data: {} });
  }

  return {
    workers,
    close: async () => {
      // With Redis unreachable an active job can neither finish nor report back: waiting for it would
      // only run out the shutdown deadline. Its lock lapses and another worker retries it.
      const force = connection.status !== 'ready';
      await Promise.all(workers.map((w) => w.close(force)));
    },
  };
}

export interface LaunchedWorkers {
  running: RunningWorkers;
  /** Lets active jobs finish, then closes what launchWorkers opened (not the core services). */
  close(): Promise<void>;
}

/** Opens the workers' own Redis connection (retrying, as BullMQ requires) and starts every processor. */
export async function launchWorkers(
  config: WorkerDeps['config'],
  logger: WorkerDeps['logger'],
  core: CoreServices,
  redisUrl: string,
): Promise<LaunchedWorkers> {
  const connection = createWorkerConnection(redisUrl);
  connection.on('error', (error) => logger.warn({ err: error.message }, 'redis connection error'));
  const jobs = new JobQueues(connection, config.redisPrefix, logger);
  const deps: WorkerDeps = { config, logger, store: core.store, storage: core.storage, jobs };
  const running = await startWorkers(deps, connection, PROCESSORS, RECURRING_JOBS);
  logger.info({ queues: QUEUE_NAMES }, 'workers started');
  return {
    running,
    close: async () => {
      await running.close();
      // The queues share this connection; closing them waits for Redis, so without it they are left
      // to go with the connection.
      if (connection.status === 'ready') await jobs.close();
      connection.disconnect();
    },
  };
}
