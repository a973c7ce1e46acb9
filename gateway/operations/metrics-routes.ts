import { METRICS_PATH } from '../../shared/metrics/metrics-listener';
import { documentResponse, route} from '../http/route';
import type { RouteModule } from '../gateway-deps';

/**
 * GET /metrics: this process's metrics in the Prometheus text format, for the metrics token only;
 * mounted only when METRICS_TOKEN is set. The worker process serves the same on its own listener.
 */
export const metricsRoutes: RouteModule = (deps) => (deps.config.metricsToken !== undefined ? [
  route({
    method: 'get', path: METRICS_PATH, operationId: 'getMetrics', guard: 'metrics', summary: "This process's metrics, in the Prometheus text format",
    status: 200, response: documentResponse('text/plain', 'Prometheus text exposition format, version 0.0.4'),
    handle: async (_input, ctx) => {
      const { contentType, body } = await deps.metrics.exposition();
      ctx.status = 200;
      ctx.type = contentType;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    },
  }),
] : []);
