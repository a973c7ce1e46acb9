/**
 * How the CLI ends, one code per kind of failure, so a pipeline can tell "fix the command" from
 * "the service said no" from "the service could not be reached" (docs/cli.md).
 */
export const EXIT = {
  ok: 0,
  /** The service answered with an error (4xx or 5xx). */
  api: 1,
  /** The command line or the configuration is wrong; nothing was sent. */
  usage: 2,
  /** The service could not be reached, or the connection failed, after retries. */
  network: 3,
  /** Bytes were refused on their digest: an upload failed verification, a download's SHA-256 differs. */
  verification: 4,
  /** A defect of the CLI itself (an error nothing above describes). */
  internal: 70,
  /** Interrupted (Ctrl-C); an upload or download resumes when the same command is run again. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the CLI reports and ends on; `details` go into the --json error object. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: ExitCode, readonly details: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
  }
}

/** `reason` tells usage errors apart in --json (commander's code for a parse failure). */
export class UsageError extends CliError {
  constructor(message: string, reason = 'usage') {
    super(message, EXIT.usage, { code: 'USAGE_ERROR', reason });
  }
}

/** The service's error envelope, as it answered. */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly fieldErrors: unknown = undefined,
  ) {
    super(message, EXIT.api, { status, code, requestId, ...(fieldErrors === undefined ? {} : { details: fieldErrors }) });
  }
}

export class NetworkError extends CliError {
  constructor(message: string, readonly cause: unknown = undefined) {
    super(message, EXIT.network, { code: causeCode(cause) ?? 'NETWORK_ERROR' });
  }
}

export class VerificationError extends CliError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message, EXIT.verification, details);
  }
}

export class InterruptedError extends CliError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message, EXIT.interrupted, details);
  }
}

/** The system or undici code of a failed connection (ECONNREFUSED, UND_ERR_SOCKET...), looking through `cause` chains. */
export function causeCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
