import Router from '@koa/router';
import { jsonBody } from '../middleware/json-body';
import type { RouteGuards } from '../app';
import type { GatewayDeps } from '../gateway-deps';
import type { AppRouter, AppState } from '../http/context';
import { applicationRoutes } from './management/application-routes';
import { uploadRoutes } from './management/upload-routes';
import { statisticsRoutes } from './statistics-routes';
import { customerRoutes } from './management/customer-routes';

/** A route module registers its routes on the /v1 router, each with its own guard (admin or customer). */
export type RouteModule = (router: AppRouter, deps: GatewayDeps, guards: RouteGuards) => void;

/** Customer downloads have a router of their own (download-routes.ts), mounted ahead of this one. */
const MODULES: RouteModule[] = [applicationRoutes, uploadRoutes, customerRoutes, statisticsRoutes];

export function apiRoutes(deps: GatewayDeps, guards: RouteGuards): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/v1' });
  // Router-level, so it runs only once a route has matched: an unknown path is a 404 and a wrong
  // method a 405 whatever the body, and only a body for a real route is parsed.
  router.use(jsonBody);
  for (const register of MODULES) register(router, deps, guards);
  return router;
}
