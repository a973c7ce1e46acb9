import coBody from 'co-body';
import type { Next } from 'koa';
import { payloadTooLarge, unsupportedMediaType } from '../../shared/errors';
import { requireIdentityCoding } from '../http/content-coding';
import type { AppContext } from '../http/context';
import { declaredLength } from '../http/declared-length';

declare module 'koa' {
  interface Request {
    /** The parsed JSON body of a route that takes JSON (jsonBody). */
    body?: unknown;
  }
}

/** Largest JSON body any endpoint takes (1 MiB); uploads do not pass through here. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** Methods whose bodies the API reads; others pass straight through (downloads are GETs). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Parses the body of a route that takes JSON (or none): application/json and every +json type are
 * parsed, as objects or arrays only; a body in any other format, multipart included (only the routes
 * that stream their body take it, through streamedBody), or with a Content-Encoding, is refused
 * with 415 rather than ignored or half-decoded.
 */
export async function jsonBody(ctx: AppContext, next: Next): Promise<void> {
  if (!BODY_METHODS.has(ctx.method)) return next();
  const declared = declaredLength(ctx);
  if (declared || ctx.get('Transfer-Encoding')) {
    requireIdentityCoding(ctx);
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
  // An empty body reads as {}: routes without a body schema take none, and schemas refuse what is missing.
  ctx.request.body = await coBody.json(ctx, { limit: JSON_BODY_LIMIT_BYTES, strict: true });
  await next();
}

/**
 * For routes that stream their body themselves (multipart forms, raw bytes): nothing is parsed, but
 * a Content-Encoding is refused as for JSON bodies, before the route reads a byte.
 */
export function streamedBody(ctx: AppContext, next: Next): Promise<void> {
  if (BODY_METHODS.has(ctx.method)) requireIdentityCoding(ctx);
  return next();
}
