import type { Next } from 'koa';
import { newRequestId } from '../../shared/ids';
import type { AppContext } from '../http/context';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Gives every request an id: the caller's X-Request-Id when it is sane, else a new one. Logged by the access log. */
export function requestContext() {
  return (ctx: AppContext, next: Next): Promise<void> => {
    const given = ctx.get('X-Request-Id');
    ctx.state.requestId = given && REQUEST_ID.test(given) ? given : newRequestId();
    ctx.set('X-Request-Id', ctx.state.requestId);
    return next();
  };
}
