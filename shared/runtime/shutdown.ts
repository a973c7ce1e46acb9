import type { Logger } from '../logger';

export interface ShutdownStep {
  name: string;
  run(): Promise<void>;
}

let stoppingSince: number | undefined;

/**
 * Whether this process is shutting down: what fails then (the embedded Redis, which a terminal's
 * Ctrl-C stops together with the process) is no outage to report.
 */
export function shuttingDown(): boolean {
  return stoppingSince !== undefined;
}

/** Starts the graceful shutdown for `reason`; the process then exits with `exitCode` (or 1 if a step fails). */
export type ShutDown = (reason: string, exitCode: number) => void;

/**
 * On SIGTERM or SIGINT, or when called, runs the steps in order (stop intake, finish work, close
 * connections) and exits; a timer below the platform's kill deadline forces the exit if a step hangs.
 * A second reason during a shutdown only raises the exit code.
 */
export function handleShutdown(logger: Logger, timeoutMs: number, steps: () => ShutdownStep[]): ShutDown {
  let stopping = false;
  let exitCode = 0;
  const stop = async (reason: string, code: number) => {
    exitCode = Math.max(exitCode, code);
    if (stopping) return;
    stopping = true;
    stoppingSince = Date.now();
    logger.info({ reason }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown took too long, exiting');
      process.exit(1);
    }, timeoutMs);
    force.unref();
    for (const step of steps()) {
      try {
        await step.run();
      } catch (error) {
        exitCode = 1;
        logger.error({ err: error, step: step.name }, 'shutdown step failed');
      }
    }
    logger.info('shut down');
    process.exit(exitCode);
  };
  process.once('SIGTERM', () => void stop('SIGTERM', 0));
  process.once('SIGINT', () => void stop('SIGINT', 0));
  return (reason, code) => void stop(reason, code);
}
