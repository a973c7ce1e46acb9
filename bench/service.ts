import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { findFreePort } from '../shared/net';
import { ApiClient } from './api-client';
import { NodeChild } from './children';

/** The compiled standalone entry (gateway and workers in one process). */
const STANDALONE = path.resolve(__dirname, '..', 'bin', 'standalone.js');
const START_TIMEOUT_MS = 60_000;

/**
 * Rate limits no load of the bench reaches, for every policy it sends requests under: each request is
 * counted as in a deployment and none is refused, so figures include the counting and never a 429.
 * `rateLimitCost` (scenarios/http-throughput.ts) measures the counting against RATE_LIMITS=off.
 */
export const UNREACHED_RATE_LIMITS = ['admin', 'standard', 'share-link', 'share-client'].map((policy) => `${policy}=1000000000/60`).join(',');

export interface ServiceOptions {
  dataDir: string;
  redisUrl: string;
  /** Extra environment, e.g. the S3_* settings of the second run. */
  env?: Record<string, string>;
}

export interface Service {
  api: ApiClient;
  pid: number;
  /** Lines the service logged at warn level or above. */
  warnings(): string[];
  stop(): Promise<void>;
}

/**
 * Starts `node dist/bin/standalone.js` as a separate process with exactly this environment (nothing
 * of the bench's own environment leaks in), on a free port of 127.0.0.1, and waits until it listens.
 */
export async function startService(options: ServiceOptions): Promise<Service> {
  const port = await findFreePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const adminKey = `adm_${randomBytes(24).toString('base64url')}`;
  const child = new NodeChild(STANDALONE, [], {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    PORT: String(port),
    PUBLIC_BASE_URL: baseUrl,
    DATA_DIR: options.dataDir,
    ADMIN_API_KEYS: adminKey,
    REDIS_URL: options.redisUrl,
    // Services of one bench share its Redis; their queues must not mix.
    REDIS_PREFIX: `bench${randomBytes(4).toString('hex')}`,
    LOG_LEVEL: 'warn',
    RATE_LIMITS: UNREACHED_RATE_LIMITS,
    ...options.env,
  }, serviceNodeArgs());
  try {
    await child.waitFor(/Listening on/, START_TIMEOUT_MS);
  } catch (error) {
    await child.stop();
    throw error;
  }
  return {
    api: new ApiClient(baseUrl, adminKey),
    pid: child.pid,
    warnings: () => child.output.split('\n').filter(isWarningLine),
    stop: child.stop,
  };
}

/**
 * BENCH_CPU_PROF=<directory>: each service writes a V8 CPU profile there when it stops (open it in
 * Chrome's DevTools). BENCH_SERVICE_NODE_ARGS: more of node's options for the service, e.g.
 * `--perf-basic-prof-only-functions`, so that `perf record -e cpu-clock -g -p <pid>` names its
 * JavaScript (a profile of CPU time on every thread, the kernel's included, where V8's samples wall time).
 */
function serviceNodeArgs(): string[] {
  const args = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const more = process.env.BENCH_SERVICE_NODE_ARGS?.trim();
  return more ? [...args, ...more.split(/\s+/)] : args;
}

/** Log lines at warn level or above, and warnings Node itself prints for the process. */
function isWarningLine(line: string): boolean {
  if (/^\(node:\d+\) /.test(line)) return true;
  try {
    const level = (JSON.parse(line) as { level?: unknown }).level;
    return typeof level === 'number' && level >= 40;
  } catch {
    return false;
  }
}
