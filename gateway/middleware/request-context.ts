import type { Next } from 'koa';
import { newRequestId } from '../../shared/ids';
import type { AppContext } from '../http/context';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Gives every request an id: the caller's X-Request-Id when it is sane, else a new one. Logged by the access log. */
export function requestContext() {
  return (ctx: AppContext, next: Next): Promise<void> => {
    // Node's header table and setter directly: Koa's get and set add a step on every request.
    const given = ctx.req.headers['x-request-id'];
    const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : newRequestId();
    ctx.state.requestId = requestId;
    ctx.res.setHeader('X-Request-Id', requestId);
    return next();
  };
}
