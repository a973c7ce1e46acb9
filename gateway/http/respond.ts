import type { Context } from 'koa';

/** Sends `data` in the success envelope. */
export function respond(ctx: Context, data: unknown, status = 200): void {
  ctx.status = status;
  ctx.body = { success: true, data };
}
