import { Agent, RetryAgent } from 'undici';

/** Connection and retry settings of every request the CLI makes, defined once. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** A response (or a chunk of it) not arriving for this long fails the attempt. */
export const IDLE_TIMEOUT_MS = 120_000;
export const API_RETRIES = 4;
export const RETRY_MIN_DELAY_MS = 500;
export const RETRY_MAX_DELAY_MS = 8_000;

export const transferAgent = new Agent({
  connect: { timeout: CONNECT_TIMEOUT_MS },
  headersTimeout: IDLE_TIMEOUT_MS,
  bodyTimeout: IDLE_TIMEOUT_MS,
});

const API_RETRY_OPTIONS = {
  maxRetries: API_RETRIES,
  minTimeout: RETRY_MIN_DELAY_MS,
  maxTimeout: RETRY_MAX_DELAY_MS,
  timeoutFactor: 2,
  statusCodes: [429, 502, 503, 504],
  throwOnError: false,
};

/**
 * For API calls: idempotent methods (GET, PUT, DELETE) are retried with exponential backoff on a
 * lost connection and on 429 / 502 / 503 / 504 (honouring Retry-After). After the last retry the
 * service's own answer is passed on, so its error envelope is what the user sees.
 */
export const apiAgent = new RetryAgent(transferAgent, { ...API_RETRY_OPTIONS, methods: ['GET', 'HEAD', 'PUT', 'DELETE'] });

/**
 * For a POST sent with an Idempotency-Key: retried like the idempotent methods, since the service
 * runs a request once per key and answers a repeat with the first answer (a 5xx is not kept, so
 * the retry runs it). A POST without a key goes through `apiAgent` and is never sent twice.
 */
export const keyedPostAgent = new RetryAgent(transferAgent, { ...API_RETRY_OPTIONS, methods: ['POST'] });

/** The delay before attempt `attempt` (1-based) of a transfer retried by the CLI itself: exponential with jitter. */
export function backoffDelay(attempt: number): number {
  const ceiling = Math.min(RETRY_MAX_DELAY_MS, RETRY_MIN_DELAY_MS * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

