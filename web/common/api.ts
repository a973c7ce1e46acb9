// The one way the browser apps talk to the service: the public /v1 API, with the key held for this tab
// as the bearer header. Answers are typed from the service's own contract (shared/contract/), so a
// field renamed there fails the front end's type check.
import type { z } from 'zod';
export type { Client } from '../../shared/contract/client';
import { createClient, type Client, type Refusal, type WireRequest, type WireResponse } from '../../shared/contract/client';

/** The response shape a contract schema describes, as it arrives on the wire. */
export type Wire<S extends z.ZodTypeAny> = z.output<S>;

/** An answer the service refused: its status, the envelope's code and message, and field details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Array<{ field: string; message: string }> = [],
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const KEY_STORE = 'bds.key';

/** The key of this tab: kept in sessionStorage (gone when the tab closes), never in localStorage or a cookie. */
export const session = {
  key(): string | null {
    return sessionStorage.getItem(KEY_STORE);
  },
  signIn(key: string): void {
    sessionStorage.setItem(KEY_STORE, key);
  },
  signOut(): void {
    sessionStorage.removeItem(KEY_STORE);
  },
};

/** One request with fetch; a failed network is ApiError status 0, an abort stays an AbortError. */
async function fetchTransport(request: WireRequest): Promise<WireResponse> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body as BodyInit | undefined,
      signal: request.signal,
      cache: 'no-store',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK', 'the service could not be reached');
  }
  const text = await response.text();
  return { status: response.status, header: (name) => response.headers.get(name), text };
}

const refused = (refusal: Refusal) =>
  new ApiError(refusal.status, refusal.code, refusal.message, refusal.details, refusal.retryAfterSeconds);

/** A client that sends `bearer()` (a key, a customer's access token) as the bearer header of every call. */
export function clientWith(bearer: () => string | null): Client {
  return createClient({
    baseUrl: '',
    transport: fetchTransport,
    headers: (): Record<string, string> => {
      const key = bearer();
      return key ? { Authorization: `Bearer ${key}` } : {};
    },
    refused,
  });
}

/**
 * The typed client of the operations table (shared/contract/client.ts) for this tab: the session's
 * key as the bearer header, refusals as ApiError. `client.getCustomer({ customerId })`.
 */
export const client = clientWith(() => session.key());

/** A fresh Idempotency-Key for one create. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
