import type { Guard } from '../../gateway/http/context';
import { referenceRouteTable } from '../../gateway/reference-routes';

/** One method on one path, as the route table declares it (Koa-router syntax: `:name` for a path parameter). */
export interface MountedRoute {
  method: string;
  path: string;
  guard: Guard;
}

export const routeKey = (route: { method: string; path: string }): string => `${route.method} ${route.path}`;

/**
 * Every route the gateway serves, from the route table its router is built from, with the embedded
 * object store's signed-URL routes and the metrics (gateway/reference-routes.ts). A GET route
 * also answers HEAD; the table lists it once.
 */
export function mountedRoutes(): MountedRoute[] {
  return referenceRouteTable().map((route) => ({ method: route.method.toUpperCase(), path: route.path, guard: route.guard }));
}
