import Router from '@koa/router';
import type { GatewayDeps } from '../gateway-deps';
import type { AppState } from '../http/context';
import { respond } from '../http/respond';

const CHECK_TIMEOUT_MS = 2_000;

/** /healthz: the process answers. /readyz: store, Redis and object storage all answer. */
export function healthRoutes(deps: Pick<GatewayDeps, 'store' | 'storage' | 'redis'>): Router<AppState> {
  const router = new Router<AppState>();

  router.get('/healthz', (ctx) => respond(ctx, { status: 'ok' }));

  router.get('/readyz', async (ctx) => {
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
    if (down.length === 0) {
      respond(ctx, { status: 'ready', checks: Object.fromEntries(results.map((r) => [r.name, 'up'])) });
      return;
    }
    ctx.status = 503;
    ctx.body = {
      success: false,
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: `not ready: ${down.map((d) => d.name).join(', ')} unavailable`,
        details: down.map((d) => ({ field: d.name, message: d.error })),
      },
    };
  });

  return router;
}

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
