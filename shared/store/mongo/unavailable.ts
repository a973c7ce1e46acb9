import { Error as MongooseError, mongo } from 'mongoose';
import { DependencyUnavailableError } from '../../errors';

/** Driver errors raised when no server can serve: unreachable, timed out, or a client already closed. */
const UNAVAILABLE_ERRORS = [
  mongo.MongoNetworkError, // includes timeouts and pools cleared by a network error
  mongo.MongoServerSelectionError,
  mongo.MongoNotConnectedError,
  mongo.MongoTopologyClosedError,
  mongo.MongoServerClosedError,
  mongo.MongoClientClosedError,
  mongo.MongoOperationTimeoutError,
  MongooseError.MongooseServerSelectionError,
];

/**
 * Server replies that mean the deployment cannot serve right now rather than that the operation is
 * wrong: a node shutting down or stepping down, an election, a network failure between nodes. The
 * retryable-reads specification's list, by code (the driver does not export it).
 */
const UNAVAILABLE_SERVER_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  134, // ReadConcernMajorityNotAvailableYet
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/** `error`, or DependencyUnavailableError('database') wrapping it when MongoDB could not serve. */
export function translateUnavailable(error: unknown): unknown {
  const unavailable = UNAVAILABLE_ERRORS.some((type) => error instanceof type)
    || (error instanceof mongo.MongoServerError && UNAVAILABLE_SERVER_CODES.has(error.code as number));
  return unavailable ? new DependencyUnavailableError('database', error) : error;
}
