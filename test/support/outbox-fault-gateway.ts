/**
 * The Procfile's `web` process, wired as bin/web.ts wires it, in which the queueing of webhook events
 * never happens when OUTBOX_FAULT is `stall-before-queue`: a change that announces an event is written
 * (with its outbox entry), then the process says so and waits, for the test to kill it there. Run by
 * test/integration/webhook-outbox.test.ts; production code has no such switch.
 */
import { launchGateway } from '../../gateway/gateway-process';
import { JobQueues } from '../../shared/queues/job-queues';
import { openCoreServices } from '../../shared/runtime/core-services';
import { resolveAdminKeys } from '../../shared/runtime/local-secrets';
import { installProcessHandlers } from '../../shared/runtime/process-handlers';
import { handleShutdown, ShutdownStep } from '../../shared/runtime/shutdown';
import { configOrExit, exitOnFailure } from '../../shared/runtime/start-up';

const { config, logger } = configOrExit();
const started: ShutdownStep[] = [];
installProcessHandlers(logger, handleShutdown(logger, config.shutdownTimeoutMs, () => [...started].reverse()));

if (process.env.OUTBOX_FAULT === 'stall-before-queue') {
  const enqueue = JobQueues.prototype.enqueue;
  JobQueues.prototype.enqueue = function stallingEnqueue(this: JobQueues, name, data) {
    if (name !== 'dispatch-webhook-event') return enqueue.call(this, name, data);
    logger.info({ eventType: (data as { type: string }).type }, 'outbox fault: a change was written, its event is not queued');
    return new Promise<void>(() => undefined);
  } as typeof enqueue;
}

async function main(): Promise<void> {
  const admin = resolveAdminKeys(config.adminApiKeys, config.dataDir);
  const core = await openCoreServices(config, logger);
  started.push({ name: 'core services', run: core.close });
  const gateway = await launchGateway(config, logger, core, config.redisUrl as string, admin.hashes);
  started.push({ name: 'gateway', run: gateway.close });
}

main().catch(exitOnFailure(logger));
