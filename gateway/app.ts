import Koa from 'koa';
import { methodNotAllowed } from '../shared/errors';
import type { GatewayDeps } from './gateway-deps';
import type { AppRouter, AppState } from './http/context';
import { Identify, identifier, requirePrincipal } from './middleware/authenticate';
import { errorHandler, responseErrorListener } from './middleware/error-handler';
import { requestContext } from './middleware/request-context';
import { apiRoutes } from './routes/api-routes';
import { downloadRoutes } from './routes/download-routes';
import { healthRoutes } from './routes/health-routes';

/** Guards handed to route modules. */
export interface RouteGuards {
  admin: Koa.Middleware<AppState>;
  customer: Koa.Middleware<AppState>;
  /** The caller behind a request's key, for code that checks it without a guard. */
  identify: Identify;
}

/** The Koa application: envelope and request id first, then the download lane and routes, health, signed object URLs, and /v1. */
export function createApp(deps: GatewayDeps): Koa<AppState> {
  const app = new Koa<AppState>();
  app.proxy = deps.config.trustProxy;
  // Errors are rendered and logged by errorHandler; what Koa reports after it (a response cut short)
  // is logged here, never by Koa's own printer to stderr.
  app.on('error', responseErrorListener(deps.logger));

  const identify = identifier(deps.adminKeyHashes, deps.keyCache);
  const guards: RouteGuards = {
    admin: requirePrincipal(identify, 'admin'),
    customer: requirePrincipal(identify, 'customer'),
    identify,
  };

  app.use(errorHandler(deps.logger, deps.redisOutage));
  app.use(requestContext(deps.logger));
  const downloads = downloadRoutes(deps, guards);
  app.use(downloads.lane);
  mount(app, downloads.router);
  mount(app, healthRoutes(deps));
  // Object URLs stream raw bodies; the JSON body parser belongs to the /v1 routes that take JSON.
  if (deps.storageRoutes) mount(app, deps.storageRoutes);
  mount(app, apiRoutes(deps, guards));
  return app;
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
