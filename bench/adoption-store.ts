/**
 * The adoption figures on the SQLite store on its own (no service whose worker would race it):
 * 1. rollup throughput: ROLLUP_EVENTS check events appended, then folded by rollupChecks in the
 *    worker's batches (HyperLogLogs in the bench's Redis), next to the append rate of the same events;
 * 2. the adoption answer (AdoptionService over the store, as the route computes it) for 30 days of
 *    one application whose counters come from 10,000 real check events, and of one whose counters
 *    hold what 10,000,000 check events make (written as counters: 10M raw events take too long to
 *    generate and fold on this machine, and the answer reads only counters). Both have every version
 *    on every day, so they have as many counters: what differs is the number of checks behind them.
 * 3. the update funnel: the same ROLLUP_EVENTS checks folded into install offers and arrivals
 *    (foldFunnelChecks, the worker's batches), next to the adoption rollup of them; and a release's
 *    health computed from its offers and linked downloads (releaseHealth, as a rollout plan's job
 *    computes it, with REPORTS customers' downloads of the release to link); and REPORTS update
 *    reports recorded one write each, as the report route writes them, next to the check appends.
 * Arguments: <dataDir> <redisUrl> <redisPrefix>. Prints one JSON line.
 */
import IORedis from 'ioredis';
import { rollupChecks } from '../shared/adoption/rollup-checks';
import { foldFunnelChecks } from '../shared/rollouts/fold-funnel-checks';
import { releaseHealth } from '../shared/rollouts/release-health';
import { counterKey } from '../shared/adoption/adoption-counts';
import { newEventId } from '../shared/ids';
import { CHECK_ROLLUP_BATCH } from '../shared/policy';
import { createStore } from '../shared/store/create-store';
import { ALL, type AdoptionCount, type CheckEvent, type DistributionEvent } from '../shared/store/models';
import type { Store } from '../shared/store/store';
import { AdoptionService } from '../gateway/statistics/adoption-service';
import { DEFAULT_CHANNELS } from '../shared/releases/channels';

const ROLLUP_EVENTS = 100_000;
/** Update reports recorded, and downloads of the offered release the health links. */
const REPORTS = 10_000;
const SMALL_EVENTS = 10_000;
const LARGE_EVENTS = 10_000_000;
const DAYS = 30;
const VERSIONS = Array.from({ length: 10 }, (_, i) => `1.${i}.0`);
const CHANNELS = ['stable', 'beta'];
const PLATFORMS = ['windows', 'macos', 'linux'] as const;
const ARCHS = ['x64', 'arm64'] as const;
const INSTALLS_PER_DAY = 2_000;
const SAMPLES = 200;
const WARM_UP = 20;
const DAY_MS = 86_400_000;

/** Synthetic checks spread over the last DAYS days, every dimension cycling at its own pace. */
function checks(applicationId: string, count: number, now: number): CheckEvent[] {
  return Array.from({ length: count }, (_, i) => {
    const day = i % DAYS;
    const at = new Date(now - day * DAY_MS - (i % 3_600_000));
    return {
      eventId: newEventId(at), applicationId, customerId: `cust_${i % 50}`, client: 'electron-updater',
      platform: PLATFORMS[i % 3], arch: ARCHS[i % 2], channel: CHANNELS[i % 7 === 0 ? 1 : 0],
      // Every version on every day: the counters have the shape the 10M counters have, so the two answers differ by the checks counted only.
      runningVersion: VERSIONS[Math.floor(i / DAYS) % VERSIONS.length],
      offeredVersion: VERSIONS[VERSIONS.length - 1], installId: null, installHash: `install_${day}_${i % INSTALLS_PER_DAY}`, timestamp: at,
    };
  });
}

async function appendAll(store: Store, events: CheckEvent[]): Promise<void> {
  for (let i = 0; i < events.length; i += 5_000) await store.adoption.insertCheckEvents(events.slice(i, i + 5_000));
}

async function foldAll(store: Store, redis: IORedis, prefix: string): Promise<number> {
  let folded = 0;
  for (let n = await rollupChecks(store, redis, prefix, CHECK_ROLLUP_BATCH); n > 0; n = await rollupChecks(store, redis, prefix, CHECK_ROLLUP_BATCH)) folded += n;
  return folded;
}

async function application(store: Store, applicationId: string, now: number): Promise<void> {
  const at = new Date(now - DAYS * DAY_MS);
  await store.applications.createApplication({
    applicationId, name: applicationId, description: null, tags: [], customerIds: [], updateSigningKey: null, sparklePublicKey: null, retiredSigningKeys: [],
    licenceText: null, licenceRevision: null, displayName: null, accentColour: null, supportUrl: null, logo: null,
    defaultVersionStatus: 'published', isActive: true, createdAt: at, updatedAt: at, deletedAt: null,
  });
  for (const [i, version] of VERSIONS.entries()) await store.versions.upsertVersion(applicationId, version, {}, new Date(now - (DAYS - 3 * i) * DAY_MS));
}

