import http, { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorCode } from '../errors';
import { newRequestId } from '../ids';
import type { Logger } from '../logger';
import { metricsTokenCheck } from './metrics-token';
import type { ProcessMetrics } from './process-metrics';

export const METRICS_PATH = '/metrics';

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/**
 * The worker process's own small HTTP listener: GET (or HEAD) /metrics with the metrics token, as the
 * gateway serves it on its port. Anything else is answered in the error envelope: no or a wrong
 * token 401, another path 404, another method 405.
 */
export async function startMetricsListener(metrics: ProcessMetrics, token: string, port: number, host: string, logger: Logger): Promise<MetricsListener> {
  const presentsToken = metricsTokenCheck(token);
  const server = http.createServer((request, response) => {
    answer(request, response, metrics, presentsToken).catch((error: unknown) => {
      logger.error({ err: error }, 'metrics could not be read');
      if (!response.headersSent) refuse(response, 500, 'INTERNAL_ERROR', 'the metrics could not be read');
      else response.destroy();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

async function answer(request: IncomingMessage, response: ServerResponse, metrics: ProcessMetrics, presentsToken: (authorization: string | undefined) => boolean): Promise<void> {
  const path = (request.url ?? '').split('?')[0];
  if (path !== METRICS_PATH) return refuse(response, 404, 'NOT_FOUND', `no route for ${request.method} ${path}`);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    return refuse(response, 405, 'METHOD_NOT_ALLOWED', 'this method is not allowed on this path');
  }
  if (!presentsToken(request.headers.authorization)) return refuse(response, 401, 'UNAUTHORIZED', 'the metrics token is required: Authorization: Bearer <METRICS_TOKEN>');
  const { contentType, body } = await metrics.exposition();
  response.writeHead(200, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', 'X-Request-Id': newRequestId() });
  response.end(request.method === 'HEAD' ? undefined : body);
}

function refuse(response: ServerResponse, status: number, code: ErrorCode, message: string): void {
  const body = JSON.stringify({ success: false, error: { code, message } });
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'X-Request-Id': newRequestId() });
  response.end(body);
}
