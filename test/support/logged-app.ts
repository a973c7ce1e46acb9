import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { launchGateway } from '../../gateway/gateway-process';
import { loadConfig } from '../../shared/config';
import { findFreePort } from '../../shared/net';
import { openCoreServices } from '../../shared/runtime/core-services';
import { resolveAdminKeys } from '../../shared/runtime/local-secrets';
import { testRedisUrl } from './hooks';
import { HttpClient } from './http-client';
import type { TestApp } from './test-app';

/** One parsed pino line. */
export interface LogRecord {
  level: number;
  msg: string;
  requestId?: string;
  err?: { type?: string; message?: string; stack?: string };
  [field: string]: unknown;
}

export interface LoggedApp extends TestApp {
  /** Every line the gateway logged, parsed, in order. */
  logs: LogRecord[];
}

/**
 * The gateway (no workers) like startTestApp, but logging into memory so tests can read what the
 * service logged. `env` overrides the defaults, REDIS_URL and ADMIN_API_KEYS included; `adminKey`
 * is the first of ADMIN_API_KEYS.
 */
export async function startLoggedApp(options: { env?: Record<string, string> } = {}): Promise<LoggedApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-'));
  const port = await findFreePort();
  const config = loadConfig({
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_API_KEYS: `adm_${randomBytes(24).toString('base64url')}`,
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: `t${randomBytes(6).toString('hex')}`,
    LOG_LEVEL: 'info',
    ...options.env,
  });
  const logs: LogRecord[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) logs.push(JSON.parse(line) as LogRecord);
      callback();
    },
  });
  const logger = pino({ level: config.logLevel }, sink);
  const core = await openCoreServices(config);
  // Admin keys resolved as the entry points resolve them, so ADMIN_API_KEYS may list several.
  const adminKey = config.adminApiKeys[0];
  const { hashes } = resolveAdminKeys(config.adminApiKeys, config.dataDir);
  const gateway = await launchGateway(config, logger, core, config.redisUrl as string, hashes, port);
  const baseUrl = `http://127.0.0.1:${gateway.gateway.port}`;
  return {
    baseUrl,
    adminKey,
    config,
    core,
    gateway,
    workers: undefined,
    logs,
    http: new HttpClient(baseUrl, adminKey),
    close: async () => {
      await gateway.close();
      await core.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
