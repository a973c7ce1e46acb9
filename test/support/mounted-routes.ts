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
  /** Who may call it, where the routes declare it. */
  guard?: 'admin' | 'customer' | 'none';
}

export const routeKey = (route: MountedRoute): string => `${route.method} ${route.path}`;

/**
 * Every route of the app the gateway serves, read from the routers createApp mounts (a router's
 * middleware carries its router). Built on the embedded object storage, whose signed-URL routes the
 * app mounts too. The other dependencies are inert: every method does nothing, which is all route
 * registration asks of them (caches subscribe to the invalidation bus). A HEAD route on a path with
 * a GET route is left out: it answers as its GET does (the router adds one to every GET).
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
    const routes = routers.flatMap((router) => router.stack.flatMap((layer) => layer.methods.map((method) => ({ method, path: String(layer.path) }))));
    const hasGet = new Set(routes.filter((route) => route.method === 'GET').map((route) => route.path));
    return routes.filter((route) => route.method !== 'HEAD' || !hasGet.has(route.path));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** An object whose every method does nothing. */
function inert<T>(): T {
  return new Proxy({}, { get: () => () => undefined }) as T;
}
