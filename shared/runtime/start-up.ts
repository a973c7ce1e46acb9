import v8 from 'node:v8';
import { Config, ConfigError, loadConfig } from '../config';
import { createLogger, Logger, logFormatFor } from '../logger';
import type { ShutDown } from './shutdown';

/**
 * How far V8 lets the old generation grow past what survived a full collection before it starts
 * the next one (V8 otherwise picks between 10% and 300% as it goes).
 *
 * Every streamed byte passes through a Buffer, and V8 counts a Buffer's bytes toward that limit
 * until a young collection frees it, which it runs only once 32 MB of them have piled up. With a
 * small growth (picked after the process had been idle, or under load) the limit sat a few MB above
 * the live heap, and a PUT ran a full collection every few MB: most of its CPU time. At 200% the
 * limit stays above those 32 MB for any heap over 16 MB; the cost is a heap up to three times what
 * is live.
 */
const HEAP_GROWING_PERCENT = 200;

/** Called first by the long-running entries (standalone, web, worker). V8 reads it each time it sets a new limit. */
export function tuneGarbageCollection(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/** Loads the configuration or exits listing every invalid variable. */
export function configOrExit(): { config: Readonly<Config>; logger: Logger } {
  try {
    const config = loadConfig();
    return { config, logger: createLogger(config.logLevel, 'binary-distribution', logFormatFor(config.logFormat)) };
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Logs a start-up failure, in words for the usual ones, and exits non-zero. Given the entry point's
 * shutdown, it first closes what had started, in reverse order (connections before the Redis they
 * talk to), so the failure is the last thing of note logged, not followed by outage warnings.
 */
export function exitOnFailure(logger: Logger, shutDown?: ShutDown) {
  return (error: unknown): void => {
    // A failure said in words (a port in use...) is all a person needs: no stack after it.
    const known = knownStartFailure(error);
    if (known) logger.fatal(`could not start: ${known}`);
    else logger.fatal({ err: error }, `could not start: ${startFailureInWords(error)}`);
    if (shutDown) shutDown('start-up failed', 1);
    else process.exit(1);
  };
}

/** What a failed listen means to the person starting the service; other errors say it themselves. */
export function startFailureInWords(error: unknown): string {
  return knownStartFailure(error) ?? (error instanceof Error ? error.message : String(error));
}

/** A failed listen in words, or undefined for any other failure. */
function knownStartFailure(error: unknown): string | undefined {
  const { code, syscall, address, port } = (error ?? {}) as NodeJS.ErrnoException & { address?: string; port?: number };
  const where = address !== undefined && port !== undefined ? `${address}:${port}` : `port ${port ?? '?'}`;
  if (syscall === 'listen' && code === 'EADDRINUSE') return `${where} is already in use by another process (stop it, or choose another PORT)`;
  if (syscall === 'listen' && code === 'EADDRNOTAVAIL') return `${where} cannot be bound: HOST is not an address of this machine`;
  if (syscall === 'listen' && code === 'EACCES') return `${where} needs privileges this process does not have (choose a PORT above 1023)`;
  return undefined;
}
