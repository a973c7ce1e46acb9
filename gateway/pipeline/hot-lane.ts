import type { AppContext } from '../http/context';
import type { BuiltRoute } from './route-builder';
import { routeTemplate } from '../http/route';

/** Where every hot route lives: the hot front makes no context for a path outside it (or a token path). */
export const HOT_PATH_PREFIX = '/v1/';

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
  /** For a route with several params: its segments, each a literal or a param's name (`prefix` is the path before the first). */
  segments?: readonly Segment[];
  answer: BuiltRoute['answer'];
}

/** A path segment: a literal, or a param with the literal text around it in its segment (`releases.:channel.json`), usually none. */
type Segment = { literal: string } | { param: string; before: string; after: string };

/** A hot route a path names: its entry and the params read from the path. */
export interface LaneHit {
  template: string;
  params: Record<string, string> | undefined;
  answer: BuiltRoute['answer'];
}

/**
 * The routes declared hot (GET and HEAD of the download URL, of share links, of the update checks
 * and of the package indexes), matched by path comparisons instead of the router's matching. Only
 * paths spelled exactly as declared are taken; every variant the router also accepts (trailing
 * slash, other case, escaped characters) and every other method goes on to the router, so 404, 405
 * and Allow stay the router's.
 */
export class HotLane {
  private readonly entries: readonly LaneEntry[];

  constructor(routes: readonly BuiltRoute[]) {
    this.entries = routes.filter(({ route }) => route.hot).map(laneEntry);
  }

  /** The hot route a GET or HEAD of `path` is answered by, or undefined. */
  match(method: string, path: string): LaneHit | undefined {
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    let parts: string[] | undefined;
    for (const entry of this.entries) {
      if (entry.exact !== undefined) {
        if (path === entry.exact) return { template: entry.template, params: undefined, answer: entry.answer };
      } else if (entry.segments !== undefined) {
        if (!path.startsWith(entry.prefix as string)) continue;
        parts ??= path.split('/');
        const params = paramsOf(entry.segments, parts);
        if (params) return { template: entry.template, params, answer: entry.answer };
      } else if (path.startsWith(entry.prefix as string)) {
        const value = path.slice((entry.prefix as string).length);
        if (PLAIN_SEGMENT.test(value)) return { template: entry.template, params: { [entry.param as string]: value }, answer: entry.answer };
      }
    }
    return undefined;
  }
}

/** Names the route a request entered and its params, as the router would. */
export function enter(ctx: AppContext, hit: LaneHit): void {
  ctx.state.route = hit.template;
  if (hit.params) ctx.params = hit.params;
}

/** The params of a path split at '/' when it has the route's segments, each param plain; else undefined. */
function paramsOf(segments: readonly Segment[], parts: readonly string[]): Record<string, string> | undefined {
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i];
    const part = parts[i];
    if ('literal' in segment) {
      if (part !== segment.literal) return undefined;
      continue;
    }
    const { before, after } = segment;
    if (part.length <= before.length + after.length || !part.startsWith(before) || !part.endsWith(after)) return undefined;
    const value = before === '' && after === '' ? part : part.slice(before.length, part.length - after.length);
    if (!PLAIN_SEGMENT.test(value)) return undefined;
    params[segment.param] = value;
  }
  return params;
}

function laneEntry({ route, answer }: BuiltRoute): LaneEntry {
  if (!route.path.startsWith(HOT_PATH_PREFIX)) throw new Error(`${route.path}: a hot route's path starts with ${HOT_PATH_PREFIX}`);
  const template = routeTemplate(route.path);
  const params = [...route.path.matchAll(/:(\w+)/g)];
  if (params.length === 0) return { template, exact: route.path, answer };
  const [only] = params;
  if (params.length === 1 && only.index + only[0].length === route.path.length) {
    return { template, prefix: route.path.slice(0, only.index), param: only[1], answer };
  }
  // Split at the slashes outside a param's pattern.
  const segments = route.path.split(/\/(?![^(]*\))/).map((part): Segment => {
    // A param with literal text around it in its segment takes what lies between, dots included
    // (`releases.:channel([^/]+).json`, the router's pattern for it; without one the router would stop at a dot).
    const param = /^([^:()]*):(\w+)(?:\(\[\^\/\]\+\))?([^:()]*)$/.exec(part);
    if (param) return { param: param[2], before: param[1], after: param[3] };
    if (part.includes(':')) throw new Error(`${route.path}: the hot lane answers params without a pattern or with ([^/]+), one per segment`);
    return { literal: part };
  });
  return { template, prefix: route.path.slice(0, only.index), segments, answer };
}
