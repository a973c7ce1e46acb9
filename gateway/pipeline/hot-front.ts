import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Stream } from 'node:stream';
import type Koa from 'koa';
import type { AppContext, AppState } from '../http/context';
import { isPending } from '../http/eventually';
import { TOKEN_PATH_PREFIX } from '../http/caller-base-url';
import { splitTokenPath, takeTokenPath } from '../http/token-path';
import { enter, HOT_PATH_PREFIX, HotLane, LaneHit } from './hot-lane';

/** A step every request passes (request id, access log, error envelope): Koa middleware. */
export type FrameStep = (ctx: AppContext, next: () => Promise<void>) => Promise<void>;

const DONE = Promise.resolve();

/**
 * In front of Koa's request handling, for the hot routes only: a GET or HEAD whose path the hot lane
 * names gets a Koa context and passes the same frame steps the Koa stack runs ahead of the lane
 * (request metrics, request id, access log, error envelope, share-link pages), then the route's
 * answer, then the response written as Koa writes it. What it leaves out is Koa's per-request
 * machinery around the middleware (the compose chain of the whole stack, the finished-listeners
 * on the response and its socket, the promise chain), which a bench run measured at about a third of
 * bare Koa's own CPU time per request (bench/README.md). Every other request goes to Koa untouched.
 */
export function hotFront(app: Koa<AppState>, lane: HotLane, frame: readonly FrameStep[], koa: RequestListener): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    // Every hot route is under HOT_PATH_PREFIX, or behind a token path: other requests make no context here.
    const url = req.url ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !(url.startsWith(HOT_PATH_PREFIX) || url.startsWith(TOKEN_PATH_PREFIX))) {
      koa(req, res);
      return;
    }
    // Koa's own context, so the path is read as the router reads it and every ctx API holds.
    const ctx = app.createContext<AppState>(req, res) as AppContext;
    const split = splitTokenPath(ctx.path);
    const hit = lane.match(req.method, split ? split.path : ctx.path);
    if (!hit) {
      koa(req, res);
      return;
    }
    if (split) takeTokenPath(ctx, split);
    enter(ctx, hit);
    res.statusCode = 404;
    step(ctx, frame, 0, hit).then(() => respond(ctx), (error: unknown) => ctx.onerror(error as Error));
  };
}

/** The frame's step `i`, whose next is the step after it, and the route's answer last; a throw becomes a rejection. */
function step(ctx: AppContext, frame: readonly FrameStep[], i: number, hit: LaneHit): Promise<void> {
  try {
    if (i < frame.length) return frame[i](ctx, () => step(ctx, frame, i + 1, hit));
    const answered = hit.answer(ctx);
    return isPending(answered) ? answered : DONE;
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Statuses that carry no body (statuses.empty, as Koa reads it). */
const EMPTY_STATUSES = new Set([204, 205, 304]);

/** Writes the response as Koa's `respond` (koa/lib/application.js, Koa 2) writes it. */
function respond(ctx: AppContext): void {
  if (ctx.respond === false || !ctx.writable) return;
  const { res } = ctx;
  const code = ctx.status;
  let body: unknown = ctx.body;
  if (EMPTY_STATUSES.has(code)) {
    ctx.body = null;
    res.end();
    return;
  }
  if (ctx.method === 'HEAD') {
    if (!res.headersSent && !res.hasHeader('Content-Length')) {
      const { length } = ctx.response;
      if (Number.isInteger(length)) ctx.length = length;
    }
    res.end();
    return;
  }
  if (body === null || body === undefined) {
    if ((ctx.response as unknown as { _explicitNullBody?: boolean })._explicitNullBody) {
      ctx.response.remove('Content-Type');
      ctx.response.remove('Transfer-Encoding');
      res.end();
      return;
    }
    const text = ctx.req.httpVersionMajor >= 2 ? String(code) : ctx.message || String(code);
    if (!res.headersSent) {
      ctx.type = 'text';
      ctx.length = Buffer.byteLength(text);
    }
    res.end(text);
    return;
  }
  if (Buffer.isBuffer(body) || typeof body === 'string') {
    res.end(body);
    return;
  }
  if (body instanceof Stream) {
    body.pipe(res);
    return;
  }
  body = JSON.stringify(body);
  if (!res.headersSent) ctx.length = Buffer.byteLength(body as string);
  res.end(body);
}
