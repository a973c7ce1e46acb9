/**
 * `npm start`: the embedded single-machine default. Gateway and workers in one process, the store and
 * objects under DATA_DIR, and a redis-server child (data under DATA_DIR, AOF on) unless REDIS_URL is set.
 */
import path from 'node:path';
import { launchGateway } from '../gateway/gateway-process';
import { startRedisServer } from '../shared/redis/redis-server-process';
import { openCoreServices } from '../shared/runtime/core-services';
import { ADMIN_KEY_HASH_FILE, resolveAdminKeys } from '../shared/runtime/local-secrets';
import { handleShutdown } from '../shared/runtime/shutdown';
import { configOrExit, exitOnFailure } from '../shared/runtime/start-up';
import { launchWorkers } from '../workers/worker-process';

const { config, logger } = configOrExit();

async function main(): Promise<void> {
  const embeddedRedis = config.redisUrl ? undefined : await startRedisServer({ dir: path.join(config.dataDir, 'redis'), persistent: true });
  const redisUrl = config.redisUrl ?? (embeddedRedis as { url: string }).url;
  const admin = resolveAdminKeys(config.adminApiKeys, config.dataDir);
  const core = await openCoreServices(config);
  const workers = await launchWorkers(config, logger, core, redisUrl);
  const gateway = await launchGateway(config, logger, core, redisUrl, admin.hashes);

  if (admin.generatedKey) {
    process.stdout.write(`\nAdmin API key (shown this once; only its hash is kept in ${path.join(config.dataDir, ADMIN_KEY_HASH_FILE)}):\n  ${admin.generatedKey}\n\n`);
  } else if (config.adminApiKeys.length === 0) {
    process.stdout.write(`Admin API key: the one printed at first start (delete ${path.join(config.dataDir, ADMIN_KEY_HASH_FILE)} to issue a new one)\n`);
  }
  process.stdout.write(`Listening on ${config.publicBaseUrl} (store: ${core.store.kind}, objects: ${core.storage.kind})\n`);

  handleShutdown(logger, config.shutdownTimeoutMs, () => [
    { name: 'gateway', run: gateway.close },
    { name: 'workers', run: workers.close },
    { name: 'core services', run: core.close },
    ...(embeddedRedis ? [{ name: 'redis-server', run: embeddedRedis.stop }] : []),
  ]);
}

main().catch(exitOnFailure(logger));
