import type { Next } from 'koa';
import { koaBody } from 'koa-body';
import { payloadTooLarge, unsupportedMediaType } from '../../shared/errors';
import { requireIdentityCoding } from '../http/content-coding';
import type { AppContext } from '../http/context';
import { declaredLength } from '../http/declared-length';

/** Largest JSON body any endpoint takes (1 MiB); uploads do not pass through here. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** Methods whose bodies the API reads; others pass straight through (downloads are GETs). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

const parse = koaBody({
  json: true,
  jsonStrict: true,
  jsonLimit: JSON_BODY_LIMIT_BYTES,
  urlencoded: false,
  text: false,
  multipart: false,
});

/**
 * Parses JSON bodies; a body in any other format, or with a Content-Encoding, is refused with 415
 * rather than silently ignored or half-decoded. Multipart requests pass untouched to the routes that
 * stream them.
 */
export async function jsonBody(ctx: AppContext, next: Next): Promise<void> {
  if (!BODY_METHODS.has(ctx.method)) return next();
  const declared = declaredLength(ctx);
  if (declared || ctx.get('Transfer-Encoding')) {
    requireIdentityCoding(ctx);
    if (ctx.is('multipart/form-data')) return next();
    if (!ctx.is('application/json', '+json')) {
      throw unsupportedMediaType('request bodies must be application/json');
    }
  }
  // Checked here on the raw header: the parser's own check reads the length through a 32-bit
  // conversion, so from 2^31 bytes on it would wait for a body that never comes. The connection
  // stays open: a client already sending the body reads the answer instead of a reset.
  if (declared !== undefined && declared > JSON_BODY_LIMIT_BYTES) {
    throw payloadTooLarge(`JSON bodies are at most ${JSON_BODY_LIMIT_BYTES} bytes`);
  }
  await parse(ctx, next);
}

/**
 * For routes that stream their body themselves (multipart forms, raw bytes): nothing is parsed, but
 * a Content-Encoding is refused as for JSON bodies, before the route reads a byte.
 */
export function streamedBody(ctx: AppContext, next: Next): Promise<void> {
  if (BODY_METHODS.has(ctx.method)) requireIdentityCoding(ctx);
  return next();
}
