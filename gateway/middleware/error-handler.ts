import type { Context, Next } from 'koa';
import { Readable } from 'node:stream';
import { AppError, ErrorCode, isDependencyUnavailable, ServiceUnavailableError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { RedisOutageLog } from '../../shared/redis/redis-outage-log';
import type { ErrorBody } from '../http/reply';
import { loggablePath } from '../http/loggable-path';

const CODES_BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  410: 'GONE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
};

/**
 * Mounted first: renders every failure in the envelope. AppErrors carry their status and code;
 * client errors raised by Koa or the body parser keep their status; an unreachable dependency is a 503;
 * anything else is a 500. Details go to the log under the request id, never to the client: a 500 at
 * error level; a 503 is expected while a dependency is down, so one for want of Redis is only counted
 * by the Redis outage log, and any other is a warn line.
 */
export function errorHandler(logger: Logger, redisOutage: RedisOutageLog) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError(404, 'NOT_FOUND', `no route for ${loggablePath(ctx.path)}`);
      }
    } catch (error) {
      const rendered = render(error);
      if (clientWentAway(ctx, error)) {
        logger.info({ requestId: ctx.state.requestId, method: ctx.method, path: loggablePath(ctx.path) }, 'client closed the connection mid-request');
      } else if (error instanceof ServiceUnavailableError && error.dependency === 'redis') {
        redisOutage.affected(error);
      } else if (rendered.status === 503) {
        logger.warn({ err: error, requestId: ctx.state.requestId, method: ctx.method, path: loggablePath(ctx.path) }, 'a dependency is unavailable');
      } else if (rendered.status >= 500) {
        logger.error({ err: error, requestId: ctx.state.requestId, method: ctx.method, path: loggablePath(ctx.path) }, 'request failed');
      }
      ctx.status = rendered.status;
      ctx.body = { success: false, error: rendered.error };
    }
  };
}

/**
 * Koa's 'error' event: failures after errorHandler has let go, which no envelope can carry any more.
 * A response body stream that fails mid-way is logged under the request id and its connection
 * closed, so the client sees the failure instead of waiting for bytes that will never come. Anything
 * else is the connection itself failing (mostly a client gone away), which the request's own handling
 * reports where it matters: logged at debug only.
 */
export function responseErrorListener(logger: Logger) {
  return (error: Error, ctx?: Context): void => {
    const request = { requestId: ctx?.state.requestId, method: ctx?.method, path: ctx && loggablePath(ctx.path) };
    const body = ctx?.body;
    if (!(body instanceof Readable) || body.errored !== error) {
      logger.debug({ ...request, reason: error.message }, 'connection failed mid-request');
      return;
    }
    if (ctx?.headerSent && !ctx.res.writableEnded) ctx.res.destroy();
    logger.error({ err: error, ...request }, 'response body failed mid-way');
  };
}

/** The request body stopped because the client disconnected: not a failure of the service. */
function clientWentAway(ctx: Context, error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ECONNRESET' && ctx.req.readableAborted;
}

/** The status errorHandler answers `error` with. */
export function answeredStatus(error: unknown): number {
  return render(error).status;
}

/** The `error` of the failure envelope for an AppError. */
export function appErrorBody(error: AppError): ErrorBody {
  const body: ErrorBody = { code: error.code, message: error.message };
  if (error.details) body.details = error.details;
  if (error.resetsAt) body.resetsAt = error.resetsAt.toISOString();
  return body;
}

function render(error: unknown): { status: number; error: ErrorBody } {
  if (error instanceof AppError) return { status: error.status, error: appErrorBody(error) };
  const status = (error as { status?: number; statusCode?: number }).status ?? (error as { statusCode?: number }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && CODES_BY_STATUS[status]) {
    return { status, error: { code: CODES_BY_STATUS[status], message: clientMessage(status, error) } };
  }
  if (status === 503 || isDependencyUnavailable(error)) {
    return { status: 503, error: { code: 'SERVICE_UNAVAILABLE', message: 'a dependency is unavailable, try again shortly' } };
  }
  return { status: 500, error: { code: 'INTERNAL_ERROR', message: 'an unexpected error occurred' } };
}

function clientMessage(status: number, error: unknown): string {
  if (status === 400 && /json/i.test(String((error as Error).message))) return 'the request body is not valid JSON';
  if (status === 413) return 'the request body is too large';
  if (status === 415) return 'unsupported request body encoding';
  const exposed = (error as { expose?: boolean }).expose;
  return exposed ? String((error as Error).message) : 'the request could not be processed';
}
