import type { Next } from 'koa';
import { TOKEN_PATH_PREFIX } from './caller-base-url';
import type { AppContext } from './context';

/** `/t/{token}` in front of a download, update, package-repository or TUF repository route (those a later feed adds under the same prefixes included). */
const TOKEN_PATH = /^\/t\/([A-Za-z0-9_-]+)(\/v1\/(?:downloads|updates|repos|tuf)\/.*)$/;

/** A path's access token and the route's path behind it; undefined for a path without one. */
export function splitTokenPath(path: string): { token: string; path: string } | undefined {
  if (!path.startsWith(TOKEN_PATH_PREFIX)) return undefined;
  const match = TOKEN_PATH.exec(path);
  return match ? { token: match[1], path: match[2] } : undefined;
}

/** Takes a path's access token into ctx.state.pathToken and leaves the route's path in its place. */
export function takeTokenPath(ctx: AppContext, split: { token: string; path: string }): void {
  ctx.state.pathToken = split.token;
  ctx.path = split.path;
}

/**
 * The path form of an access token, for clients that send no header: the token is taken out of the
 * path before anything else reads it (the hot lane, the router, the rate limits, the access log), kept
 * in ctx.state.pathToken for the guard and for the absolute links a feed answers (callerBaseUrl), and
 * the request goes on as the route without the prefix. Any other path pays one comparison.
 */
export function tokenPath() {
  return (ctx: AppContext, next: Next): Promise<void> => {
    const split = splitTokenPath(ctx.path);
    if (split) takeTokenPath(ctx, split);
    return next();
  };
}
