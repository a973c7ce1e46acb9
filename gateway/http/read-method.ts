import type { Context } from 'koa';

/** A read's method as a signed URL grants it: a HEAD looks (and is sent where it can only look), anything else reads. */
export const readMethodOf = (ctx: Pick<Context, 'method'>): 'GET' | 'HEAD' => (ctx.method === 'HEAD' ? 'HEAD' : 'GET');
