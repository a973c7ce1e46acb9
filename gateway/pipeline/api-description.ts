import { STATUS_CODES } from 'node:http';
import { OpenAPIRegistry, OpenApiGeneratorV31, ResponseConfig, RouteConfig, ZodRequestBody } from '@asteasolutions/zod-to-openapi';
import { AnyZodObject, z, ZodTypeAny } from 'zod';
import { ADMIN_KEY_PREFIX } from '../../shared/api-keys';
import { ERROR_CODES, ErrorCode } from '../../shared/errors';
import { SCOPES } from '../../shared/scopes';
import type { Guard } from '../http/context';
import { isRateLimited } from '../rate-limits/rate-limiting';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../../shared/policy';
import { isStreamedBody, OPERATION_ID_PATTERN, takesIdempotencyKey, type Route, type StreamedBody } from '../http/route';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, REPLAYED_HEADER } from '../idempotency/idempotent-requests';

// Adds `.openapi()` to zod's prototypes: the generator calls it on the fields of params and queries.
import '../../shared/contract/openapi-extension';

export type ApiDescription = ReturnType<OpenApiGeneratorV31['generateDocument']>;

export interface ApiDescriptionOptions {
  /** Where the API is served: the document's server. */
  serverUrl: string;
  version: string;
}

/**
 * The service is not open source (package.json: UNLICENSED). OpenAPI 3.1 names a licence and gives
 * its SPDX identifier or URL: SPDX has no identifier for "all rights reserved", so a LicenseRef.
 */
