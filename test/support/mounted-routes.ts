import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Router from '@koa/router';
import { createApp } from '../../gateway/app';
import type { GatewayDeps } from '../../gateway/gateway-deps';
import { loadConfig } from '../../shared/config';
import { createLogger } from '../../shared/logger';
import { createObjectStorage } from '../../shared/storage/create-object-storage';

/** One method on one path, as a router declares it (`/v1/management/applications/:applicationId`). */
export interface MountedRoute {
  method: string;
  path: string;
}

export const routeKey = (route: MountedRoute): string => `${route.method} ${route.path}`;

/**
 * Every route of the app the gateway serves, read from the routers createApp mounts (a router's
 * middleware carries its router). Built on the embedded object storage, whose signed-URL routes the
 * app mounts too. The other dependencies are inert: every method does nothing, which is all route
 * registration asks of them (caches subscribe to the invalidation bus). HEAD routes the router adds
 * to every GET are left out: they answer with their GET.
 */
export function mountedRoutes(): MountedRoute[] {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-routes-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const { storage, routes: storageRoutes } = createObjectStorage(config);
    const deps: GatewayDeps = {
      config,
      logger: createLogger('silent', 'routes'),
      storage,
      storageRoutes,
      adminKeyHashes: [],
      store: inert(),
      redis: inert(),
      jobs: inert(),
      keyCache: inert(),
      catalog: inert(),
      bus: inert(),
      events: inert(),
      redisOutage: inert(),
    };
    const routers = createApp(deps).middleware
      .map((middleware) => (middleware as { router?: Router }).router)
      .filter((router): router is Router => router !== undefined);
    const routes: MountedRoute[] = [];
    for (const router of routers) {
      for (const layer of router.stack) {
        const explicit = layer.methods.filter((method, _, all) => method !== 'HEAD' || !all.includes('GET'));
        for (const method of explicit) routes.push({ method, path: String(layer.path) });
      }
    }
    return routes;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** An object whose every method does nothing. */
function inert<T>(): T {
  return new Proxy({}, { get: () => () => undefined }) as T;
}
