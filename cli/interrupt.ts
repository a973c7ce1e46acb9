import { InterruptedError } from './errors';

/**
 * Runs a transfer or a wait that Ctrl-C (or SIGTERM) stops between steps: what was stored stays,
 * the command ends with exit code 130 and a hint of how to go on. `what` names the transfer ("run the
 * same command again to resume the upload"), or `hint` says it all.
 */
export function interruptible<T>(what: string | { hint: string; details?: Record<string, unknown> }, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const message = typeof what === 'string' ? `interrupted: run the same command again to resume the ${what}` : `interrupted: ${what.hint}`;
  const details = typeof what === 'string' ? {} : what.details ?? {};
  const onSignal = () => controller.abort(new InterruptedError(message, details));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return run(controller.signal).catch((error: unknown) => {
    // A wait aborted mid-sleep rejects with an AbortError: the reason is the interruption.
    if (controller.signal.aborted) throw controller.signal.reason;
    throw error;
  }).finally(() => {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  });
}
