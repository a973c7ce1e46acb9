/**
 * `npm start`: the embedded single-machine default. Gateway and workers in one process, the store and
 * objects under DATA_DIR, and a redis-server child (data under DATA_DIR, AOF on) unless REDIS_URL is set.
 * Its GET /metrics serves the gateway's and the workers' metrics together.
 */
import path from 'node:path';
import { launchGateway } from '../gateway/gateway-process';
import { startGatewayCluster } from '../shared/runtime/gateway-cluster';
import { RedisServerProcess, startRedisServer } from '../shared/redis/redis-server-process';
import { openCoreServices } from '../shared/runtime/core-services';
import { ADMIN_KEY_HASH_FILE, resolveAdminKeys } from '../shared/runtime/local-secrets';
import { startMetricsListener } from '../shared/metrics/metrics-listener';
import { installProcessHandlers } from '../shared/runtime/process-handlers';
import { handleShutdown, ShutdownStep } from '../shared/runtime/shutdown';
import { configOrExit, exitOnFailure, tuneGarbageCollection } from '../shared/runtime/start-up';
import { launchWorkers } from '../workers/worker-process';

tuneGarbageCollection();
const { config, logger } = configOrExit();

/** What has been started, in start order; a stop request, even during start-up, closes it in reverse. */
const started: ShutdownStep[] = [];
installProcessHandlers(logger, handleShutdown(logger, config.shutdownTimeoutMs, () => [...started].reverse()));
let embeddedRedis: RedisServerProcess | undefined;

async function main(): Promise<void> {
  if (!config.redisUrl) {
    embeddedRedis = await startRedisServer({ dir: path.join(config.dataDir, 'redis'), persistent: true });
    started.push({ name: 'redis-server', run: embeddedRedis.stop });
  }
  const redisUrl = config.redisUrl ?? (embeddedRedis as RedisServerProcess).url;
  const admin = resolveAdminKeys(config.adminApiKeys, config.dataDir);
  const core = await openCoreServices(config, logger);
  started.push({ name: 'core services', run: core.close });
  const workers = await launchWorkers(config, logger, core, redisUrl);
  started.push({ name: 'workers', run: workers.close });
  if (config.webConcurrency > 1) {
    const gateways = await startGatewayCluster(config.webConcurrency, { REDIS_URL: redisUrl }, logger);
    started.push({ name: 'gateway processes', run: gateways.stop });
    // The workers run here, without a gateway of their own: their metrics get the worker's listener.
    if (config.metricsToken !== undefined) {
      const listener = await startMetricsListener(core.metrics, config.metricsToken, config.metricsPort, logger);
      started.push({ name: 'metrics listener', run: listener.close });
    }
  } else {
    const gateway = await launchGateway(config, logger, core, redisUrl, admin.hashes);
    started.push({ name: 'gateway', run: gateway.close });
  }

  if (admin.generatedKey) {
    process.stdout.write(`\nAdmin API key (shown this once; only its hash is kept in ${path.join(config.dataDir, ADMIN_KEY_HASH_FILE)}):\n  ${admin.generatedKey}\n\n`);
  } else if (config.adminApiKeys.length === 0) {
    process.stdout.write(`Admin API key: the one printed at first start (delete ${path.join(config.dataDir, ADMIN_KEY_HASH_FILE)} to issue a new one)\n`);
  }
  process.stdout.write(`Listening on ${config.publicBaseUrl} (store: ${core.store.kind}, objects: ${core.storage.kind})\n`);
}

main().catch(async (error: unknown) => {
  // The redis-server child would outlive a failed start (a taken port, an unreadable DATA_DIR...).
  await embeddedRedis?.stop().catch(() => undefined);
  exitOnFailure(logger)(error);
});
