/**
 * `npm run bench`: measures the service as a separate process, each figure next to a baseline taken
 * in the same run, prints one table and writes bench/results.json. Starts its own redis-server and
 * services on temporary data directories; everything is stopped and removed on the way out.
 */
import { adoptionFigures } from './scenarios/adoption';
import { checkRecordingOverhead } from './scenarios/check-recording';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { startRedisServer } from '../shared/redis/redis-server-process';
import { BYTES_DIVISOR_NOTE } from './byte-sizes';
import { makeTempDir, managed, runWithCleanup } from './cleanup';
import type { Figure } from './figures';
import { PARTIAL_RESULTS_PATH, RESULTS_PATH, writeResults } from './results';
import { ensureBucket } from './s3-bucket';
import { smallUploadHashingThreads, verificationHashingThreads } from './scenarios/hashing-threads';
import { httpThroughput, latestDownloadUrl, metricsOverhead, rateLimitCost } from './scenarios/http-throughput';
import { largeMultipartUpload, parallelPartPuts } from './scenarios/multipart';
import { concurrentGets, objectGet, objectPut } from './scenarios/object-transfers';
import { readLatency } from './scenarios/read-latency';
import { rollupLag } from './scenarios/rollup-lag';
import { rollupSpeed } from './scenarios/rollup';
import { smallUpload } from './scenarios/small-upload';
import { updateFeeds } from './scenarios/update-feeds';
import { packageFeeds } from './scenarios/package-feeds';
import { packageRepositories } from './scenarios/package-repositories';
import { Seeded, seedThroughApi } from './seed';
import { Service, startService } from './service';
import { formatTable } from './table';

/** The metered service's token, for the phase that compares the download path with metrics on and off. */
const BENCH_METRICS_TOKEN = randomBytes(24).toString('hex');

const S3_VARIABLES = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'];

const started = performance.now();
const loadAverageAtStart = os.loadavg();
const notes: string[] = [];

/**
 * BENCH_ONLY=<regular expression>: runs only the phases whose names match it (a quick check of one
 * scenario); its results go to a temporary file, bench/results.json is left as it was.
 */
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined;

