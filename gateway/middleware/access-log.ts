import type { Next } from 'koa';
import type { Logger } from '../../shared/logger';
import type { AppContext } from '../http/context';
import { loggablePath } from '../http/loggable-path';

/**
 * Mounted ahead of the error envelope, so it sees the status answered: one `info` line per request
 * with its id, method, path (secrets redacted: loggable-path.ts), status and duration in ms (a
 * signed-URL download: to its last byte). Never headers or the query string, which may hold keys or
 * URL signatures. One clock read before and after and one log call: nothing else on the hot path.
 */
export function accessLog(logger: Logger) {
  if (!logger.isLevelEnabled('info')) return (_ctx: AppContext, next: Next): Promise<void> => next();
  return (ctx: AppContext, next: Next): Promise<void> => {
    const started = performance.now();
    const log = () => {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      logger.info({ requestId: ctx.state.requestId, method: ctx.method, path: loggablePath(ctx.path), status: ctx.status, ms }, 'request');
    };
    return next().then(log, (error: unknown) => {
      log();
      throw error;
    });
  };
}
