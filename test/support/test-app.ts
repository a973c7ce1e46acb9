import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { launchGateway, LaunchedGateway } from '../../gateway/gateway-process';
import { Config, loadConfig } from '../../shared/config';
import { createLogger } from '../../shared/logger';
import { findFreePort } from '../../shared/net';
import { hashSecret } from '../../shared/secrets';
import { CoreServices, openCoreServices } from '../../shared/runtime/core-services';
import { launchWorkers, LaunchedWorkers } from '../../workers/worker-process';
import { testRedisUrl } from './hooks';
import { HttpClient } from './http-client';

export interface TestApp {
  baseUrl: string;
  adminKey: string;
  config: Readonly<Config>;
  core: CoreServices;
  http: HttpClient;
  gateway: LaunchedGateway;
  workers: LaunchedWorkers | undefined;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment (S3_*, TIERS, TRUST_PROXY...). */
  env?: Record<string, string>;
  /** Start the BullMQ workers in the same process (default true). */
  workers?: boolean;
}

/**
 * The real app on a free port: real Redis (own key prefix), a fresh DATA_DIR, SQLite — or MongoDB
 * when MONGODB_URI is set, with a database of its own.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-'));
  const port = await findFreePort();
  const adminKey = `adm_${randomBytes(24).toString('base64url')}`;
  const env: Record<string, string> = {
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_API_KEYS: adminKey,
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: `t${randomBytes(6).toString('hex')}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...(process.env.MONGODB_URI ? { MONGODB_URI: freshDatabase(process.env.MONGODB_URI) } : {}),
    ...options.env,
  };
  const config = loadConfig(env);
  const logger = createLogger(config.logLevel, 'test');
  const core = await openCoreServices(config);
  const workers = options.workers === false ? undefined : await launchWorkers(config, logger, core, config.redisUrl as string);
  const gateway = await launchGateway(config, logger, core, config.redisUrl as string, [hashSecret(adminKey)], port);
  const baseUrl = `http://127.0.0.1:${gateway.gateway.port}`;
  return {
    baseUrl,
    adminKey,
    config,
    core,
    gateway,
    workers,
    http: new HttpClient(baseUrl, adminKey),
    close: async () => {
      await gateway.close();
      await workers?.close();
      await core.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function freshDatabase(uri: string): string {
  const url = new URL(uri);
  url.pathname = `/bds_test_${randomBytes(6).toString('hex')}`;
  return url.toString();
}
