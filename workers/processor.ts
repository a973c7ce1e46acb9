import type { Job } from 'bullmq';
import type { JobName, JobPayloads } from '../shared/queues/jobs';
import type { WorkerDeps } from './worker-deps';

export type Processor<N extends JobName> = (job: Job<JobPayloads[N]>, deps: WorkerDeps) => Promise<unknown>;

/** One processor per job name; the mapped type makes a missing processor a compile error. */
export type ProcessorRegistry = { readonly [N in JobName]: Processor<N> };

/** Recurring jobs, registered with upsertJobScheduler under a fixed id so restarts never duplicate them. */
export interface RecurringJob {
  name: JobName;
  everyMs: number;
}
