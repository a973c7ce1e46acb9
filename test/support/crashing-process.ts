/**
 * A process wired as the entry points are (structured logger, graceful shutdown, the process-level
 * handlers), which then fails as CRASH says: `exception` throws from a timer, `rejection` leaves a
 * promise rejection unhandled and carries on, `exception-stuck` throws while a shutdown step hangs.
 * Run by test/integration/process-handlers.test.ts; production code has no such switch.
 */
import { createLogger } from '../../shared/logger';
import { installProcessHandlers } from '../../shared/runtime/process-handlers';
import { handleShutdown, ShutdownStep } from '../../shared/runtime/shutdown';

const logger = createLogger('info', 'crashing-process');
const mode = process.env.CRASH;
const steps: ShutdownStep[] = [{
  name: 'work in flight',
  run: () => (mode === 'exception-stuck' ? new Promise<void>(() => undefined) : Promise.resolve(logger.info('shutdown step ran'))),
}];
installProcessHandlers(logger, handleShutdown(logger, Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 5_000), () => steps));

// Something for the event loop to do, as a server's listening socket would be.
const alive = setInterval(() => undefined, 1_000);
logger.info({ mode }, 'started');

setTimeout(() => {
  if (mode === 'rejection') {
    void Promise.reject(new Error('deliberate rejection'));
    setTimeout(() => {
      logger.info('still running');
      clearInterval(alive);
    }, 200);
    return;
  }
  throw new Error('deliberate crash');
}, 50);
