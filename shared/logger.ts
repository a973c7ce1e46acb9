import pino, { Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Request headers are never logged; the redaction list is a second line of
 * defence for any secret that would reach a log call by mistake.
 */
export function createLogger(level: string, name: string): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: ['authorization', '*.authorization', 'apiKey', '*.apiKey', 'adminApiKeys', '*.adminApiKeys', 'secret', '*.secret', 'token', '*.token'],
      censor: '[redacted]',
    },
  });
}
