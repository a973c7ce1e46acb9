/**
 * Procfile `web`: the Koa gateway only. Needs REDIS_URL; scales independently of the workers. With
 * WEB_CONCURRENCY above 1 this process supervises that many gateway processes sharing the port.
 */
import cluster from 'node:cluster';
import { launchGateway } from '../gateway/gateway-process';
import { startGatewayCluster } from '../shared/runtime/gateway-cluster';
import { openCoreServices } from '../shared/runtime/core-services';
import { resolveAdminKeys, showGeneratedAdminKey } from '../shared/runtime/local-secrets';
import { installProcessHandlers } from '../shared/runtime/process-handlers';
import { handleShutdown, ShutdownStep } from '../shared/runtime/shutdown';
import { configOrExit, exitOnFailure, tuneGarbageCollection } from '../shared/runtime/start-up';

tuneGarbageCollection();
const { config, logger } = configOrExit();

/** What has been started, in start order; a stop request, even during start-up, closes it in reverse. */
const started: ShutdownStep[] = [];
const shutDown = handleShutdown(logger, config.shutdownTimeoutMs, () => [...started].reverse());
installProcessHandlers(logger, shutDown);

async function main(): Promise<void> {
  if (!config.redisUrl) throw new Error('REDIS_URL is required for the web process (npm start runs everything with its own Redis)');
  const admin = resolveAdminKeys(config.adminApiKeys, config.dataDir);
  if (cluster.isPrimary && config.webConcurrency > 1) {
    // The gateway processes read the key's hash from DATA_DIR: it is kept (so shown) before they start.
    if (admin.generatedKey) showGeneratedAdminKey(admin.generatedKey, config.dataDir, print);
    const gateways = await startGatewayCluster(config.webConcurrency, {}, logger);
    started.push({ name: 'gateway processes', run: gateways.stop });
    return;
  }
  const core = await openCoreServices(config, logger);
  started.push({ name: 'core services', run: core.close });
  if (cluster.isWorker && config.metricsToken !== undefined) core.metrics.joinCluster();
  const gateway = await launchGateway(config, logger, core, config.redisUrl, admin.hashes);
  started.push({ name: 'gateway', run: gateway.close });
  if (admin.generatedKey) showGeneratedAdminKey(admin.generatedKey, config.dataDir, print);
}

const print = (text: string) => process.stdout.write(text);

main().catch(exitOnFailure(logger, shutDown));
