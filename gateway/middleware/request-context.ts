import type { Next } from 'koa';
import { newRequestId } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import type { AppContext } from '../http/context';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when it is sane) and, at debug level, logs
 * one line when it ends. Only method, path and status are logged: never headers or query strings,
 * which may hold keys or URL signatures. Below debug level the request is not timed at all.
 */
export function requestContext(logger: Logger) {
  const logged = async (ctx: AppContext, next: Next): Promise<void> => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = performance.now() - started;
      logger.debug({ requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms }, 'request');
    }
  };

  return (ctx: AppContext, next: Next): Promise<void> => {
    const given = ctx.get('X-Request-Id');
    ctx.state.requestId = given && REQUEST_ID.test(given) ? given : newRequestId();
    ctx.set('X-Request-Id', ctx.state.requestId);
    return logger.isLevelEnabled('debug') ? logged(ctx, next) : next();
  };
}
