import type { z, ZodTypeAny } from 'zod';
import { endpoints, type Endpoint, type OperationId } from './endpoints';
import type { OperationSchemaTable, Resolved } from './operations';

/*
 * The typed client of the JSON API, derived from the operations table: one method per operationId,
 * `client.updateCustomer({ customerId }, body)`, whose params, body, query and answer are the table's
 * schemas' types. The envelope and the refusals are read here once; how bytes travel (undici in the
 * CLI, fetch in the browser and the tests) and how a caller proves who it is (a key, a cookie) is the
 * transport's. Only types are taken from the schemas, so a browser bundle carries endpoints.ts alone.
 */

type Table = OperationSchemaTable;
type Addresses = typeof endpoints;

type SchemaOf<K extends OperationId, F extends string> = Table[K] extends Record<F, infer S> ? Resolved<S> : never;

/** A path parameter's value as the caller gives it. */
export type ParamsOf<K extends OperationId> = SchemaOf<K, 'params'> extends ZodTypeAny ? z.input<SchemaOf<K, 'params'>> : never;

/** A query value as it is written in the URL: a number, a boolean or text; null and undefined are left out. */
type QueryValue<T> = NonNullable<T> extends Date ? string : NonNullable<T>;
export type QueryOf<K extends OperationId> = SchemaOf<K, 'query'> extends ZodTypeAny
  ? { [F in keyof z.output<SchemaOf<K, 'query'>>]?: QueryValue<z.output<SchemaOf<K, 'query'>>[F]> | null }
  : never;

/** A multipart form as the transport sends it (undici's or the browser's FormData). */
export type FormBody = object;
/** Raw bytes and their media type (a logo). */
export interface BytesBody {
  bytes: Uint8Array | Blob;
  contentType: string;
}

export type BodyOf<K extends OperationId> = Addresses[K] extends { body: 'json' }
  ? SchemaOf<K, 'body'> extends ZodTypeAny ? z.input<SchemaOf<K, 'body'>> : never
  : Addresses[K] extends { body: 'form' } ? FormBody
  : Addresses[K] extends { body: 'bytes' } ? BytesBody
  : never;

/** What the operation answers in the envelope's `data`, as it arrives on the wire. */
export type AnswerOf<K extends OperationId> = Table[K]['response'] extends ZodTypeAny ? z.output<Table[K]['response']> : never;

export interface CallOptions {
  signal?: AbortSignal;
  /** An Idempotency-Key for this POST (a client made with `idempotencyKeys` gives every JSON POST one). */
  idempotencyKey?: string;
  /** Headers for this call only (another key than the session's, when checking one). */
  headers?: Readonly<Record<string, string>>;
}

type HasParams<K extends OperationId> = Addresses[K]['path'] extends `${string}:${string}` ? true : false;

/** A method's arguments: its path params, its body, its query (each only when it has them), then the call's options. */
export type ArgsOf<K extends OperationId> = [
  ...(HasParams<K> extends true ? [params: ParamsOf<K>] : []),
  ...(Addresses[K] extends { body: string } ? [body: BodyOf<K>] : []),
  ...(Addresses[K] extends { query: true } ? [query?: QueryOf<K>] : []),
  options?: CallOptions,
];

/** The operations answered in the envelope; the others (an image) are reached by their URL (`Client.path`). */
type CallableId = { [K in OperationId]: Addresses[K] extends { answer: 'bytes' } ? never : K }[OperationId];
type LinkId = Exclude<OperationId, CallableId>;

export type Client = { readonly [K in CallableId]: (...args: ArgsOf<K>) => Promise<AnswerOf<K>> } & {
  /** The path and query of an operation (an image, a link to hand on), from the client's base URL. */
  path<K extends LinkId | CallableId>(id: K, ...args: PathArgs<K>): string;
};

type PathArgs<K extends OperationId> = [
  ...(HasParams<K> extends true ? [params: ParamsOf<K>] : []),
  ...(Addresses[K] extends { query: true } ? [query?: QueryOf<K>] : []),
];

export interface ErrorDetail {
  field: string;
  message: string;
}

/** A refused request, as the error envelope said it (or as its status says, when a proxy answered). */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  details: ErrorDetail[];
  requestId: string | null;
  retryAfterSeconds: number | null;
}

/** The error a refusal becomes unless the client is told otherwise. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[];
  readonly requestId: string | null;
  readonly retryAfterSeconds: number | null;

  constructor(refusal: Refusal) {
    super(refusal.message);
    this.name = 'ApiError';
    this.status = refusal.status;
    this.code = refusal.code;
    this.details = refusal.details;
    this.requestId = refusal.requestId;
    this.retryAfterSeconds = refusal.retryAfterSeconds;
  }
}

/** One request as the transport sends it. */
export interface WireRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The base URL, the path and the query. */
  url: string;
  headers: Record<string, string>;
  /** JSON text, a form, or raw bytes (their Content-Type is in `headers`). */
  body?: string | FormBody | Uint8Array | Blob;
  signal?: AbortSignal;
}

