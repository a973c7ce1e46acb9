import { JobsOptions, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger';
import { QUEUE_STATES, type QueueDepth, type QueueState } from '../metrics/process-metrics';
import type { RedisOutageLog } from '../redis/redis-outage-log';
import { DEFAULT_JOB_OPTIONS, JobName, JobPayloads, JOBS, QUEUE_NAMES, QueueName } from './jobs';

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

  /** Adds a job with the options its definition gives it (jobs.ts); a job with an id already there adds nothing. */
  async enqueue<N extends JobName>(name: N, data: JobPayloads[N]): Promise<void> {
    const definition = JOBS[name];
    const options: JobsOptions = definition.options?.(data) ?? {};
    await this.queue(definition.queue).add(name, data, options);
  }

  /** How many jobs each queue holds, per state. */
  async depths(): Promise<QueueDepth[]> {
    return Promise.all(QUEUE_NAMES.map(async (queue) => {
      const counts = await this.queue(queue).getJobCounts(...QUEUE_STATES);
      return { queue, counts: Object.fromEntries(QUEUE_STATES.map((state) => [state, counts[state] ?? 0])) as Record<QueueState, number> };
    }));
  }

  queue(name: QueueName): Queue {
    return this.queues.get(name) as Queue;
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
