import type { Context } from 'koa';

/**
 * The body length a request declares, read from the raw `Content-Length` header. Koa's
 * `ctx.request.length` converts it through a 32-bit integer, so a declared 2^31 bytes or more reads
 * as a small or negative number and a size check compared against it would let the request through.
 * Undefined when no valid length is declared (chunked bodies, a malformed header: Node's parser
 * already refuses the latter). Exact up to 2^53, far past any size we accept.
 */
export function declaredLength(ctx: Context): number | undefined {
  const raw = ctx.req.headers['content-length'];
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}
