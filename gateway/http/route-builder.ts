import { parse as parseQueryString, ParsedUrlQuery } from 'node:querystring';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z, ZodTypeAny } from 'zod';
import { ErrorDetail, validationError } from '../../shared/errors';
import { jsonBody, streamedBody } from '../middleware/json-body';
import type { AppContext, AppState, AppRouter, Principal } from './context';
import { andThen, Eventually } from './eventually';
import { admission, Identify } from './guards';
import { JSON_CONTENT_TYPE, Reply } from './reply';
import type { NoInput, Route, RouteInput, StreamedBody } from './route';
import { parseInto } from './validate';

/** A route with the one function that answers it, shared by the router and the download lane. */
export interface BuiltRoute {
  route: Route;
  /** Guard, validation, handler and response; returns a promise only when one of them has to wait. */
  answer(ctx: AppContext): Eventually<void>;
}

export interface BuiltRoutes {
  router: AppRouter;
  routes: readonly BuiltRoute[];
}

/** Inputs remembered per hot route; past this the memory starts over. */
const MAX_REMEMBERED_INPUTS = 1_000;

const NOTHING: NoInput = Object.freeze({});
/** The query of a route that declares none: any parameter is refused, as in every strict query schema. */
const NO_QUERY = z.object({}).strict();

/** Turns the route table into one router; every route is answered by the same steps. */
export function buildRoutes(routes: readonly Route[], identify: Identify): BuiltRoutes {
  const router = new Router<AppState>();
  const built = routes.map((route): BuiltRoute => {
    checkDeclaration(route);
    const answer = answerer(route, identify);
    const readParams = pathParamsReader(route);
    const handler: Middleware<AppState> = (ctx) => {
      ctx.params = readParams(ctx.captures);
      return answer(ctx as AppContext);
    };
    // Bodies are read once a route has matched: an unknown path is a 404 and a wrong method a 405
    // whatever the body. JSON is parsed here; streamed bodies are left to their handler.
    const body = (isStreamed(route.body) ? streamedBody : jsonBody) as Middleware<AppState>;
    router[route.method](route.path, body, handler);
    return { route, answer };
  });
  return { router, routes: built };
}

function answerer(route: Route, identify: Identify): (ctx: AppContext) => Eventually<void> {
  const admit = admission(route.guard, identify);
  const read = inputReader(route);
  const send = sender(route);
  const handle = (caller: Principal | undefined, ctx: AppContext) => andThen(route.handle(read(ctx) as never, ctx, caller as never), send, ctx);
  return (ctx) => andThen(admit(ctx), handle, ctx);
}

type AnyInput = RouteInput<unknown, unknown, unknown>;

/** Params, query and body validated against the route's schemas, every problem reported at once. */
function inputReader(route: Route): (ctx: AppContext) => AnyInput {
  const body = isStreamed(route.body) ? undefined : route.body;
  const parse = (ctx: AppContext): AnyInput => {
    const problems: ErrorDetail[] = [];
    const params = route.params ? parseInto(route.params, ctx.params, problems) : NOTHING;
    const query = route.query ? parseInto(route.query, queryOf(ctx), problems) : noQuery(ctx, problems);
    const parsedBody = body ? parseInto(body, ctx.request.body, problems) : undefined;
    if (problems.length > 0) throw validationError(problems);
    return { params, query, body: parsedBody };
  };
  if (!route.hot) return parse;

  // A hot route's input is a function of its URL (it has no body): installers and update checks send
  // the same few URLs over and over, and a repeat then parses nothing. Shared, so frozen.
  const remembered = new Map<string, AnyInput>();
  return (ctx) => {
    const url = ctx.url;
    const known = remembered.get(url);
    if (known) return known;
    const input = Object.freeze(parse(ctx));
    if (remembered.size >= MAX_REMEMBERED_INPUTS) remembered.clear();
    remembered.set(url, input);
    return input;
  };
}

function noQuery(ctx: AppContext, problems: ErrorDetail[]): NoInput {
  if (ctx.querystring !== '') parseInto(NO_QUERY, queryOf(ctx), problems);
  return NOTHING;
}

/**
 * The request's query parameters, parsed from the query string. Not Koa's ctx.query: Koa caches
 * parsed queries in a plain object keyed by the query string, so a query of exactly `__proto__` reads
 * as Object.prototype (no parameters at all) and one of `constructor` as a function.
 */
function queryOf(ctx: AppContext): ParsedUrlQuery {
  return parseQueryString(ctx.querystring);
}

function sender(route: Route): (result: unknown, ctx: AppContext) => void {
  if (route.response === 'bytes') return () => undefined;
  const status = typeof route.status === 'number' ? route.status : route.status[0];
  return (result, ctx) => {
    if (!(result instanceof Reply)) {
      ctx.status = status;
      ctx.body = { success: true, data: result };
      return;
    }
    ctx.status = result.status ?? status;
    if (result.error) {
      ctx.body = { success: false, error: result.error };
      return;
    }
    if (result.json === undefined) {
      ctx.body = { success: true, data: result.data };
      return;
    }
    ctx.set('Content-Type', JSON_CONTENT_TYPE);
    ctx.body = result.json;
  };
}

/**
 * The route's path parameters as the router captured them, percent-decoded. Not @koa/router's own
 * ctx.params: it decodes '+' as a space, a rule of query strings; in a path '+' stands for itself
 * (RFC 3986), so a version such as `1.0.0+build` is named as written. An escape that does not decode
 * is left as written, and the param's schema refuses it.
 */
function pathParamsReader(route: Route): (captures: readonly string[]) => Record<string, string> {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
  return (captures) => {
    const params: Record<string, string> = {};
    names.forEach((name, index) => {
      const raw = captures[index];
      if (raw !== undefined) params[name] = decodedOrRaw(raw);
    });
    return params;
  };
}

function decodedOrRaw(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Mistakes in a declaration stop the gateway at start-up rather than surfacing in a request. */
function checkDeclaration(route: Route): void {
  const where = `${route.method.toUpperCase()} ${route.path}`;
  const inPath = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]).sort();
  const declared = Object.keys(route.params?.shape ?? {}).sort();
  if (inPath.join() !== declared.join()) {
    throw new Error(`${where}: params must describe exactly the path's parameters (${inPath.join(', ') || 'none'})`);
  }
  if (route.query && !isStrictObject(route.query)) {
    throw new Error(`${where}: the query schema must be a strict object, so that unknown parameters are refused`);
  }
  if (route.hot && (route.method !== 'get' || route.body !== undefined)) {
    throw new Error(`${where}: only GET routes without a body can be hot`);
  }
}

function isStrictObject(schema: ZodTypeAny): boolean {
  let inner = schema;
  while (inner instanceof z.ZodEffects) inner = inner.innerType();
  return inner instanceof z.ZodObject && inner._def.unknownKeys === 'strict';
}

function isStreamed(body: ZodTypeAny | StreamedBody | undefined): body is StreamedBody {
  return body !== undefined && !(body instanceof z.ZodType);
}
