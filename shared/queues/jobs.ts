import type { JobsOptions } from 'bullmq';
import {
  CHECK_EVENT_PURGE_INTERVAL_MS,
  UPDATE_REPORT_PURGE_INTERVAL_MS,
  CHECK_ROLLUP_INTERVAL_MS,
  JOB_COMPLETED_RETENTION,
  JOB_DEFAULT_ATTEMPTS,
  JOB_FAILED_RETENTION_SECONDS,
  JOB_RETRY_BASE_MS,
  ROLLOUT_PLAN_SWEEP_INTERVAL_MS,
  ROLLUP_INTERVAL_MS,
  SHARE_LINK_PURGE_INTERVAL_MS,
  TUF_RESIGN_INTERVAL_MS,
  UPLOAD_SESSION_SWEEP_INTERVAL_MS,
  VERIFY_UPLOAD_ATTEMPTS,
  WEBHOOK_DELIVERY_ATTEMPTS,
  WEBHOOK_OUTBOX_RELAY_INTERVAL_MS,
  WEBHOOK_RETRY_JITTER,
} from '../policy';

/** Every background job: its queue, its payload and its options. Workers must register a processor for each. */
export const QUEUE_NAMES = ['uploads', 'share-links', 'statistics', 'webhooks', 'maintenance'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface JobPayloads {
  /** Hash a completed large upload and publish or fail it. */
  'verify-upload': { uploadId: string };
  /** Expire upload sessions past their expiresAt and delete what they left. */
  'expire-upload-sessions': Record<string, never>;
  /** Mark one share link expired at its expiresAt (milliseconds since the epoch). */
  'expire-share-link': { tokenHash: string; expiresAt: number };
  /** Delete share links expired long enough ago. */
  'purge-share-links': Record<string, never>;
  /** Fold download events into daily counters. */
  'rollup-events': Record<string, never>;
  /** Fold update-check events into the adoption counters (distinct installs through Redis HyperLogLogs). */
  'rollup-update-checks': Record<string, never>;
  /** Fold update-check events into the update funnel: each install offered a release, and whether it arrived. */
  'fold-update-funnel': Record<string, never>;
  /** Queue a step-rollout-plan job for every running rollout plan. */
  'sweep-rollout-plans': Record<string, never>;
  /** Advance or halt one version's rollout plan on its release's health (one job per version at a time). */
  'step-rollout-plan': { applicationId: string; version: string };
  /** Delete rolled-up update-check events past their retention (CHECK_EVENT_RETENTION_DAYS). */
  'purge-check-events': Record<string, never>;
  /** Delete update reports past their retention (UPDATE_REPORT_RETENTION_MS). */
  'purge-update-reports': Record<string, never>;
  /** Record one webhook event's delivery to every endpoint subscribed to it, and queue each. */
  'dispatch-webhook-event': { eventId: string; type: string; occurredAt: string; data: unknown };
  /**
   * Deliver one message; retried on the delivery schedule starting at `retryBaseMs` (WEBHOOK_RETRY_BASE_MS
   * when it was queued). `round` counts redeliveries: each is a job of its own.
   */
  'deliver-webhook': { deliveryId: string; round: number; retryBaseMs: number };
  /** Delete delivery log entries past their retention. */
  'purge-webhook-deliveries': Record<string, never>;
  /** Queue the webhook events of the outbox whose writer did not (it died, or Redis refused them). */
  'relay-webhook-outbox': Record<string, never>;
  /**
   * Compute the SHA-512 of available files stored before it was kept. `afterFileId`: where a run
   * that was interrupted had got to (files are taken in fileId order).
   */
  'backfill-file-digests': { afterFileId?: string };
  /**
   * Check every SIGNATURE file of an application again under its update-signing key, queued when a
   * request names the key: one that no longer verifies records why and stops being offered.
   */
  'recheck-update-signatures': { applicationId: string };
  /**
   * Delete the bytes, then the version and file records, of a soft-deleted application whose purge
   * an administrator started (`actor`, by request `requestId`); recorded in the audit log when done.
   */
  'purge-application-releases': { applicationId: string; actor: string; requestId: string };
  /**
   * Sign again the TUF metadata that is due: every application's `timestamp.json` (and any other online
   * role) before it expires (TUF_TIMESTAMP_EXPIRY), and whatever the published files changed.
   */
  'resign-tuf-metadata': Record<string, never>;
}

export type JobName = keyof JobPayloads;

export interface JobDefinition<P> {
  queue: QueueName;
  /** Options of each job added, from its payload: an id that makes adding it twice add nothing, retries, a delay. */
  options?: (data: P) => JobsOptions;
  /** A recurring job: a scheduler (under the job's name, so restarts never duplicate it) adds one this often. */
  everyMs?: number;
  /** A job every worker process adds when it starts, with this payload (its options' job id keeps it to one at a time). */
  atWorkerStart?: P;
}

/** Defaults of every job: retries with backoff for transient failures, bounded retention in Redis. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: JOB_DEFAULT_ATTEMPTS,
  backoff: { type: 'exponential', delay: JOB_RETRY_BASE_MS },
  removeOnComplete: { age: JOB_COMPLETED_RETENTION.ageSeconds, count: JOB_COMPLETED_RETENTION.count },
  removeOnFail: { age: JOB_FAILED_RETENTION_SECONDS },
};

/** Each job with its queue and options, defined once: producers only name the job and give its payload. */
export const JOBS: { readonly [N in JobName]: JobDefinition<JobPayloads[N]> } = {
  'verify-upload': {
    queue: 'uploads',
    // One verification per upload however often it is completed.
    options: ({ uploadId }) => ({ jobId: uploadId, attempts: VERIFY_UPLOAD_ATTEMPTS }),
  },
  'expire-upload-sessions': { queue: 'uploads', everyMs: UPLOAD_SESSION_SWEEP_INTERVAL_MS },
  'expire-share-link': {
    queue: 'share-links',
    options: ({ tokenHash, expiresAt }) => ({ jobId: `share-${tokenHash}`, delay: Math.max(0, expiresAt - Date.now()) }),
  },
  'purge-share-links': { queue: 'share-links', everyMs: SHARE_LINK_PURGE_INTERVAL_MS },
  'rollup-events': { queue: 'statistics', everyMs: ROLLUP_INTERVAL_MS },
  'rollup-update-checks': { queue: 'statistics', everyMs: CHECK_ROLLUP_INTERVAL_MS },
  'fold-update-funnel': { queue: 'statistics', everyMs: CHECK_ROLLUP_INTERVAL_MS },
  'sweep-rollout-plans': { queue: 'maintenance', everyMs: ROLLOUT_PLAN_SWEEP_INTERVAL_MS },
  // One job per version at a time ('|' cannot occur in an application id); not kept, so the next sweep adds it again.
  'step-rollout-plan': {
    queue: 'maintenance',
    options: ({ applicationId, version }) => ({ jobId: `rollout-plan|${applicationId}|${version}`, removeOnComplete: true, removeOnFail: true }),
  },
  'purge-check-events': { queue: 'statistics', everyMs: CHECK_EVENT_PURGE_INTERVAL_MS },
  'purge-update-reports': { queue: 'statistics', everyMs: UPDATE_REPORT_PURGE_INTERVAL_MS },
  // One dispatch per event however often it is emitted; it only reads and writes the store, so it
  // retries for longer than the default while the store is away.
  'dispatch-webhook-event': { queue: 'webhooks', options: ({ eventId }) => ({ jobId: eventId, attempts: 10 }) },
  // Exponential backoff with jitter over about a day; the same message (same webhook-id) every attempt.
  'deliver-webhook': {
    queue: 'webhooks',
    options: ({ deliveryId, round, retryBaseMs }) => ({
      jobId: `${deliveryId}-${round}`,
      attempts: WEBHOOK_DELIVERY_ATTEMPTS,
      backoff: { type: 'exponential', delay: retryBaseMs, jitter: WEBHOOK_RETRY_JITTER },
    }),
  },
  'purge-webhook-deliveries': { queue: 'webhooks', everyMs: 3_600_000 },
  // Two runs at once (a slow one overlapping the next) queue an entry twice at worst: one dispatch by its job id.
  'relay-webhook-outbox': { queue: 'webhooks', everyMs: WEBHOOK_OUTBOX_RELAY_INTERVAL_MS },
  'backfill-file-digests': {
    queue: 'maintenance',
    // One run at a time, however many workers start. Not kept once it ends, so the next start adds
    // it again: a run with nothing left to do costs one query, and one that failed is tried again.
    options: () => ({ jobId: 'backfill-file-digests', removeOnComplete: true, removeOnFail: true }),
    atWorkerStart: {},
  },
  // Hashes the MAIN files the signatures sign, so it runs beside the digest backfill, apart from uploads.
  'recheck-update-signatures': { queue: 'maintenance' },
  // One purge of an application at a time; not kept once it ends, so a repeated request runs it again
  // (one that failed, or a purge some bytes of which a store outage left behind).
  'purge-application-releases': {
    queue: 'maintenance',
    options: ({ applicationId }) => ({ jobId: `purge-application-releases-${applicationId}`, removeOnComplete: true, removeOnFail: true }),
  },
  // Recurring, and at each worker start so a service that was down signs before clients see an expired timestamp.
  'resign-tuf-metadata': {
    queue: 'maintenance',
    everyMs: TUF_RESIGN_INTERVAL_MS,
    options: () => ({ jobId: 'resign-tuf-metadata', removeOnComplete: true, removeOnFail: true }),
    atWorkerStart: {},
  },
};

export interface RecurringJob {
  name: JobName;
  everyMs: number;
}

export interface StartUpJob {
  name: JobName;
  data: JobPayloads[JobName];
}

/**
 * Recurring jobs of earlier releases, whose schedulers a worker start removes (they would add jobs
 * nothing processes): the outbox relay replaced the requeue of events Redis refused.
 */
export const RETIRED_SCHEDULERS: readonly { name: string; queue: QueueName }[] = [{ name: 'requeue-webhook-events', queue: 'webhooks' }];

/** The jobs a worker process adds when it starts, with their payloads. */
export const START_UP_JOBS: readonly StartUpJob[] = (Object.keys(JOBS) as JobName[]).flatMap((name) => {
  const data = JOBS[name].atWorkerStart;
  return data === undefined ? [] : [{ name, data }];
});

/** The recurring jobs and how often each runs. */
export const RECURRING_JOBS: readonly RecurringJob[] = (Object.keys(JOBS) as JobName[]).flatMap((name) => {
  const { everyMs } = JOBS[name];
  return everyMs === undefined ? [] : [{ name, everyMs }];
});
