/** Procfile `web`: the Koa gateway only. Needs REDIS_URL; scales independently of the workers. */
import { launchGateway } from '../gateway/gateway-process';
import { openCoreServices } from '../shared/runtime/core-services';
import { resolveAdminKeys } from '../shared/runtime/local-secrets';
import { handleShutdown } from '../shared/runtime/shutdown';
import { configOrExit, exitOnFailure } from '../shared/runtime/start-up';

const { config, logger } = configOrExit();

async function main(): Promise<void> {
  if (!config.redisUrl) throw new Error('REDIS_URL is required for the web process (npm start runs everything with its own Redis)');
  const admin = resolveAdminKeys(config.adminApiKeys, config.dataDir);
  if (admin.generatedKey) process.stdout.write(`Admin API key (shown once, only its hash is kept): ${admin.generatedKey}\n`);
  const core = await openCoreServices(config);
  const gateway = await launchGateway(config, logger, core, config.redisUrl, admin.hashes);
  handleShutdown(logger, config.shutdownTimeoutMs, () => [
    { name: 'gateway', run: gateway.close },
    { name: 'core services', run: core.close },
  ]);
}

main().catch(exitOnFailure(logger));
