import { InterruptedError } from './errors';

/**
 * Runs a transfer that Ctrl-C (or SIGTERM) stops between chunks: what was stored stays, the
 * command ends with exit code 130, and running it again resumes.
 */
export function interruptible<T>(what: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = () => controller.abort(new InterruptedError(`interrupted: run the same command again to resume the ${what}`));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return run(controller.signal).finally(() => {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  });
}
