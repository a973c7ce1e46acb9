import type { Next } from 'koa';
import { koaBody } from 'koa-body';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../../shared/errors';
import { JSON_BODY_MAX_BYTES } from '../../shared/policy';
import { requireIdentityCoding } from '../http/content-coding';
import type { AppContext } from '../http/context';
import { declaredLength } from '../http/declared-length';

declare module 'koa' {
  interface Request {
    /** The parsed JSON body of a route that takes JSON (jsonBody). */
    body?: unknown;
  }
}

/** Methods whose bodies the API reads; others pass straight through (downloads are GETs). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** The types read as JSON: application/json and every application/*+json (merge-patch, vnd.api, ...). */
const JSON_TYPES = ['application/json', 'application/*+json'];

const TOO_LARGE = `JSON bodies are at most ${JSON_BODY_MAX_BYTES} bytes`;

/**
 * koa-body, for JSON only: objects and arrays (jsonStrict), up to the policy's limit, every JSON type;
 * its failures become the error envelope's 400, 413 and 415.
 */
const parseJson = koaBody({
  json: true,
  jsonStrict: true,
  jsonLimit: JSON_BODY_MAX_BYTES,
  jsonTypes: JSON_TYPES,
  urlencoded: false,
  text: false,
  multipart: false,
  onError: (error) => {
    throw bodyRefusal(error);
  },
  // Typed against koa-body's own copy of Koa's types: the middleware is the same function.
}) as unknown as (ctx: AppContext, next: Next) => Promise<void>;

/**
 * Parses the body of a route that takes JSON (or none): application/json and every +json type are
 * parsed, as objects or arrays only; a body in any other format, multipart included (only the routes
 * that stream their body take it, through streamedBody), or with a Content-Encoding, is refused
 * with 415 rather than ignored or half-decoded (koa-body would inflate a gzip body: it never gets one).
 */
export async function jsonBody(ctx: AppContext, next: Next): Promise<void> {
  if (!BODY_METHODS.has(ctx.method)) return next();
  const declared = declaredLength(ctx);
  if (declared || ctx.get('Transfer-Encoding')) {
    requireIdentityCoding(ctx);
    if (!ctx.is(JSON_TYPES)) {
      throw unsupportedMediaType('request bodies must be application/json');
    }
  }
  // Checked here on the raw header: the parser's own check reads the length through a 32-bit
  // conversion, so from 2^31 bytes on it would wait for a body that never comes. The connection
  // stays open: a client already sending the body reads the answer instead of a reset.
  if (declared !== undefined && declared > JSON_BODY_MAX_BYTES) throw payloadTooLarge(TOO_LARGE);
  await parseJson(ctx, () => {
    // No body (or an empty one) reads as {}: routes without a body schema take none, and schemas refuse what is missing.
    ctx.request.body ??= {};
    return next();
  });
}

/**
 * koa-body's failures in the envelope: malformed JSON (or a scalar) 400, a body past the limit 413, a
 * charset it cannot decode 415. Anything else (a body cut short, the client gone) keeps its own
 * status and code, so that a client going away is still told apart from a failure.
 */
function bodyRefusal(error: Error): Error {
  const { status, type } = error as { status?: number; type?: string };
  if (status === 413) return payloadTooLarge(TOO_LARGE);
  if (status === 415) return unsupportedMediaType('unsupported request body encoding');
  if (status === 400 && (error instanceof SyntaxError || type === 'entity.parse.failed')) return badRequest('the request body is not valid JSON');
  return error;
}

/**
 * For routes that stream their body themselves (multipart forms, raw bytes): nothing is parsed, but
 * a Content-Encoding is refused as for JSON bodies, before the route reads a byte.
 */
export function streamedBody(ctx: AppContext, next: Next): Promise<void> {
  if (BODY_METHODS.has(ctx.method)) requireIdentityCoding(ctx);
  return next();
}