const LICENSE = { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' };

/** How each guard's caller proves who it is (components.securitySchemes). */
const SECURITY_SCHEMES = {
  adminKey: {
    type: 'http', scheme: 'bearer', bearerFormat: `${ADMIN_KEY_PREFIX}<secret>`,
    description: `An admin API key: management, statistics and activity. Each operation names the scope it needs (${SCOPES.join(', ')}). `
      + `The keys of ADMIN_API_KEYS hold every scope; a scoped key (${ADMIN_KEY_PREFIX}..., issued by POST /v1/management/apikeys) must hold `
      + 'that scope or admin, and one limited to applications is refused (403) on an operation for another application or none.',
  },
  customerKey: { type: 'http', scheme: 'bearer', bearerFormat: '<customerId>.<secret>', description: 'A customer API key, issued by an admin: downloads and share links.' },
  metricsToken: { type: 'http', scheme: 'bearer', description: 'The metrics token (METRICS_TOKEN): the Prometheus scrape.' },
} as const;

/** Who may call a route, by its guard: an admin route's requirement names its scope (OpenAPI 3.1 allows roles for any scheme). */
const SECURITY: Record<Guard, (route: Route) => Array<Record<string, string[]>>> = {
  admin: (route) => [{ adminKey: route.scope ? [route.scope] : [] }],
  customer: () => [{ customerKey: [] }],
  key: () => [{ adminKey: [] as string[] }, { customerKey: [] as string[] }] as Array<Record<string, string[]>>,
  none: () => [],
  metrics: () => [{ metricsToken: [] }],
};

/** The failures each guard can answer with. */
const GUARD_FAILURES: Record<Guard, readonly number[]> = {
  admin: [401, 403],
  customer: [401, 403],
  key: [401, 403],
  metrics: [401],
  none: [],
};

/** Response headers, as OpenAPI's header objects. */
type HeadersObject = Record<string, { description: string; required?: boolean; schema: Record<string, unknown> }>;

const BODY_METHODS: ReadonlySet<string> = new Set(['post', 'put', 'patch']);

/**
 * The failures any request may meet whatever its route (`default`): the protocol's refusals before a
 * route is chosen (protocol-errors.ts) and an unexpected failure. Every other failure is listed per
 * route, by its status.
 */
const ANY_ROUTE_FAILURES: readonly number[] = [408, 417, 431, 500];

/** Failures answered before the handler runs, which an Idempotency-Key replay never is. */
const REFUSED_BEFORE_HANDLING: ReadonlySet<number> = new Set([401, 413, 415, 429]);

const RATE_LIMIT_HEADERS: HeadersObject = {
  'RateLimit-Policy': {
    description: 'The rate-limit policies the request was counted under (draft-ietf-httpapi-ratelimit-headers): "<policy>";q=<requests>;w=<window in seconds>, one item per policy',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'What is left of each policy: "<policy>";r=<requests remaining>;t=<seconds until the window ends>',
    schema: { type: 'string' },
  },
};

const RETRY_AFTER_HEADER: HeadersObject = {
  'Retry-After': { required: true, description: 'Seconds until the window that refused the request ends', schema: { type: 'integer', minimum: 1 } },
};

const REPLAYED_HEADERS: HeadersObject = {
  [REPLAYED_HEADER]: {
    description: `"true" on the kept answer to an earlier request with the same ${IDEMPOTENCY_KEY_HEADER}, replayed`,
    schema: { type: 'string', enum: ['true'] },
  },
};

/**
 * The API description (OpenAPI 3.1) of `routes`, generated from their declarations: path, guard,
 * the zod schemas of params, query, body and response, the statuses. Nothing in it is written by
 * hand: a route added to the table is described as it is declared.
 *
 * Every JSON answer is in the envelope: `{success: true, data}` around the route's response schema,
 * `{success: false, error: {code, message, details?}}` for failures. A route lists the failures its
 * declaration implies (400 for every route, since every one validates its query; 401 and 403 behind a
 * guard; 404 with path parameters; 413 and 415 where a body is read; 429 where it is rate-limited;
 * 409 and 422 with the Idempotency-Key header it takes; 503 when a dependency is down) and those it
 * declares (`failures`), each with the codes its status carries, and `default` for the failures any
 * request may meet (ANY_ROUTE_FAILURES). Responses carry the headers the steps of the route set:
 * RateLimit and RateLimit-Policy where it is rate-limited, Retry-After on 429, Idempotent-Replayed
 * where it takes an Idempotency-Key. A GET also answers HEAD.
 */
export function describeApi(routes: readonly Route[], options: ApiDescriptionOptions): ApiDescription {
  const registry = new OpenAPIRegistry();
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) registry.registerComponent('securitySchemes', name, { ...scheme });
  const errors = errorResponses(registry);
  checkOperationIds(routes);
  for (const route of routes) registry.registerPath(describeRoute(route, errors));
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Binary Distribution Service',
      version: options.version,
      description: 'Vendors publish files per application version; customers download them through pre-signed URLs and share links. '
        + 'Every JSON answer is in the envelope; every GET also answers HEAD (same status and headers, no body). '
        + 'Lengths are counted in characters (Unicode code points), as JSON Schema counts them.',
      license: LICENSE,
    },
    servers: [{ url: options.serverUrl }],
  });
  allowNullInNullableEnums(document);
  return document;
}

/** Every operation has its own well-formed operationId (a table that repeats one does not start). */
function checkOperationIds(routes: readonly Route[]): void {
  const seen = new Map<string, Route>();
  for (const route of routes) {
    const where = `${route.method.toUpperCase()} ${route.path}`;
    if (!OPERATION_ID_PATTERN.test(route.operationId)) throw new Error(`${where}: operationId "${route.operationId}" is not lower camel case (${OPERATION_ID_PATTERN})`);
    const other = seen.get(route.operationId);
    if (other) throw new Error(`${where}: operationId "${route.operationId}" is already ${other.method.toUpperCase()} ${other.path}'s`);
    seen.set(route.operationId, route);
  }
}

/**
 * zod-to-openapi 7 writes a nullable enum or literal as `type: [..., 'null']` with `enum` listing only
 * the values, which refuses null after all: null joins the listed values.
 */
