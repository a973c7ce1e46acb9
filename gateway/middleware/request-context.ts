import type { Next } from 'koa';
import { newRequestId } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import type { AppContext } from '../http/context';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when it is sane) and logs one line when it
 * ends. Only method, path and status are logged: never headers or query strings, which may hold
 * keys or URL signatures.
 */
export function requestContext(logger: Logger) {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    const given = ctx.get('X-Request-Id');
    ctx.state.requestId = REQUEST_ID.test(given) ? given : newRequestId();
    ctx.set('X-Request-Id', ctx.state.requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.debug({ requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms }, 'request');
    }
  };
}