/** What came back; a transport throws its own error when nothing did (the network failed). */
export interface WireResponse {
  status: number;
  header(name: string): string | null;
  text: string;
}

export type Transport = (request: WireRequest) => Promise<WireResponse>;

export interface ClientOptions {
  /** Where the API is: `https://downloads.example.com`, or '' for the page's own origin. */
  baseUrl: string;
  transport: Transport;
  /** Headers every call carries (the key, the user agent); read at each call. */
  headers?: () => Readonly<Record<string, string>>;
  /** Gives every JSON POST a fresh Idempotency-Key, so that one retried after a lost answer acts once. */
  idempotencyKeys?: () => string;
  /** What a refusal becomes (the CLI's error with its exit code); ApiError otherwise. */
  refused?: (refusal: Refusal) => Error;
}

type Values = Readonly<Record<string, unknown>>;

/** The path with each `:name` replaced by its value, escaped as one segment. */
export function fillPath(template: string, params: Values | undefined): string {
  return template.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new TypeError(`the path ${template} needs ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** `?a=1&b=x`, leaving out the parameters without a value ('' included). */
export function queryString(query: Values | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

interface Envelope {
  success?: boolean;
  data?: unknown;
  error?: { code?: string; message?: string; details?: ErrorDetail[] };
}

function readEnvelope(text: string): Envelope | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Envelope) : undefined;
  } catch {
    return undefined;
  }
}

/** The refusal an answer says, or undefined for a success in the envelope. */
export function refusalOf(response: WireResponse): Refusal | undefined {
  const envelope = readEnvelope(response.text);
  if (response.status < 400 && envelope?.success === true) return undefined;
  const retryAfter = Number(response.header('retry-after'));
  return {
    status: response.status,
    code: envelope?.error?.code ?? `HTTP_${response.status}`,
    message: envelope?.error?.message ?? `the service answered ${response.status} without an error envelope`,
    details: Array.isArray(envelope?.error?.details) ? envelope.error.details : [],
    requestId: response.header('x-request-id'),
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  };
}

const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Splits a method's arguments by what its endpoint takes. */
function readArgs(endpoint: Endpoint, args: readonly unknown[]) {
  let next = 0;
  const params = endpoint.path.includes(':') ? (args[next++] as Values) : undefined;
  const body = endpoint.body ? args[next++] : undefined;
  const query = endpoint.query ? (args[next++] as Values | undefined) : undefined;
  return { params, body, query, options: (args[next] ?? {}) as CallOptions };
}

export function createClient(options: ClientOptions): Client {
  const refused = options.refused ?? ((refusal: Refusal) => new ApiError(refusal));

  async function call(endpoint: Endpoint, args: readonly unknown[]): Promise<unknown> {
    const { params, body, query, options: call } = readArgs(endpoint, args);
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers?.(), ...call.headers };
    let wireBody: WireRequest['body'];
    if (endpoint.body === 'json') {
      headers['content-type'] = 'application/json';
      wireBody = JSON.stringify(body ?? {});
    } else if (endpoint.body === 'bytes') {
      const bytes = body as BytesBody;
      headers['content-type'] = bytes.contentType;
      wireBody = bytes.bytes;
    } else if (endpoint.body === 'form') {
      wireBody = body as FormBody;
    }
    const idempotencyKey = call.idempotencyKey ?? (endpoint.method === 'post' && endpoint.body !== 'form' ? options.idempotencyKeys?.() : undefined);
    if (idempotencyKey) headers[IDEMPOTENCY_KEY_HEADER] = idempotencyKey;
    const response = await options.transport({
      method: endpoint.method.toUpperCase() as WireRequest['method'],
      url: options.baseUrl + fillPath(endpoint.path, params) + queryString(query),
      headers,
      body: wireBody,
      signal: call.signal,
    });
    const refusal = refusalOf(response);
    if (refusal) throw refused(refusal);
    return (readEnvelope(response.text) as Envelope).data;
  }

  const methods: Record<string, unknown> = {};
  for (const [id, endpoint] of Object.entries(endpoints) as [OperationId, Endpoint][]) {
    if (endpoint.answer !== 'bytes') methods[id] = (...args: unknown[]) => call(endpoint, args);
  }
  methods.path = (id: OperationId, ...args: unknown[]) => {
    const endpoint: Endpoint = endpoints[id];
    const { params, query } = readArgs({ ...endpoint, body: undefined }, args);
    return options.baseUrl + fillPath(endpoint.path, params) + queryString(query);
  };
  return methods as Client;
}