function allowNullInNullableEnums(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) allowNullInNullableEnums(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as { type?: unknown; enum?: unknown[] };
  if (Array.isArray(schema.type) && schema.type.includes('null') && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum.push(null);
  for (const value of Object.values(node)) allowNullInNullableEnums(value);
}

/** The OpenAPI form of a route path: `/things/:thingId` and `/objects/:key(.+)` become `{thingId}` and `{key}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)(\([^)]*\))?/g, '{$1}');
}

function describeRoute(route: Route, errors: ErrorResponses): RouteConfig {
  return {
    method: route.method,
    path: openApiPath(route.path),
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    security: SECURITY[route.guard](route),
    request: {
      ...(route.params ? { params: describedParams(route.path, route.params) } : {}),
      ...(route.query ? { query: route.query as never } : {}),
      ...(route.body ? { body: requestBody(route.body) } : {}),
      ...(takesKeyHeader(route) ? { headers: IDEMPOTENCY_HEADER } : {}),
    },
    responses: {
      ...Object.fromEntries(statusesOf(route).filter((status) => status < 400).map((status) => [status, withHeaders(success(route, status), headersOf(route, status))])),
      ...Object.fromEntries(failureStatuses(route).map((status) => [status, withHeaders(errors.of(status), headersOf(route, status))])),
      default: errors.anyRoute,
    },
  };
}

/** The headers the route's steps set on an answer with `status`. */
function headersOf(route: Route, status: number): HeadersObject {
  return {
    ...(status >= 300 && status < 400 && status !== 304 ? { Location: { required: true, description: 'Where to go', schema: { type: 'string', format: 'uri' } } } : {}),
    ...(status === 304 ? { ETag: { required: true, description: 'The validator the request matched', schema: { type: 'string' } } } : {}),
    ...(isRateLimited(route) && status !== 401 ? RATE_LIMIT_HEADERS : {}),
    ...(status === 429 ? RETRY_AFTER_HEADER : {}),
    ...(takesKeyHeader(route) && status < 500 && !REFUSED_BEFORE_HANDLING.has(status) ? REPLAYED_HEADERS : {}),
  };
}

function withHeaders(response: ResponseConfig, headers: HeadersObject): ResponseConfig {
  return Object.keys(headers).length === 0 ? response : { ...response, headers: headers as ResponseConfig['headers'] };
}

/** A route that takes an Idempotency-Key: a POST behind a key whose body is not streamed (gateway/idempotency/). */
const takesKeyHeader = (route: Route): boolean => takesIdempotencyKey(route) && !isStreamedBody(route.body);

const IDEMPOTENCY_HEADER = z.object({
  [IDEMPOTENCY_KEY_HEADER]: z.string().regex(IDEMPOTENCY_KEY_PATTERN).max(IDEMPOTENCY_KEY_MAX_LENGTH + 2).optional().openapi({
    description: 'Sent again with the same request, the first answer is replayed (Idempotent-Replayed: true) for 24 h; with another request 422, while the first runs 409',
  }),
});

/** Path parameters, those matching a pattern of their own that may hold '/' (`:key(.+)`) saying so. */
function describedParams(path: string, params: AnyZodObject): AnyZodObject {
  const patterns = [...path.matchAll(/:(\w+)\(([^)]*)\)/g)].filter(([, , pattern]) => pattern.includes('.'));
  if (patterns.length === 0) return params;
  return params.extend(Object.fromEntries(patterns.map(([, name, pattern]) => [
    name, (params.shape[name] as ZodTypeAny).openapi({ description: `Matches ${pattern} in the path, '/' included` }),
  ])));
}

function requestBody(body: ZodTypeAny | StreamedBody): ZodRequestBody {
  if (body instanceof z.ZodType) {
    // A JSON route reads a missing body as {}: the body is required unless {} is valid.
    return { required: !body.safeParse({}).success, content: { 'application/json': { schema: body } } };
  }
  if (body.kind === 'bytes') {
    const mediaTypes = body.mediaTypes ?? ['application/octet-stream'];
    return { required: true, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } as never }])) };
  }
  const file = z.string().openapi({ contentMediaType: 'application/octet-stream', description: 'The file, with its file name' } as never);
  const form = (body.fields ?? z.object({}).strict()).extend({ [body.fileField ?? 'file']: file });
  return { required: true, content: { 'multipart/form-data': { schema: form } } };
}

