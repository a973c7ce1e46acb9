import Router from '@koa/router';
import type { RouteGuards } from '../app';
import type { GatewayDeps } from '../gateway-deps';
import type { AppState } from '../http/context';

/** Every /v1 endpoint behind a bearer key. */
export function apiRoutes(_deps: GatewayDeps, _guards: RouteGuards): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/v1' });
  return router;
}
