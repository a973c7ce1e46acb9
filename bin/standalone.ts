/**
 * `npm start`: the embedded single-machine default. Gateway and workers in one process, the store and
 * objects under DATA_DIR, and a redis-server child (data under DATA_DIR, AOF on) unless REDIS_URL is set.
 * Its GET /metrics serves the gateway's and the workers' metrics together.
 */
import path from 'node:path';
import { launchGateway } from '../gateway/gateway-process';
import { startBanner } from '../gateway/operations/entrances';
import { startGatewayCluster } from '../shared/runtime/gateway-cluster';
import { RedisServerProcess, startRedisServer } from '../shared/redis/redis-server-process';
import { openCoreServices } from '../shared/runtime/core-services';
import { ADMIN_KEY_HASH_FILE, resolveAdminKeys, showGeneratedAdminKey } from '../shared/runtime/local-secrets';
import { startMetricsListener } from '../shared/metrics/metrics-listener';
import { installProcessHandlers } from '../shared/runtime/process-handlers';
import { handleShutdown, ShutdownStep } from '../shared/runtime/shutdown';
import { configOrExit, exitOnFailure, tuneGarbageCollection } from '../shared/runtime/start-up';
import { launchWorkers } from '../workers/worker-process';

tuneGarbageCollection();
const { config, logger } = configOrExit();

/** What has been started, in start order; a stop request, even during start-up, closes it in reverse. */
const started: ShutdownStep[] = [];
const shutDown = handleShutdown(logger, config.shutdownTimeoutMs, () => [...started].reverse());
installProcessHandlers(logger, shutDown);
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
    // The gateway processes read the key's hash from DATA_DIR: it is kept (so shown) before they start.
    if (admin.generatedKey) showGeneratedAdminKey(admin.generatedKey, config.dataDir, print);
    const gateways = await startGatewayCluster(config.webConcurrency, { REDIS_URL: redisUrl }, logger);
    started.push({ name: 'gateway processes', run: gateways.stop });
    // The workers run here, without a gateway of their own: their metrics get the worker's listener.
    if (config.metricsToken !== undefined) {
      const listener = await startMetricsListener(core.metrics, config.metricsToken, config.metricsPort, config.host, logger);
      started.push({ name: 'metrics listener', run: listener.close });
    }
  } else {
    const gateway = await launchGateway(config, logger, core, redisUrl, admin.hashes);
    started.push({ name: 'gateway', run: gateway.close });
  }

  // Shown only once the gateway listens: a start that fails before keeps no key nobody saw.
  if (admin.generatedKey && config.webConcurrency === 1) {
    showGeneratedAdminKey(admin.generatedKey, config.dataDir, print);
  } else if (config.adminApiKeys.length === 0 && !admin.generatedKey) {
    print(`Admin API key: the one printed at first start (delete ${path.join(config.dataDir, ADMIN_KEY_HASH_FILE)} to issue a new one)\n`);
  }
  print(`Listening on ${config.publicBaseUrl} (store: ${core.store.kind}, objects: ${core.storage.kind})\n`);
  print(startBanner(config.publicBaseUrl));
}

const print = (text: string) => process.stdout.write(text);


// A failed start (a taken port, an unreadable DATA_DIR...) closes what started, the redis-server child last.
main().catch(exitOnFailure(logger, shutDown));