function statusesOf(route: Route): readonly number[] {
  return typeof route.status === 'number' ? [route.status] : route.status;
}

function success(route: Route, status: number): ResponseConfig {
  const description = STATUS_CODES[status] ?? String(status);
  // HTTP sends no content with 204 or 304, whatever the route's other answers carry.
  if (status === 204 || status === 304) return { description };
  const { response } = route;
  let content: ResponseConfig['content'];
  // A 206 carries part of a file's bytes (Reply.written), whatever the route answers otherwise.
  if (response === 'bytes' || status === 206) content = { '*/*': { schema: { type: 'string', description: 'The bytes, with their stored media type' } } };
  else if (response instanceof z.ZodType) content = { 'application/json': { schema: z.object({ success: z.literal(true), data: response }).strict() } };
  else content = { [response.mediaType]: { schema: { description: response.description } } };
  return { description, content };
}

/** The failures a route's declaration implies, and those it declares among its statuses. */
function failureStatuses(route: Route): number[] {
  const statuses = new Set<number>([400, 503]);
  for (const status of GUARD_FAILURES[route.guard]) statuses.add(status);
  if (route.params) statuses.add(404);
  if (BODY_METHODS.has(route.method)) statuses.add(413).add(415);
  if (isRateLimited(route)) statuses.add(429);
  if (takesKeyHeader(route)) statuses.add(409).add(422);
  for (const status of statusesOf(route)) if (status >= 400) statuses.add(status);
  for (const status of route.failures ?? []) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

interface ErrorResponses {
  of(status: number): ResponseConfig;
  /** The failures any request may meet (ANY_ROUTE_FAILURES). */
  anyRoute: ResponseConfig;
}

/**
 * The failure envelope, as components: one schema per status with that status's codes, and one with
 * the codes of ANY_ROUTE_FAILURES. Only what an operation refers to is a component.
 */
function errorResponses(registry: OpenAPIRegistry): ErrorResponses {
  const detail = registry.register('ErrorDetail', z.object({ field: z.string(), message: z.string() }).strict());
  const envelope = (codes: readonly ErrorCode[]) => z.object({
    success: z.literal(false),
    error: z.object({ code: z.enum(codes as [ErrorCode, ...ErrorCode[]]), message: z.string(), details: z.array(detail).optional(), resetsAt: z.string().datetime().optional() }).strict(),
  }).strict();
  const allCodes = Object.keys(ERROR_CODES) as ErrorCode[];
  const codesOf = (statuses: readonly number[]) => {
    const codes = allCodes.filter((code) => statuses.includes(ERROR_CODES[code]));
    if (codes.length === 0) throw new Error(`no error code is sent with status ${statuses.join(', ')} (shared/errors.ts ERROR_CODES)`);
    return codes;
  };
  const anyRouteCodes = codesOf(ANY_ROUTE_FAILURES);
  const anyRoute = registry.register('ErrorOfAnyRoute', envelope(anyRouteCodes));
  const byStatus = new Map<number, ResponseConfig>();
  return {
    of: (status) => {
      let response = byStatus.get(status);
      if (!response) {
        const codes = codesOf([status]);
        const schema = registry.register(`Error${status}`, envelope(codes));
        response = { description: `${STATUS_CODES[status]}: ${codes.join(', ')}`, content: { 'application/json': { schema } } };
        byStatus.set(status, response);
      }
      return response;
    },
    anyRoute: { description: `What any request may meet: ${anyRouteCodes.join(', ')}`, content: { 'application/json': { schema: anyRoute } } },
  };
}
