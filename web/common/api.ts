// The one way the browser apps talk to the service: the public /v1 API, with the key held for this tab
// as the bearer header. Answers are typed from the service's own contract (shared/contract/), so a
// field renamed there fails the front end's type check.
import type { z } from 'zod';
import { createClient, refusalOf, type WireRequest, type WireResponse } from '../../shared/contract/client';

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

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** A raw body sent as it is, with its own type (a logo image), instead of a JSON `body`. */
  bytes?: Blob;
  /** Another key than the session's (sign-in checks a key before keeping it). */
  key?: string;
  signal?: AbortSignal;
  /** An Idempotency-Key, so a retried create does not create twice. */
  idempotencyKey?: string;
}

/** The path with its query, leaving out the parameters without a value. */
export function withQuery(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

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

const refused = (refusal: NonNullable<ReturnType<typeof refusalOf>>) =>
  new ApiError(refusal.status, refusal.code, refusal.message, refusal.details, refusal.retryAfterSeconds);

/**
 * The typed client of the operations table (shared/contract/client.ts) for this tab: the session's
 * key as the bearer header, refusals as ApiError. `client.getCustomer({ customerId })`.
 */
export const client = createClient({
  baseUrl: '',
  transport: fetchTransport,
  headers: (): Record<string, string> => {
    const key = session.key();
    return key ? { Authorization: `Bearer ${key}` } : {};
  },
  refused,
});

/** Calls the API and answers the envelope's `data`, or throws ApiError (status 0: the network failed). */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const key = options.key ?? session.key();
  if (key) headers.Authorization = `Bearer ${key}`;
  if (options.bytes) headers['Content-Type'] = options.bytes.type || 'application/octet-stream';
  else if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  const response = await fetchTransport({
    method: options.method ?? 'GET',
    url: withQuery(path, options.query),
    headers,
    body: options.bytes ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    signal: options.signal,
  });
  const refusal = refusalOf(response);
  if (refusal) throw refused(refusal);
  return (JSON.parse(response.text) as { data: T }).data;
}

/** A fresh Idempotency-Key for one create. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
