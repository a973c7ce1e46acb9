import { Config, ConfigError, loadConfig } from '../config';
import { createLogger, Logger } from '../logger';

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
