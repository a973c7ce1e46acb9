import pino, { DestinationStream, Logger } from 'pino';

export type { Logger };

/** `pretty`: one readable line per entry, for a person at a terminal; `json`: one JSON object per line, for machines. */
export type LogFormat = 'pretty' | 'json';

/**
 * Structured logs on stdout. Request headers are never logged; the redaction list is a second line of
 * defence for any secret that would reach a log call by mistake. JSON lines are written
 * asynchronously (pino flushes what is left when the process exits), so the per-request access line
 * never waits for the terminal or the pipe.
 */
export function createLogger(level: string, name: string, format: LogFormat = 'json'): Logger {
  const options = {
    name,
    level,
    redact: {
      paths: ['authorization', '*.authorization', 'apiKey', '*.apiKey', 'adminApiKeys', '*.adminApiKeys', 'secret', '*.secret', 'token', '*.token'],
      censor: '[redacted]',
    },
  };
  return pino(options, format === 'pretty' ? prettyStream() : pino.destination({ dest: 1, sync: false }));
}

/** Readable lines: time, level, message, then the fields; synchronous, as a terminal is. */
function prettyStream(): DestinationStream {
  // Loaded only for a terminal: JSON logging, the production case, does without it.
  const PinoPretty = require('pino-pretty') as typeof import('pino-pretty');
  return PinoPretty({
    sync: true,
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,name',
    singleLine: true,
  });
}

/** LOG_FORMAT, or when unset: pretty on a terminal, JSON otherwise (a pipe, a file, a log collector). */
export function logFormatFor(configured: LogFormat | undefined, stdoutIsTerminal = Boolean(process.stdout.isTTY)): LogFormat {
  return configured ?? (stdoutIsTerminal ? 'pretty' : 'json');
}
