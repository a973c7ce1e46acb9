/** Procfile `worker`: the BullMQ workers only. Needs REDIS_URL; scales independently of the gateway. */
import { openCoreServices } from '../shared/runtime/core-services';
import { handleShutdown } from '../shared/runtime/shutdown';
import { configOrExit, exitOnFailure } from '../shared/runtime/start-up';
import { launchWorkers } from '../workers/worker-process';

const { config, logger } = configOrExit();

async function main(): Promise<void> {
  if (!config.redisUrl) throw new Error('REDIS_URL is required for the worker process (npm start runs everything with its own Redis)');
  const core = await openCoreServices(config);
  const workers = await launchWorkers(config, logger, core, config.redisUrl);
  handleShutdown(logger, config.shutdownTimeoutMs, () => [
    { name: 'workers', run: workers.close },
    { name: 'core services', run: core.close },
  ]);
}

main().catch(exitOnFailure(logger));
