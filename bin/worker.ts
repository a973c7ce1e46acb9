/**
 * Procfile `worker`: the BullMQ workers only. Needs REDIS_URL; scales independently of the gateway.
 * With METRICS_TOKEN set, serves its metrics on a small listener of its own (METRICS_PORT).
 */
import { openCoreServices } from '../shared/runtime/core-services';
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

async function main(): Promise<void> {
  if (!config.redisUrl) throw new Error('REDIS_URL is required for the worker process (npm start runs everything with its own Redis)');
  const core = await openCoreServices(config, logger);
  started.push({ name: 'core services', run: core.close });
  const workers = await launchWorkers(config, logger, core, config.redisUrl);
  started.push({ name: 'workers', run: workers.close });
  if (config.metricsToken !== undefined) {
    const listener = await startMetricsListener(core.metrics, config.metricsToken, config.metricsPort, config.host, logger);
    started.push({ name: 'metrics listener', run: listener.close });
    logger.info({ port: listener.port }, 'metrics listening');
  }
}

main().catch(exitOnFailure(logger, shutDown));
