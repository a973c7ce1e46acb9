import type { Next } from 'koa';
import { TOKEN_PATH_PREFIX } from './caller-base-url';
import type { AppContext } from './context';

/** `/t/{token}` in front of a download, update, package-repository or TUF repository route (those a later feed adds under the same prefixes included). */
const TOKEN_PATH = /^\/t\/([A-Za-z0-9_-]+)(\/v1\/(?:downloads|updates|repos|tuf)\/.*)$/;

/**
 * The path form of an access token, for clients that send no header: the token is taken out of the
 * path before anything else reads it (the hot lane, the router, the rate limits, the access log), kept
 * in ctx.state.pathToken for the guard and for the absolute links a feed answers (callerBaseUrl), and
 * the request goes on as the route without the prefix. Any other path pays one comparison.
 */
export function tokenPath() {
  return (ctx: AppContext, next: Next): Promise<void> => {
    const { path } = ctx;
    if (!path.startsWith(TOKEN_PATH_PREFIX)) return next();
    const match = TOKEN_PATH.exec(path);
    if (match) {
      ctx.state.pathToken = match[1];
      ctx.path = match[2];
    }
    return next();
  };
}
