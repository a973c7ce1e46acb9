import { JobsOptions, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger';
import type { RedisOutageLog } from '../redis/redis-outage-log';
import { JOB_QUEUE, JobName, JobPayloads, QUEUE_NAMES, QueueName } from './jobs';

/** Defaults for every job: retries with backoff for transient failures, bounded retention. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { age: 3_600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3_600 },
};

/** The producer side: one BullMQ queue per QueueName, sharing one connection. */
export class JobQueues {
  private readonly queues: Map<QueueName, Queue>;

  constructor(connection: Redis, prefix: string, private readonly logger: Logger, redisOutage: RedisOutageLog) {
    this.queues = new Map(
      QUEUE_NAMES.map((name) => {
        const queue = new Queue(name, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
        queue.on('error', (error) => {
          if (redisOutage.explains(error)) redisOutage.notice(error);
          else this.logger.error({ err: error, queue: name }, 'queue error');
        });
        return [name, queue];
      }),
    );
  }

  /** Adds a job; with `jobId` set, adding the same id again while the job exists adds nothing. */
  async enqueue<N extends JobName>(name: N, data: JobPayloads[N], options: JobsOptions = {}): Promise<void> {
    await this.queue(JOB_QUEUE[name]).add(name, data, options);
  }

  queue(name: QueueName): Queue {
    return this.queues.get(name) as Queue;
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
