import type { Middleware, Next } from 'koa';
import type { AppContext, AppState } from '../http/context';
import type { BuiltRoute } from '../http/route-builder';

/** A path segment the router would read exactly as written: no escapes to decode, no '/'. */
const PLAIN_SEGMENT = /^[^/%]+$/;

interface LaneEntry {
  /** The route's template. */
  template: string;
  /** The whole path, for a route without params. */
  exact?: string;
  /** For a route whose only param ends its path: the path before it, and the param's name. */
  prefix?: string;
  param?: string;
  answer: BuiltRoute['answer'];
}

/**
 * Mounted ahead of the router: answers the routes declared hot (GET and HEAD of the download URL and
 * of share links) with one path comparison and the same answer the router holds for them, instead of
 * the router's matching and middleware chain. Only paths spelled exactly as declared are taken; every
 * variant the router also accepts (trailing slash, other case, escaped characters) and every other
 * method goes on to the router, so 404, 405 and Allow stay the router's.
 */
export function downloadLane(routes: readonly BuiltRoute[]): Middleware<AppState> {
  const entries = routes.filter(({ route }) => route.hot).map(laneEntry);
  const lane = (ctx: AppContext, next: Next) => {
    const { method, path } = ctx;
    if (method !== 'GET' && method !== 'HEAD') return next();
    for (const entry of entries) {
      if (entry.exact !== undefined) {
        if (path === entry.exact) {
          ctx.state.route = entry.template;
          return entry.answer(ctx);
        }
      } else if (path.startsWith(entry.prefix as string)) {
        const value = path.slice((entry.prefix as string).length);
        if (PLAIN_SEGMENT.test(value)) {
          ctx.state.route = entry.template;
          ctx.params = { [entry.param as string]: value };
          return entry.answer(ctx);
        }
      }
    }
    return next();
  };
  return lane as Middleware<AppState>;
}

function laneEntry({ route, answer }: BuiltRoute): LaneEntry {
  const params = [...route.path.matchAll(/:(\w+)/g)];
  if (params.length === 0) return { template: route.path, exact: route.path, answer };
  const [only] = params;
  if (params.length > 1 || only.index + only[0].length !== route.path.length) {
    throw new Error(`${route.path}: the download lane answers paths with at most one parameter, at their end`);
  }
  return { template: route.path, prefix: route.path.slice(0, only.index), param: only[1], answer };
}
