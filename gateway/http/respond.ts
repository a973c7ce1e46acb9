import type { Context } from 'koa';

/** What Koa itself sets for an object body. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Sends `data` in the success envelope. */
export function respond(ctx: Context, data: unknown, status = 200): void {
  ctx.status = status;
  ctx.body = { success: true, data };
}

/**
 * respond() for answers that many requests share, such as the download answer every request for one
 * file gets within one second: the envelope of each answer object is serialized once (the object is
 * held weakly) and sent as the same bytes respond() would send.
 */
export function sharedAnswerResponder<T extends object>(present: (answer: T) => unknown) {
  const serialized = new WeakMap<T, string>();
  return (ctx: Context, answer: T, status = 200): void => {
    let body = serialized.get(answer);
    if (body === undefined) {
      body = JSON.stringify({ success: true, data: present(answer) });
      serialized.set(answer, body);
    }
    ctx.status = status;
    ctx.set('Content-Type', JSON_CONTENT_TYPE);
    ctx.body = body;
  };
}
