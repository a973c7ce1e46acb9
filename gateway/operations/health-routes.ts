import { Reply } from '../http/reply';
import { route} from '../http/route';
import type { RouteModule } from '../gateway-deps';
import { healthResponse, presentHealth, presentReadiness, readinessResponse } from '../../shared/contract/health';

const CHECK_TIMEOUT_MS = 2_000;

/** /healthz: the process answers. /readyz: store, Redis and object storage all answer. */
export const healthRoutes: RouteModule = (deps) => [
  route({
    method: 'get', path: '/healthz', operationId: 'getHealth', guard: 'none', summary: 'The process answers',
    status: 200, response: healthResponse,
    handle: presentHealth,
  }),
  route({
    method: 'get', path: '/readyz', operationId: 'getReadiness', guard: 'none', summary: 'Store, Redis and object storage all answer (503 naming those that do not)',
    // 503 in the failure envelope, naming in its details what did not answer.
    status: [200, 503], response: readinessResponse,
    handle: async () => {
      const checks = {
        store: () => deps.store.ping(),
        redis: async () => {
          await deps.redis.ping();
        },
        objectStorage: () => deps.storage.ping(),
      };
      const results = await Promise.all(
        Object.entries(checks).map(async ([name, check]) => ({ name, error: await probe(check) })),
      );
      const down = results.filter((r) => r.error !== null);
      if (down.length === 0) return presentReadiness(results.map((r) => r.name));
      const details = down.map((d) => ({ field: d.name, message: d.error as string }));
      // What the gateway does meanwhile, where it serves on without Redis.
      if (deps.rateLimits && down.some((d) => d.name === 'redis')) details.push({ field: 'rateLimits', message: deps.rateLimits.withoutRedis });
      return Reply.failure(503, {
        code: 'SERVICE_UNAVAILABLE',
        message: `not ready: ${down.map((d) => d.name).join(', ')} unavailable`,
        details,
      });
    },
  }),
];

/** null when the check passes in time; otherwise a short reason (no internals). */
async function probe(check: () => Promise<void>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('no answer in time'), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().then(() => null), timeout]);
  } catch {
    return 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}
