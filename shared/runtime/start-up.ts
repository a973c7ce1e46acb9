import v8 from 'node:v8';
import { Config, ConfigError, loadConfig } from '../config';
import { createLogger, Logger } from '../logger';

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
    return { config, logger: createLogger(config.logLevel, 'binary-distribution') };
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** Logs a start-up failure and exits non-zero. */
export function exitOnFailure(logger: Logger) {
  return (error: unknown): never => {
    logger.fatal({ err: error }, 'could not start');
    process.exit(1);
  };
}
