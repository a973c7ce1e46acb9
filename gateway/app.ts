import type { RequestListener } from 'node:http';
import Koa from 'koa';
import { methodNotAllowed } from '../shared/errors';
import { metricsTokenCheck } from '../shared/metrics/metrics-token';
import type { GatewayDeps } from './gateway-deps';
import type { AppRouter, AppState } from './http/context';
import { identifier } from './auth/guards';
import type { Route } from './http/route';
import { buildRoutes } from './pipeline/route-builder';
import type { AuditService } from './admin-keys/audit-service';
import { errorHandler, responseErrorListener } from './middleware/error-handler';
import { requestContext } from './middleware/request-context';
import { accessLog } from './middleware/access-log';
import { requestMetrics } from './middleware/request-metrics';
import { HotLane } from './pipeline/hot-lane';
import { FrameStep, hotFront } from './pipeline/hot-front';
import { tokenPath } from './http/token-path';
import { tokenAdmission } from './auth/token-admission';
import { shareLinkPages } from './downloads/share-link-pages';
import { webApps } from './web/web-apps';
import { IdempotencyRecords } from './idempotency/idempotency-records';
import { IdempotentRequests } from './idempotency/idempotent-requests';

/** The Koa application, and the request listener the server calls: the hot front, then the application. */
export interface GatewayApp {
  app: Koa<AppState>;
  listener: RequestListener;
}

/**
 * The Koa application: request metrics (when served) first, then envelope and request id, then the
 * hot lane, then the web apps, then the router of every route; both answer each route through its guard, rate
 * limit and idempotency key. In front of it, the hot front answers the hot routes through the same
 * frame steps and lane without Koa's per-request chain (pipeline/hot-front.ts).
 */
export function createApp(deps: GatewayDeps, routes: readonly Route[], audit: AuditService): GatewayApp {
  const app = new Koa<AppState>();
  app.proxy = deps.config.trustProxy;
  // Errors are rendered and logged by errorHandler; what Koa reports after it (a response cut short)
  // is logged here, never by Koa's own printer to stderr.
  app.on('error', responseErrorListener(deps.logger));

  const idempotency = new IdempotentRequests(new IdempotencyRecords(deps.redis, deps.config.redisPrefix), deps.logger);
  const { metricsToken } = deps.config;
  const built = buildRoutes(routes, {
    identify: identifier(deps.adminKeyHashes, deps.keyCache, deps.adminKeys, deps.cacheLookups.keys, tokenAdmission(deps.accessTokens, deps.keyCache, deps.clock)),
    presentsMetricsToken: metricsToken === undefined ? undefined : metricsTokenCheck(metricsToken),
    applicationOfUpload: async (uploadId) => (await deps.store.uploads.getUploadSession(uploadId))?.applicationId ?? null,
    audit,
    rateLimits: deps.rateLimits,
    idempotency,
  });
  // Every request's frame, in order; an access log off at this level is no step at all.
  const frame: FrameStep[] = [
    ...(deps.metrics.served ? [requestMetrics(deps.metrics)] : []),
    requestContext(),
    ...(deps.logger.isLevelEnabled('info') ? [accessLog(deps.logger)] : []),
    errorHandler(deps.logger, deps.redisOutage),
  ];
  const pages = shareLinkPages(deps.config.vendor);
  const lane = new HotLane(built.routes);
  for (const step of frame) app.use(step as Koa.Middleware<AppState>);
  app.use(tokenPath());
  app.use(pages as Koa.Middleware<AppState>);
  // The hot routes never reach this stack (the hot front answers them); the router holds them too.
  app.use(webApps(deps.config));
  mount(app, built.router);
  return { app, listener: hotFront(app, lane, [...frame, pages], app.callback()) };
}

const refuseMethod = () => methodNotAllowed('this method is not allowed on this path');

/**
 * The router's allowedMethods sets 405 (or 501 for a method no route uses) with the Allow header;
 * in its throwing mode it would drop the header, so its answer is turned into the envelope here.
 * A path no route matches stays 404 whatever the method.
 */
function mount(app: Koa<AppState>, router: AppRouter): void {
  const allowedMethods = router.allowedMethods() as Koa.Middleware<AppState>;
  app.use(router.routes());
  app.use(async (ctx, next) => {
    await allowedMethods(ctx, next);
    if (ctx.body !== undefined || (ctx.status !== 405 && ctx.status !== 501)) return;
    if (!ctx.response.get('Allow')) {
      ctx.remove('Allow');
      ctx.status = 404;
      return;
    }
    throw refuseMethod();
  });
}
