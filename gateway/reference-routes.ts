import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { version } from '../package.json';
import { systemClock } from '../shared/clock';
import { loadConfig, MIN_METRICS_TOKEN_LENGTH } from '../shared/config';
import { hashInProcess } from '../shared/hashing';
import { createLogger } from '../shared/logger';
import { ProcessMetrics } from '../shared/metrics/process-metrics';
import { createObjectStorage } from '../shared/storage/create-object-storage';
import type { GatewayDeps } from './gateway-deps';
import { DownloadCacheLookups } from './releases/cache-lookups';
import type { Route } from './http/route';
import { routeTable } from './route-table';
import { ApiDescription, describeApi } from './pipeline/api-description';

/** The server the reference description names: the embedded default's address. */
export const REFERENCE_SERVER_URL = 'http://localhost:3000';

/**
 * Every route the gateway can serve, declared with the reference configuration: the embedded
 * default (its object store's signed-URL routes) with a metrics token (GET /metrics). Declaring
 * routes asks nothing of the dependencies but configuration and storage: the others are inert, every
 * method doing nothing (caches subscribe to the invalidation bus). Nothing is kept: the data
 * directory is a temporary one, removed before returning.
 */
export function referenceRouteTable(): readonly Route[] {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-routes-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', METRICS_TOKEN: 'm'.repeat(MIN_METRICS_TOKEN_LENGTH) });
    const { storage, signedAccess } = createObjectStorage(config);
    const deps: GatewayDeps = {
      config,
      logger: createLogger('silent', 'routes'),
      storage,
      hashing: hashInProcess,
      signedAccess,
      adminKeyHashes: [],
      store: inert(),
      redis: inert(),
      jobs: inert(),
      keyCache: inert(),
      accessTokens: inert(),
      clock: systemClock,
      adminKeys: inert(),
      catalogCache: inert(),
      releaseCatalog: inert(),
      bus: inert(),
      distributionEvents: inert(),
      webhooks: inert(),
      signingSecrets: inert(),
      redisOutage: inert(),
      metrics: new ProcessMetrics(false),
      cacheLookups: new DownloadCacheLookups(),
    };
    return routeTable(deps);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The API description of the reference route table, as GET /v1/openapi.json answers it on the embedded default. */
export function referenceApiDescription(): ApiDescription {
  return describeApi(referenceRouteTable(), { serverUrl: REFERENCE_SERVER_URL, version });
}

/** An object whose every method does nothing. */
function inert<T>(): T {
  return new Proxy({}, { get: () => () => undefined }) as T;
}
