import type { Logger } from '../logger';
import { isConnectionError } from '../redis/redis-outage-log';
import { shuttingDown, type ShutDown } from './shutdown';

/** What the handlers listen on: the process itself, or an emitter standing in for it in a test. */
export type ProcessEvents = Pick<NodeJS.EventEmitter, 'on'>;

/**
 * The last line of defence of every entry point, as BullMQ's production guide advises: an error that
 * nothing else caught is logged as one structured line, never as a bare stack trace on stderr.
 *
 * - `uncaughtException` (a throw from a callback, an 'error' event without a listener) unwound code
 *   that expected to run to its end: a stream mid-write, a connection half set up. The process state
 *   is unknown, so it is logged at fatal, the process shuts down gracefully (requests in flight finish,
 *   jobs are handed back) within the shutdown deadline and exits 1, for its supervisor to start a
 *   clean one.
 * - `unhandledRejection` unwound only the async code that raised it, exactly as a handled rejection
 *   would; what is missing is someone to hear of it. It is logged at error and the process keeps
 *   serving, as the guide recommends (Node's default would exit and drop every request in flight).
 *   While the process stops, a call still waiting on a connection the shutdown closed fails with it:
 *   that is the stop itself, said in one line at warn, with no stack after the reason it stopped.
 */
export function installProcessHandlers(logger: Logger, shutDown: ShutDown, events: ProcessEvents = process, stopping: () => boolean = shuttingDown): void {
  events.on('uncaughtException', (error: Error, origin: string) => {
    logger.fatal({ err: error, origin }, 'uncaught exception: the process state is unknown, shutting down');
    shutDown('uncaughtException', 1);
  });
  events.on('unhandledRejection', (reason: unknown) => {
    if (stopping() && reason instanceof Error && isConnectionError(reason)) {
      logger.warn({ reason: reason.message }, 'a call still waiting on a connection failed as the process stopped');
      return;
    }
    logger.error({ err: reason }, 'unhandled promise rejection');
  });
}
