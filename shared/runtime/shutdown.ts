import type { Logger } from '../logger';

export interface ShutdownStep {
  name: string;
  run(): Promise<void>;
}

/**
 * On SIGTERM or SIGINT runs the steps in order (stop intake, finish work, close connections) and
 * exits; a timer below the platform's kill deadline forces the exit if a step hangs.
 */
export function handleShutdown(logger: Logger, timeoutMs: number, steps: () => ShutdownStep[]): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown took too long, exiting');
      process.exit(1);
    }, timeoutMs);
    force.unref();
    let failed = false;
    for (const step of steps()) {
      try {
        await step.run();
      } catch (error) {
        failed = true;
        logger.error({ err: error, step: step.name }, 'shutdown step failed');
      }
    }
    logger.info('shut down');
    process.exit(failed ? 1 : 0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
