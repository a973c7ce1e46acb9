import { systemClock } from '../../shared/clock';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GatewayDeps } from '../../gateway/gateway-deps';
import { DownloadCacheLookups } from '../../gateway/releases/cache-lookups';
import type { Guard } from '../../gateway/http/context';
import { routeTable } from '../../gateway/route-table';
import { loadConfig, MIN_METRICS_TOKEN_LENGTH } from '../../shared/config';
import { hashInProcess } from '../../shared/hashing';
import { createLogger } from '../../shared/logger';
import { ProcessMetrics } from '../../shared/metrics/process-metrics';
import { createObjectStorage } from '../../shared/storage/create-object-storage';

/** One method on one path, as the route table declares it (`/v1/management/applications/:applicationId`). */
export interface MountedRoute {
  method: string;
  path: string;
  guard: Guard;
}

export const routeKey = (route: { method: string; path: string }): string => `${route.method} ${route.path}`;

/**
 * Every route the gateway serves, from the route table its router is built from, with the embedded
 * object store's signed-URL routes and the metrics. The dependencies other than configuration and storage are
 * inert: every method does nothing, which is all declaring routes asks of them (caches subscribe to
 * the invalidation bus). A GET route also answers HEAD; the table lists it once.
 */
export function mountedRoutes(): MountedRoute[] {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-routes-'));
  try {
    // With a metrics token, so that GET /metrics is among them.
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
    return routeTable(deps).map((route) => ({ method: route.method.toUpperCase(), path: route.path, guard: route.guard }));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** An object whose every method does nothing. */
function inert<T>(): T {
  return new Proxy({}, { get: () => () => undefined }) as T;
}
