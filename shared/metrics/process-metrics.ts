import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { joinClusterMetrics } from './cluster-metrics';
import { RequestSeries } from './request-series';

/** The route label of requests no route matched (unknown paths, wrong methods): one label, never the path. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The queue states reported as depth. */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

export interface QueueDepth {
  queue: string;
  counts: Readonly<Record<QueueState, number>>;
}

/** Lookups of one in-process cache, counted as plain numbers by its owner and read at scrape time. */
export interface CacheLookups {
  hits: number;
  misses: number;
}

/**
 * What became of one webhook delivery attempt: `delivered` (a 2xx in time), `retried` (failed, tried
 * again later), `failed` (failed for the last time, or its endpoint was disabled), `refused` (the
 * destination broke the outbound rules and was not contacted; retried like any failure).
 */
export const WEBHOOK_DELIVERY_OUTCOMES = ['delivered', 'retried', 'failed', 'refused'] as const;
export type WebhookDeliveryOutcome = (typeof WEBHOOK_DELIVERY_OUTCOMES)[number];

/** How long a scrape waits for a source (Redis, the store); one that does not answer in time reports nothing. */
const SOURCE_TIMEOUT_MS = 2_000;

/** Latency buckets of HTTP answers: the download path answers in milliseconds, uploads take seconds. */
const REQUEST_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Job durations: a rollup takes milliseconds, verifying a large upload up to minutes. */
const JOB_SECONDS = [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900];

/**
 * The metrics of one process, in Prometheus form (prom-client), read by GET /metrics: the gateway's
 * on its port, the worker process's on its own listener (METRICS_PORT). Both kinds register here, so
 * a process running both (npm start) serves them together. Every label is bounded: route templates
 * from the route table (UNMATCHED_ROUTE for the rest), methods, statuses, queue and job names from the
 * job table, cache names, outcomes.
 *
 * Counts on the request path are plain numbers (request-series.ts); queue depth, rollup lag
 * and cache lookups are read from their sources only when scraped, and queue depth and rollup lag
 * exist only in a process that has a source for them (one running workers).
 */
export class ProcessMetrics {
  readonly registry = new Registry();
  private readonly requests = new RequestSeries(REQUEST_SECONDS);
  private readonly jobSeconds: Histogram<'queue' | 'job_name' | 'outcome'>;
  private readonly webhookDeliveries: Counter<'outcome'>;
  private readonly cacheSources = new Set<() => Readonly<Record<string, CacheLookups>>>();
  private queueSource: (() => Promise<QueueDepth[]>) | undefined;
  private rollupSource: (() => Promise<Date | null>) | undefined;
  /** What the exposition is read from: this registry, or the cluster's aggregate. */
  private read = () => this.registry.metrics();

  /** `served`: someone can read them (METRICS_TOKEN is set); work done only to be read is skipped otherwise. */
  constructor(readonly served: boolean) {
    const registers = [this.registry];
    if (served) collectDefaultMetrics({ register: this.registry });
    const requestMetrics = this.requests.metrics(
      { name: 'http_requests_total', help: 'HTTP requests answered, by route template, method and status' },
      { name: 'http_request_duration_seconds', help: 'Time to answer an HTTP request, by route template, method and status' },
    );
    for (const metric of requestMetrics) this.registry.registerMetric(metric as never);
    this.jobSeconds = new Histogram({
      name: 'job_duration_seconds', help: 'Time a job attempt ran, by queue, job name and outcome (completed or failed)',
      labelNames: ['queue', 'job_name', 'outcome'], buckets: JOB_SECONDS, registers,
    });
    this.webhookDeliveries = new Counter({ name: 'webhook_deliveries_total', help: 'Webhook delivery attempts, by outcome', labelNames: ['outcome'], registers });
    for (const outcome of WEBHOOK_DELIVERY_OUTCOMES) this.webhookDeliveries.inc({ outcome }, 0);

    const cacheLookups: Counter<'cache' | 'result'> = new Counter({
      name: 'download_cache_lookups_total', help: 'Lookups of the download path\'s in-process caches, by cache and result (hit or miss)',
      labelNames: ['cache', 'result'], registers,
      collect: () => {
        cacheLookups.reset();
        for (const read of this.cacheSources) {
          for (const [cache, { hits, misses }] of Object.entries(read())) {
            cacheLookups.inc({ cache, result: 'hit' }, hits);
            cacheLookups.inc({ cache, result: 'miss' }, misses);
          }
        }
      },
    });
  }

  recordRequest(route: string, method: string, status: number, seconds: number): void {
    this.requests.record(route, method, status, seconds);
  }

  recordJob(queue: string, jobName: string, outcome: 'completed' | 'failed', seconds: number): void {
    this.jobSeconds.observe({ queue, job_name: jobName, outcome }, seconds);
  }

  /** Counts one webhook delivery attempt; every outcome is reported from 0 on. */
  recordWebhookDelivery(outcome: WebhookDeliveryOutcome): void {
    this.webhookDeliveries.inc({ outcome });
  }

  /** Reports the lookups `read` returns (per cache name), summed over every source; returns what stops it. */
  countCacheLookups(read: () => Readonly<Record<string, CacheLookups>>): () => void {
    this.cacheSources.add(read);
    return () => this.cacheSources.delete(read);
  }

  /** Reports the queues' depths from `read` (queue_jobs, created with the first source); returns what stops it. */
  reportQueueDepths(read: () => Promise<QueueDepth[]>): () => void {
    if (!this.registry.getSingleMetric('queue_jobs')) {
      const queueJobs: Gauge<'queue' | 'state'> = new Gauge({
        name: 'queue_jobs', help: 'Jobs in each queue, by state (waiting, active, delayed, failed)', labelNames: ['queue', 'state'], registers: [this.registry],
        collect: async () => {
          queueJobs.reset();
          // Queues that cannot be read now (Redis down) report nothing rather than failing or holding the scrape.
          const depths = this.queueSource && await answered(this.queueSource());
          for (const { queue, counts } of depths ?? []) for (const state of QUEUE_STATES) queueJobs.set({ queue, state }, counts[state]);
        },
      });
    }
    this.queueSource = read;
    return () => {
      if (this.queueSource === read) this.queueSource = undefined;
    };
  }

  /** Reports the rollup lag from `read`, the oldest uncounted download (rollup_lag_seconds, created with the first source); returns what stops it. */
  reportRollupLag(read: () => Promise<Date | null>): () => void {
    if (!this.registry.getSingleMetric('rollup_lag_seconds')) {
      const rollupLag = new Gauge({
        name: 'rollup_lag_seconds', help: 'Age of the oldest download not yet counted in the statistics (0 when all are)', registers: [this.registry],
        collect: async () => {
          // A store that cannot be read now leaves the last value: 0 would say that nothing waits.
          const oldest = this.rollupSource && await answered(this.rollupSource());
          if (oldest !== undefined) rollupLag.set(oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0);
        },
      });
    }
    this.rollupSource = read;
    return () => {
      if (this.rollupSource === read) this.rollupSource = undefined;
    };
  }

  /**
   * For a gateway process of a cluster (WEB_CONCURRENCY > 1): the exposition becomes that of every
   * gateway process, summed by the primary.
   */
  joinCluster(): void {
    this.read = joinClusterMetrics(this.registry);
  }

  /** The exposition, in the Prometheus text format. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.read() };
  }
}

/** What `source` resolves to within SOURCE_TIMEOUT_MS; undefined when it fails or takes longer. */
async function answered<T>(source: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), SOURCE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([source.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
