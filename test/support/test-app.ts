import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { launchGateway, LaunchedGateway } from '../../gateway/gateway-process';
import type { RouteModule } from '../../gateway/gateway-deps';
import type { GatewayServices } from '../../gateway/gateway-services';
import { ROUTE_MODULES } from '../../gateway/route-table';
import type { Clock } from '../../shared/clock';
import { Config, loadConfig } from '../../shared/config';
import { createLogger, Logger } from '../../shared/logger';
import type { Client } from '../../shared/contract/client';
import { findFreePort } from '../../shared/net';
import { CoreServices, openCoreServices } from '../../shared/runtime/core-services';
import { resolveAdminKeys } from '../../shared/runtime/local-secrets';
import { launchWorkers, LaunchedWorkers } from '../../workers/worker-process';
import { testRedisUrl } from './hooks';
import { HttpClient } from './http-client';

/** One parsed pino line. */
export interface LogRecord {
  level: number;
  msg: string;
  requestId?: string;
  err?: { type?: string; message?: string; stack?: string };
  [field: string]: unknown;
}

export interface TestApp {
  baseUrl: string;
  /** The first of ADMIN_API_KEYS. */
  adminKey: string;
  config: Readonly<Config>;
  core: CoreServices;
  /** Raw requests (paths, headers, statuses), for tests of the HTTP surface itself. */
  http: HttpClient;
  /** The typed client of the operations table with the admin key; every answer checked against the API description. */
  api: Client;
  /** The typed client with another key (a customer's, a scoped admin key). */
  apiAs(key: string): Client;
  gateway: LaunchedGateway;
  workers: LaunchedWorkers | undefined;
  /** With `captureLogs`: every line the app logged, parsed, in order; otherwise empty. */
  logs: LogRecord[];
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment (S3_*, TIERS, TRUST_PROXY, ADMIN_API_KEYS, REDIS_URL, LOG_LEVEL...). */
  env?: Record<string, string>;
  /** Start the BullMQ workers in the same process (default true). */
  workers?: boolean;
  /** Log into `logs` (at LOG_LEVEL info unless `env` says otherwise) so tests can read what the service logged. */
  captureLogs?: boolean;
  /** SQLite even when MONGODB_URI is set, for tests that reach into the SQLite file. */
  sqliteOnly?: boolean;
  /** The clock of the app's processes (access tokens' validity and periods): one a test moves. */
  clock?: Clock;
  /** Routes served beside the gateway's own (a feed a test declares). */
  routeModules?: readonly RouteModule<GatewayServices>[];
}

/**
 * The real app on a free port: real Redis (own key prefix), a fresh DATA_DIR, SQLite — or MongoDB
 * when MONGODB_URI is set, with a database of its own.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-'));
  const port = await findFreePort();
  const mongodbUri = options.sqliteOnly ? undefined : process.env.MONGODB_URI;
  const config = loadConfig({
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_API_KEYS: `adm_${randomBytes(24).toString('base64url')}`,
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: `t${randomBytes(6).toString('hex')}`,
    LOG_LEVEL: options.captureLogs ? 'info' : (process.env.TEST_LOG_LEVEL ?? 'silent'),
    ...(mongodbUri ? { MONGODB_URI: freshDatabase(mongodbUri), WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'), REPOSITORY_KEY_SECRET: randomBytes(32).toString('hex') } : {}),
    ...options.env,
  });
  const logs: LogRecord[] = [];
  const logger = options.captureLogs ? memoryLogger(config.logLevel, logs) : createLogger(config.logLevel, 'test');
  const core = await openCoreServices(config, logger, options.clock);
  // Admin keys resolved as the entry points resolve them, so ADMIN_API_KEYS may list several.
  const adminKey = config.adminApiKeys[0];
  const { hashes } = resolveAdminKeys(config.adminApiKeys, config.dataDir);
  const workers = options.workers === false ? undefined : await launchWorkers(config, logger, core, config.redisUrl as string);
  const modules = options.routeModules ? [...ROUTE_MODULES, ...options.routeModules] : undefined;
  const gateway = await launchGateway(config, logger, core, config.redisUrl as string, hashes, port, modules);
  const baseUrl = `http://127.0.0.1:${gateway.gateway.port}`;
  const http = new HttpClient(baseUrl, adminKey);
  return {
    baseUrl,
    adminKey,
    config,
    core,
    gateway,
    workers,
    logs,
    http,
    api: http.api(),
    apiAs: (key) => http.api(key),
    close: async () => {
      await gateway.close();
      await workers?.close();
      await core.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Another gateway of the same deployment as `app` (same store, Redis and key prefix), on a free port. */
export interface SecondGateway {
  gateway: LaunchedGateway;
  /** A client of this gateway with `app`'s admin key. */
  http: HttpClient;
  close(): Promise<void>;
}

/**
 * Starts a second gateway beside `app`'s, as a second web process of one deployment would run: the
 * admin keys resolved as the entry points resolve them, its own listener, logging nothing.
 */
export async function startSecondGateway(app: TestApp): Promise<SecondGateway> {
  const { hashes } = resolveAdminKeys(app.config.adminApiKeys, app.config.dataDir);
  const gateway = await launchGateway(app.config, createLogger('silent', 'test'), app.core, app.config.redisUrl as string, hashes, 0);
  return {
    gateway,
    http: new HttpClient(`http://127.0.0.1:${gateway.gateway.port}`, app.adminKey),
    close: () => gateway.close(),
  };
}

/** A logger writing parsed lines into `logs`; no redaction, so a secret that reaches a log call shows. */
function memoryLogger(level: string, logs: LogRecord[]): Logger {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) logs.push(JSON.parse(line) as LogRecord);
      callback();
    },
  });
  return pino({ level }, sink);
}

/** `uri` naming a database of its own, so runs never share data. */
export function freshDatabase(uri: string): string {
  const url = new URL(uri);
  url.pathname = `/bds_test_${randomBytes(6).toString('hex')}`;
  return url.toString();
}
