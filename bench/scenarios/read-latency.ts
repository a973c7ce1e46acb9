import type { ApiClient } from '../api-client';
import { makeTempDir } from '../cleanup';
import { figure, Figure } from '../figures';
import { median, percentile, sleep } from '../sample-stats';
import { startService } from '../service';
import { createStore } from '../../shared/store/create-store';
import { insertDownloadEvents } from '../synthetic-events';

const SMALL = 1_000;
const LARGE = 100_000;
const SAMPLES = 200;
/** Untimed requests first, so a freshly started service has compiled its hot paths. */
const WARM_UP = 50;
const APPLICATION_ID = 'bench-stats';
/** The deep activity page starts this far into the feed. */
const DEEP_FRACTION = 0.9;
const FOLD_TIMEOUT_MS = 180_000;

const READS = {
  stats: 'GET /v1/applications/:id/stats',
  activityFirst: 'GET /v1/activity?limit=20 (first page)',
  activityDeep: `GET /v1/activity?limit=20 (page at ${DEEP_FRACTION * 100}% depth)`,
} as const;
type Read = keyof typeof READS;
type Latencies = Record<Read, number[]>;

/**
 * Read latency of statistics and the activity feed at 1,000 and at 100,000 stored events: both read
 * paths are meant to cost the same whatever the history (daily counters, keyset cursors).
 */
export async function readLatency(redisUrl: string, notes: string[]): Promise<Figure[]> {
  const small = await measureAt(SMALL, redisUrl, notes);
  const large = await measureAt(LARGE, redisUrl, notes);
  return (Object.keys(READS) as Read[]).flatMap((read) => [
    figure({
      name: `${READS[read]} p50 @100k vs @1k events`,
      value: median(large[read]),
      unit: 'ms',
      baseline: { name: '@1k events', value: median(small[read]) },
      target: { on: 'ratio', op: '<=', limit: 2 },
    }),
    figure({
      name: `${READS[read]} p99 @100k vs @1k events`,
      value: percentile(large[read], 99),
      unit: 'ms',
      baseline: { name: '@1k events', value: percentile(small[read], 99) },
      detail: { samples: SAMPLES, warmUp: WARM_UP, msAt1k: small[read], msAt100k: large[read] },
    }),
  ]);
}

/** A fresh store seeded with `events`, then a service on it whose worker folds them; then the timed reads. */
async function measureAt(events: number, redisUrl: string, notes: string[]): Promise<Latencies> {
  const dir = makeTempDir('bds-bench-stats-');
  try {
    const store = await createStore({ dataDir: dir.path });
    await insertDownloadEvents(store, { applicationId: APPLICATION_ID, count: events, days: 30, versions: 10, now: Date.now() });
    await store.close();

    const service = await startService({ dataDir: dir.path, redisUrl });
    try {
      const { api } = service;
      await api.admin('/v1/management/applications', { json: { applicationId: APPLICATION_ID, name: 'Bench statistics', defaultVersionStatus: 'published' } });
      await waitForTotal(api, events);
      const deepCursor = await cursorAt(api, Math.floor(events * DEEP_FRACTION));
      const paths: Record<Read, string> = {
        stats: `/v1/applications/${APPLICATION_ID}/stats`,
        activityFirst: '/v1/activity?limit=20',
        activityDeep: `/v1/activity?limit=20&cursor=${deepCursor}`,
      };
      const latencies = {} as Latencies;
      for (const read of Object.keys(paths) as Read[]) latencies[read] = await timeSequential(api, paths[read]);
      return latencies;
    } finally {
      const warnings = service.warnings();
      if (warnings.length > 0) notes.push(`service with ${events} events logged ${warnings.length} warning(s) or error(s); first: ${warnings[0].slice(0, 400)}`);
      await service.stop();
    }
  } finally {
    await dir.remove();
  }
}

async function waitForTotal(api: ApiClient, events: number): Promise<void> {
  const deadline = Date.now() + FOLD_TIMEOUT_MS;
  for (;;) {
    const { totalDownloads } = await api.admin<{ totalDownloads: number }>(`/v1/applications/${APPLICATION_ID}/stats`);
    if (totalDownloads === events) return;
    if (totalDownloads > events || Date.now() > deadline) {
      throw new Error(`statistics report ${totalDownloads} downloads, ${events} were seeded`);
    }
    await sleep(100);
  }
}

/** Walks the feed 100 items a page (the cursor does not carry the page size) to the cursor after `depth` items. */
async function cursorAt(api: ApiClient, depth: number): Promise<string> {
  let cursor: string | null = null;
  for (let seen = 0; seen < depth; seen += 100) {
    const page: { pagination: { nextCursor: string | null } } = await api.admin(`/v1/activity?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    cursor = page.pagination.nextCursor;
    if (!cursor) throw new Error(`the activity feed ended before ${depth} items`);
  }
  return cursor as string;
}

/** Milliseconds of each of SAMPLES sequential requests, after WARM_UP untimed ones. */
async function timeSequential(api: ApiClient, path: string): Promise<number[]> {
  for (let i = 0; i < WARM_UP; i += 1) await api.admin(path);
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) {
    const started = performance.now();
    await api.admin(path);
    times.push(performance.now() - started);
  }
  return times;
}