function step(what: string): void {
  process.stdout.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${what}\n`);
}

/** A part of the bench: a service with phases of its own (filtered one by one), or a single measurement. */
type Part = [name: string, run: () => Promise<Figure[]>, hasPhases: boolean];

async function main(): Promise<void> {
  const redisDir = makeTempDir('bds-bench-redis-');
  const redis = await startRedisServer({ dir: redisDir.path, persistent: false });
  managed(redis.stop);

  const parts: Part[] = [
    ['embedded default (SQLite, local objects)', () => withService('embedded', redis.url, {}, async (service, seeded) => [
      ...(await phase('small uploads', () => smallUpload(service, seeded, '', 0.9))),
      ...(await phase('small uploads: hashing threads vs the event loop', () => smallUploadHashingThreads(service, seeded, redis.url))),
      ...(await phase('download URL and share link load', () => httpThroughput(service, seeded, ''))),
      ...(await phase('latest-version download URL load', () => latestDownloadUrl(service, seeded, ''))),
      ...(await phase('update feed checks', () => updateFeeds(service, seeded, ''))),
      ...(await phase('package feed checks', () => packageFeeds(service, seeded, ''))),
      ...(await phase('package repository indexes', () => packageRepositories(service, seeded, ''))),
      ...(await phase('rate limits on vs off', () => rateLimitCost(service, seeded, redis.url, ''))),
      ...(await phase('rollup lag', () => rollupLag(service, seeded))),
      ...(await phase('object PUT and large upload verification', () => objectPut(service, seeded))),
      ...(await phase('large upload verification: hashing threads vs the event loop', () => verificationHashingThreads(service, seeded, redis.url))),
      ...(await phase('object GET and Range', () => objectGet(service, seeded))),
      ...(await phase('concurrent object GETs', () => concurrentGets(service, seeded))),
      ...(await phase('multipart parallel part PUTs', () => parallelPartPuts(service, seeded))),
      ...(await phase('multipart upload above 5 GiB', () => largeMultipartUpload(service, seeded))),
    ]), true],
    ['download path with metrics off and on', () => withService('metrics off', redis.url, {}, (off, offSeeded) =>
      withService('metrics on', redis.url, { METRICS_TOKEN: BENCH_METRICS_TOKEN }, (on, onSeeded) =>
        metricsOverhead({ service: off, seeded: offSeeded }, { service: on, seeded: onSeeded }, BENCH_METRICS_TOKEN))), false],
    ['update checks with recording on and off', () => withService('recording off', redis.url, { RECORD_UPDATE_CHECKS: 'false' }, (off, offSeeded) =>
      withService('recording on', redis.url, {}, (on, onSeeded) =>
        checkRecordingOverhead({ service: off, seeded: offSeeded }, { service: on, seeded: onSeeded }))), false],
    ['rollup speed (store only)', rollupSpeed, false],
    ['adoption rollup and answer (store only)', () => adoptionFigures(redis.url), false],
    ['statistics and activity read latency', () => readLatency(redis.url, notes), false],
  ];
  const s3 = s3Environment();
  if (s3) {
    parts.push([`object storage on S3 (${s3.S3_ENDPOINT ?? 'AWS'}, bucket ${s3.S3_BUCKET})`, async () => {
      await ensureBucket(s3);
      return withService('s3', redis.url, s3, async (service, seeded) => [
        ...(await phase('small uploads', () => smallUpload(service, seeded, 's3: '))),
        ...(await phase('download URL and share link load', () => httpThroughput(service, seeded, 's3: '))),
      ]);
    }, true]);
  } else {
    notes.push('S3 run skipped: S3_ENDPOINT and S3_BUCKET are not set');
  }
  if (BYTES_DIVISOR_NOTE) notes.push(BYTES_DIVISOR_NOTE);
  if (only) notes.push(`BENCH_ONLY=${only.source}: only the phases matching it ran`);

  // A failed part costs its own figures only; the table still shows the others, and the exit status tells.
  const figures: Figure[] = [];
  const failed: string[] = [];
  for (const [name, run, hasPhases] of parts) {
    if (only && !hasPhases && !only.test(name)) continue;
    try {
      step(name);
      figures.push(...(await run()));
    } catch (error) {
      process.stderr.write(`${name} failed: ${(error as Error).stack ?? error}\n`);
      failed.push(name);
      notes.push(`FAILED ${name}: ${(error as Error).message.slice(0, 400)}`);
    }
  }

  const load = (values: number[]) => values.map((v) => v.toFixed(2)).join(' ');
  notes.push(`load average ${load(loadAverageAtStart)} at the start, ${load(os.loadavg())} at the end, on ${os.cpus().length} CPUs`);
  notes.push(`latencies from autocannon have 1 ms resolution; the bench took ${((performance.now() - started) / 1000).toFixed(0)} s`);
  process.stdout.write(`\n${formatTable(figures)}\n\n${notes.map((n) => `note: ${n}\n`).join('')}`);
  process.stdout.write(`results: ${writeResults(figures, notes, loadAverageAtStart, only ? PARTIAL_RESULTS_PATH : RESULTS_PATH)}\n`);
  if (failed.length > 0) throw new Error(`failed: ${failed.join('; ')}`);
}

async function phase(what: string, run: () => Promise<Figure[]>): Promise<Figure[]> {
  if (only && !only.test(what)) return [];
  step(`  ${what}`);
  return run();
}

/** A fresh service with data seeded through its API, for the scenarios of one storage configuration. */
async function withService(
  label: string,
  redisUrl: string,
  env: Record<string, string>,
  scenarios: (service: Service, seeded: Seeded) => Promise<Figure[]>,
): Promise<Figure[]> {
  const dataDir = makeTempDir('bds-bench-data-');
  const service = await startService({ dataDir: dataDir.path, redisUrl, env });
  try {
    return await scenarios(service, await seedThroughApi(service.api));
  } finally {
    const warnings = service.warnings();
    if (warnings.length > 0) notes.push(`${label} service logged ${warnings.length} warning(s) or error(s); first: ${warnings[0].slice(0, 400)}`);
    await service.stop();
    await dataDir.remove();
  }
}

function s3Environment(): Record<string, string> | undefined {
  if (!process.env.S3_ENDPOINT && !process.env.S3_BUCKET) return undefined;
  return Object.fromEntries(S3_VARIABLES.flatMap((name) => (process.env[name] ? [[name, process.env[name] as string]] : [])));
}

runWithCleanup(main);
