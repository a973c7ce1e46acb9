import type { Job } from 'bullmq';
import type { JobName, JobPayloads } from '../shared/queues/jobs';
import type { WorkerDeps } from './worker-deps';

export type Processor<N extends JobName> = (job: Job<JobPayloads[N]>, deps: WorkerDeps) => Promise<unknown>;

/** One processor per job name; the mapped type makes a missing processor a compile error. */
export type ProcessorRegistry = { readonly [N in JobName]: Processor<N> };

/**
 * What to do once a job has ended failed, whatever failed it: its last attempt, a stall beyond
 * maxStalledCount (BullMQ then fails it without running the processor), or something outside the
 * workers. Runs in the worker process that saw the job fail, so it may run more than once or not at
 * all (that process may die first): it must be safe to repeat, and a sweep must repeat it.
 */
export type FailureHandler<N extends JobName> = (job: Job<JobPayloads[N]>, deps: WorkerDeps) => Promise<void>;

/** Failure handlers of the jobs that leave records behind when they fail. */
export type FailureHandlerRegistry = { readonly [N in JobName]?: FailureHandler<N> };

