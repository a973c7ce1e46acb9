import type { Next } from 'koa';
import { ProcessMetrics, UNMATCHED_ROUTE } from '../../shared/metrics/process-metrics';
import type { AppContext } from '../http/context';

/**
 * Mounted first, and only when metrics are served: counts and times every request by the template of
 * the route that matched (the router and the hot lane name it in ctx.state.route) and the status
 * it ended with, after the error envelope has set it. One clock read before and after, and a few
 * increments of plain numbers (shared/metrics/request-series.ts).
 */
export function requestMetrics(metrics: ProcessMetrics) {
  return (ctx: AppContext, next: Next): Promise<void> => {
    const started = performance.now();
    const record = () => metrics.recordRequest(ctx.state.route ?? UNMATCHED_ROUTE, ctx.method, ctx.status, (performance.now() - started) / 1000);
    return next().then(record, (error: unknown) => {
      record();
      throw error;
    });
  };
}
