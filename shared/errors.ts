/**
 * Every code the error envelope carries, with the status it is sent with. The API description lists
 * them (per status), so a new code is added here or does not compile.
 */
export const ERROR_CODES = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  INVALID_CURSOR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  /** An access token's limits: the error says when its counts start again (`resetsAt`), or when it is valid. */
  TOKEN_DOWNLOAD_LIMIT_REACHED: 403,
  TOKEN_CLIENT_LIMIT_REACHED: 403,
  TOKEN_BYTE_LIMIT_REACHED: 403,
  TOKEN_NOT_YET_VALID: 403,
  TOKEN_EXPIRED: 403,
  /** A download of an application whose licence's current revision the customer has not accepted. */
  LICENCE_ACCEPTANCE_REQUIRED: 403,
  NOT_FOUND: 404,
  /** A latest link for a target (platform, arch, file type) no release offered to the caller has a build for. */
  NO_MATCHING_BUILD: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  /** A request a published version refuses (deleting it or its files: yank it instead). */
  VERSION_PUBLISHED: 409,
  /** A request a yanked version refuses (deleting it or its files: it has shipped). */
  VERSION_YANKED: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  EXPECTATION_FAILED: 417,
  IDEMPOTENCY_KEY_REUSED: 422,
  /** An attestation that is no in-toto statement the service can read (a DSSE envelope or a Sigstore bundle with one). */
  INVALID_ATTESTATION: 422,
  /** An attestation none of whose subjects has the file's SHA-256 or SHA-512. */
  ATTESTATION_SUBJECT_MISMATCH: 422,
  /** A public key the service cannot check signatures with (not an Ed25519 or ECDSA P-256 key in PEM). */
  UNSUPPORTED_KEY: 422,
  /** A TUF root the service does not keep: not the next version, not signed by a threshold of its own and the previous root's keys, or not naming the service's online keys. */
  INVALID_TUF_ROOT: 422,
  /** A maintenance window's `versionRange` that semver does not read as a range. */
  INVALID_VERSION_RANGE: 422,
  /** A yank's `rollbackTo` that names no published version of the application ranking below the yanked one. */
  INVALID_ROLLBACK_TARGET: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Errors that carry their HTTP status and the stable code of the spec's error envelope. */
export interface ErrorDetail {
  field: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** When what refused the request stops refusing it (an access token's next period), sent as `resetsAt`. */
    readonly resetsAt?: Date,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, code: ErrorCode = 'BAD_REQUEST') => new AppError(400, code, message);
export const validationError = (details: ErrorDetail[]) =>
  new AppError(400, 'VALIDATION_ERROR', details.map((d) => `${d.field}: ${d.message}`).join('; '), details);
export const unauthorized = (message = 'a valid API key is required') => new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message: string) => new AppError(403, 'FORBIDDEN', message);
export const notFound = (message: string) => new AppError(404, 'NOT_FOUND', message);
export const methodNotAllowed = (message: string) => new AppError(405, 'METHOD_NOT_ALLOWED', message);
export const conflict = (message: string) => new AppError(409, 'CONFLICT', message);
export const gone = (message: string) => new AppError(410, 'GONE', message);
export const payloadTooLarge = (message: string) => new AppError(413, 'PAYLOAD_TOO_LARGE', message);
export const unsupportedMediaType = (message: string) => new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', message);
export const rangeNotSatisfiable = (message: string) => new AppError(416, 'RANGE_NOT_SATISFIABLE', message);
/** An Idempotency-Key sent again with another request than the one it was first sent with. */
export const unprocessable = (message: string, code: 'INVALID_ATTESTATION' | 'ATTESTATION_SUBJECT_MISMATCH' | 'UNSUPPORTED_KEY' | 'INVALID_TUF_ROOT') => new AppError(422, code, message);
/** A maintenance window's range semver cannot match versions against. */
export const invalidVersionRange = (range: string) => new AppError(422, 'INVALID_VERSION_RANGE',
  `versionRange: ${JSON.stringify(range)} is not a semver range (such as <3, 2.x or >=1.2.0 <2.0.0)`,
  [{ field: 'versionRange', message: 'must be a semver range such as <3, 2.x or >=1.2.0 <2.0.0' }]);
/** A yank's rollback target the feeds could not offer as a downgrade. */
export const invalidRollbackTarget = (message: string) => new AppError(422, 'INVALID_ROLLBACK_TARGET', message, [{ field: 'rollbackTo', message }]);
export const idempotencyKeyReused = (message: string) => new AppError(422, 'IDEMPOTENCY_KEY_REUSED', message);
export const rateLimited = (message: string) => new AppError(429, 'RATE_LIMITED', message);

/**
 * A 503 the service expects while `dependency` is unreachable, with a message for the client. Not a
 * failure of the service: the process's outage log counts it instead of logging it.
 */
export class ServiceUnavailableError extends AppError {
  constructor(readonly dependency: string, message: string) {
    super(503, 'SERVICE_UNAVAILABLE', message);
    this.name = 'ServiceUnavailableError';
  }
}

/** A 503 because Redis cannot be reached. */
export const redisUnavailable = (message: string) => new ServiceUnavailableError('redis', message);

/** Raised by a store adapter when a unique constraint refuses a write; `target` names what collided. */
export class DuplicateError extends Error {
  constructor(readonly target: string) {
    super(`duplicate ${target}`);
    this.name = 'DuplicateError';
  }
}

/** Raised by object storage when a key does not exist. */
export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super('object not found');
    this.name = 'ObjectNotFoundError';
  }
}

/**
 * Raised by a port adapter (store, object storage) when its backing service cannot be reached or
 * answers with a failure of its own: the request may succeed once it is back, so it is a 503.
 * Adapters translate their client's errors into this one; nothing outside an adapter needs to
 * know a driver's error names.
 */
export class DependencyUnavailableError extends Error {
  constructor(readonly dependency: string, readonly cause?: unknown) {
    super(`${dependency} is unavailable`);
    this.name = 'DependencyUnavailableError';
  }
}

/**
 * True when a dependency failed rather than the request or our code: the request may succeed once
 * it is back, so it is answered 503, not 500. Every port's adapters raise DependencyUnavailableError
 * for it; no client's error names are listed here.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  return error instanceof DependencyUnavailableError;
}
