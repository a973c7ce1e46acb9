import { randomUUID } from 'node:crypto';
import { Dispatcher, FormData, request } from 'undici';
import { ApiError, NetworkError } from '../errors';
import { USER_AGENT } from '../version';
import { apiAgent, keyedPostAgent } from './agents';

type QueryValue = string | number | boolean | undefined | null;
export type Query = Record<string, QueryValue>;

export interface ApiResponse<T> {
  status: number;
  data: T;
  requestId: string | null;
}

interface Envelope {
  success?: boolean;
  data?: unknown;
  error?: { code?: string; message?: string; details?: unknown };
}

/** A path with each interpolated value escaped as one path segment: apiPath`/v1/x/${id}`. */
export function apiPath(strings: TemplateStringsArray, ...values: string[]): string {
  return strings.reduce((built, part, index) => built + part + (index < values.length ? encodeURIComponent(values[index]) : ''), '');
}

/** The header under which the service runs a POST once per key and caller (docs/api-conventions.md, Idempotency keys). */
const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/**
 * The management and download API over HTTP: bearer key, JSON in, the `{success, data}` envelope
 * out. An error envelope becomes an ApiError, a connection that fails a NetworkError. Every JSON
 * POST carries a fresh Idempotency-Key, so a POST whose answer was lost is retried without acting
 * twice; a form POST (the small upload, which refuses the header) is sent once.
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly dispatcher: Dispatcher = apiAgent,
    private readonly keyedDispatcher: Dispatcher = keyedPostAgent,
  ) {}

  get<T>(path: string, query?: Query): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, { query });
  }

  post<T>(path: string, body?: unknown): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, { body });
  }

  patch<T>(path: string, body: unknown): Promise<ApiResponse<T>> {
    return this.request<T>('PATCH', path, { body });
  }

  put<T>(path: string, body?: unknown): Promise<ApiResponse<T>> {
    return this.request<T>('PUT', path, { body });
  }

  delete<T>(path: string): Promise<ApiResponse<T>> {
    return this.request<T>('DELETE', path, {});
  }

  postForm<T>(path: string, form: FormData): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, { form });
  }

  /** PUTs raw bytes of a media type (an image), not JSON. */
  putBytes<T>(path: string, bytes: Buffer, contentType: string): Promise<ApiResponse<T>> {
    return this.request<T>('PUT', path, { bytes: { body: bytes, contentType } });
  }

  async request<T>(method: Dispatcher.HttpMethod, path: string, options: { query?: Query; body?: unknown; form?: FormData; bytes?: { body: Buffer; contentType: string } }): Promise<ApiResponse<T>> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}`, accept: 'application/json', 'user-agent': USER_AGENT };
    let body: string | FormData | Buffer | undefined;
    let dispatcher = this.dispatcher;
    if (options.form) {
      body = options.form;
    } else if (options.bytes) {
      headers['content-type'] = options.bytes.contentType;
      body = options.bytes.body;
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    if (method === 'POST' && !options.form) {
      headers[IDEMPOTENCY_KEY_HEADER] = randomUUID();
      dispatcher = this.keyedDispatcher;
    }

    let response: Dispatcher.ResponseData;
    let text: string;
    try {
      response = await request(url, { method, headers, body, dispatcher });
      text = await response.body.text();
    } catch (error) {
      throw new NetworkError(`cannot reach ${this.baseUrl}: ${describeNetworkFailure(error)}`, error);
    }
    const requestId = headerValue(response.headers['x-request-id']);
    const envelope = parseEnvelope(text);
    if (response.statusCode >= 400 || !envelope || envelope.success !== true) {
      throw new ApiError(
        response.statusCode,
        envelope?.error?.code ?? `HTTP_${response.statusCode}`,
        envelope?.error?.message ?? `the service answered ${response.statusCode} without an error envelope`,
        requestId,
        envelope?.error?.details,
      );
    }
    return { status: response.statusCode, data: envelope.data as T, requestId };
  }
}

function parseEnvelope(text: string): Envelope | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Envelope) : undefined;
  } catch {
    return undefined;
  }
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