/** The counters LARGE_EVENTS checks leave: every selection of every day, the checks shared out evenly. */
function largeCounters(applicationId: string, now: number): AdoptionCount[] {
  const perDay = LARGE_EVENTS / DAYS;
  const counts = new Map<string, AdoptionCount>();
  for (let day = 0; day < DAYS; day += 1) {
    const date = new Date(now - day * DAY_MS).toISOString().slice(0, 10);
    for (const channel of [...CHANNELS, ALL]) for (const platform of [...PLATFORMS, ALL]) for (const arch of [...ARCHS, ALL]) for (const version of [...VERSIONS, ALL]) {
      const share = (channel === ALL ? 1 : 0.5) * (platform === ALL ? 1 : 1 / 3) * (arch === ALL ? 1 : 0.5) * (version === ALL ? 1 : 1 / VERSIONS.length);
      const key = counterKey([applicationId, date, channel, platform, arch, version]);
      counts.set(key, { applicationId, date, channel, platform, arch, version, checks: Math.round(perDay * share), installs: Math.round(INSTALLS_PER_DAY * 50 * share) });
    }
  }
  return [...counts.values()];
}

async function answerTimes(service: AdoptionService, applicationId: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + SAMPLES; i += 1) {
    const started = performance.now();
    const answer = await service.adoption(applicationId, {});
    if (answer.days.length !== DAYS) throw new Error(`the answer has ${answer.days.length} days`);
    if (i >= WARM_UP) times.push(performance.now() - started);
  }
  return times;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const [dataDir, redisUrl, prefix] = process.argv.slice(2);
  const store = await createStore({ dataDir });
  const redis = new IORedis(redisUrl);
  const now = Date.now();

  // 1. Rollup throughput.
  const rollupChecksEvents = checks('bench-rollup', ROLLUP_EVENTS, now);
  let started = performance.now();
  await appendAll(store, rollupChecksEvents);
  const appendMs = performance.now() - started;
  started = performance.now();
  const folded = await foldAll(store, redis, prefix);
  const foldMs = performance.now() - started;

  // 3. The update funnel of the same checks, and the health of the release they were offered.
  started = performance.now();
  let funnelFolded = 0;
  for (let n = await foldFunnelChecks(store, CHECK_ROLLUP_BATCH); n > 0; n = await foldFunnelChecks(store, CHECK_ROLLUP_BATCH)) funnelFolded += n;
  const funnelMs = performance.now() - started;
  const offered = VERSIONS[VERSIONS.length - 1];
  const downloads: DistributionEvent[] = Array.from({ length: REPORTS }, (_, i) => ({
    eventId: `bench-download-${i}`, type: 'download', applicationId: 'bench-rollup', version: offered, fileId: 'bench-file', customerId: `cust_${i % 50}`,
    clientIp: null, userAgent: null, platform: 'any', arch: 'any', timestamp: new Date(now - (i % DAYS) * DAY_MS),
  }));
  for (let i = 0; i < downloads.length; i += 1_000) await store.activity.insertEvents(downloads.slice(i, i + 1_000));
  started = performance.now();
  for (let i = 0; i < REPORTS; i += 1) {
    await store.funnel.insertUpdateReport({
      reportId: `bench-report-${i}`, applicationId: 'bench-rollup', customerId: `cust_${i % 50}`, installId: null, fromVersion: VERSIONS[0], toVersion: offered,
      event: i % 2 === 0 ? 'install_failed' : 'started', message: i % 2 === 0 ? `EPERM ${i % 7}` : null, receivedAt: new Date(now),
    });
  }
  const reportsMs = performance.now() - started;
  const healthTimes: number[] = [];
  let health = await releaseHealth(store, 'bench-rollup', offered, new Date(now), 72 * 3_600_000);
  for (let i = 0; i < 5; i += 1) {
    const healthStarted = performance.now();
    health = await releaseHealth(store, 'bench-rollup', offered, new Date(now), 72 * 3_600_000);
    healthTimes.push(performance.now() - healthStarted);
  }

  // 2. The answer at 10k real events and at 10M events' worth of counters.
  await application(store, 'bench-10k', now);
  await application(store, 'bench-10m', now);
  await appendAll(store, checks('bench-10k', SMALL_EVENTS, now));
  await foldAll(store, redis, prefix);
  await store.adoption.insertCheckEvents(checks('bench-10m', 1, now));
  const batch = await store.adoption.claimCheckBatch(1);
  if (!batch) throw new Error('no batch to write the large counters with');
  const large = largeCounters('bench-10m', now);
  await store.adoption.finishCheckBatch(batch.batchId, large, []);
  const service = new AdoptionService(store, DEFAULT_CHANNELS);
  const small = await answerTimes(service, 'bench-10k');
  const largeTimes = await answerTimes(service, 'bench-10m');
  const smallRows = (await store.adoption.listAdoptionCounts('bench-10k', { channel: ALL, platform: ALL, arch: ALL, from: '0000-00-00', to: '9999-99-99' })).length;

  redis.disconnect();
  await store.close();
  process.stdout.write(`${JSON.stringify({
    appended: ROLLUP_EVENTS, appendMs, folded, foldMs, funnelFolded, funnelMs, offers: health.offered, downloaded: health.downloaded, healthP50Ms: median(healthTimes),
    reports: REPORTS, reportsMs, failureReports: health.failureReports,
    smallP50Ms: median(small), largeP50Ms: median(largeTimes), largeCounters: large.length, smallAllSelectionRows: smallRows,
  })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
