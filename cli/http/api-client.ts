import { randomUUID } from 'node:crypto';
import { Dispatcher, FormData, request } from 'undici';
import { createClient, type Client, type Transport, type WireRequest } from '../../shared/contract/client';
import { ApiError, NetworkError } from '../errors';
import { USER_AGENT } from '../version';
import { apiAgent, keyedPostAgent } from './agents';

/** The header under which the service runs a POST once per key and caller (docs/api-conventions.md, Idempotency keys). */
const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/**
 * The management and download API for the CLI: the typed client of the operations table
 * (shared/contract/client.ts) over undici, with the bearer key. A refusal becomes an ApiError (exit
 * code 1), a connection that fails a NetworkError (exit code 3). Every JSON POST carries a fresh
 * Idempotency-Key and goes through the agent that retries it, since the service runs it once per key;
 * a form POST (the small upload, which refuses the header) is sent once.
 */
export function apiClient(
  baseUrl: string,
  apiKey: string,
  dispatcher: Dispatcher = apiAgent,
  keyedDispatcher: Dispatcher = keyedPostAgent,
): Client {
  const transport: Transport = async (wire: WireRequest) => {
    const keyed = wire.headers[IDEMPOTENCY_KEY_HEADER] !== undefined;
    try {
      const response = await request(wire.url, {
        method: wire.method,
        headers: wire.headers,
        body: wire.body as string | FormData | Uint8Array | undefined,
        dispatcher: keyed ? keyedDispatcher : dispatcher,
        signal: wire.signal,
      });
      const text = await response.body.text();
      return { status: response.statusCode, header: (name) => headerValue(response.headers[name]), text };
    } catch (error) {
      throw new NetworkError(`cannot reach ${baseUrl}: ${describeNetworkFailure(error)}`, error);
    }
  };
  return createClient({
    baseUrl,
    transport,
    headers: () => ({ authorization: `Bearer ${apiKey}`, 'user-agent': USER_AGENT }),
    idempotencyKeys: randomUUID,
    refused: (refusal) => new ApiError(refusal.status, refusal.code, refusal.message, refusal.requestId, refusal.details.length > 0 ? refusal.details : undefined),
  });
}

export const headerValue = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? value[0] : value) ?? null;

/** One line about a failed connection, without a stack: "connect ECONNREFUSED 127.0.0.1:3000". */
export function describeNetworkFailure(error: unknown): string {
  const messages: string[] = [];
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth += 1) {
    if (current.message && !messages.includes(current.message)) messages.push(current.message);
    current = current.cause;
  }
  return messages.join(': ') || String(error);
}
