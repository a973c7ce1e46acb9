import { type AnyZodObject, z, type ZodTypeAny } from 'zod';
import type { Scope } from '../../shared/scopes';
import type { ResponseDeclaration, StreamedBody } from '../../shared/contract/operation-kinds';

export { documentResponse, isStreamedBody, multipartForm, rawBytes, rawBytesOf } from '../../shared/contract/operation-kinds';
export type { BytesResponse, DocumentResponse, ResponseDeclaration, StreamedBody } from '../../shared/contract/operation-kinds';
import type { ApplicationSource, FieldSource } from './access';
import type { AppContext, CallerOf, Guard } from './context';
import type { Eventually } from './eventually';
import type { Reply } from './reply';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * A route's template as metrics and logs name it: its path without the router's patterns
 * (`/v1/objects/:key(.+)` is `/v1/objects/:key`).
 */
export function routeTemplate(path: string): string {
  return path.replace(/\([^)]*\)/g, '');
}

/**
 * What the handler of a streamed-body route gets as its body: the checks the route declares on the
 * body's fields (the application an application-limited key may act on). The handler reads the form
 * itself, so it runs them on the fields sent before the file when the file part starts (a field not
 * sent yet passes), and on the whole form before acting on it. A refusal throws.
 */
export interface FieldAdmission {
  partial(fields: Readonly<Record<string, string>>): Promise<void>;
  whole(fields: Readonly<Record<string, string>>): Promise<void>;
}

/** What a route without params or a query schema gets: nothing. */
export type NoInput = Readonly<Record<string, never>>;

type Parsed<S> = S extends ZodTypeAny ? z.output<S> : NoInput;

export interface RouteInput<P, Q, B> {
  readonly params: P;
  readonly query: Q;
  readonly body: B;
}

type Answer<R> = R extends ZodTypeAny ? z.input<R> | Reply<z.input<R>> : void | Reply<never>;

type BodyInput<B> = B extends ZodTypeAny ? z.output<B> : B extends StreamedBody ? FieldAdmission : undefined;

/** An operationId: a verb and what it acts on, in lower camel case (`getElectronChannelFile`). */
export const OPERATION_ID_PATTERN = /^[a-z][a-zA-Z0-9]{2,63}$/;

export { AUDIT_ACTION_PATTERN } from '../../shared/contract/audit-requests';

/**
 * How a management write is recorded in the audit log (by the route builder, for every write the
 * route answers, see pipeline/route-builder.ts).
 */
export interface AuditDeclaration {
  /** `<resource>.<verb>` (`application.update`): what the audit log's `action` filter names. */
  action: string;
  /** What the write acts on: a field, or several joined by '/' (`desktop-client/1.2.0`). */
  target: FieldSource | readonly FieldSource[];
  /** The application the write concerns when the route's `application` does not say (a creation's result). */
  application?: FieldSource;
}

/**
 * One route, declared as data: what it accepts, who may call it and what it answers. The builder
 * (pipeline/route-builder.ts) turns the table into the router: guard, then params, query and body validated
 * against these schemas (all problems reported together, 400 VALIDATION_ERROR), then `handle`, whose
 * result is sent in the envelope with `status`. A route without a query schema takes no query
 * parameters, and query schemas must be strict: an unknown parameter is a 400 on every route.
 * The same declaration is the route's entry in the API description (pipeline/api-description.ts): nothing
 * else needs writing for GET /v1/openapi.json to describe it.
 */
export interface RouteDefinition<G extends Guard, P, Q, B, R> {
  method: Method;
  /** Koa-router syntax (`/v1/things/:thingId`); every `:param` is described by `params`. */
  path: string;
  guard: G;
  /** Admin routes: the scope a key needs (shared/scopes.ts); required, see `route()`. */
  scope?: Scope;
  /**
   * Admin routes that act on one application: where the request names it. A key limited to
   * applications is refused (403) on a route that declares none, and on one naming another.
   */
  application?: ApplicationSource;
  /** Admin routes that write: their audit-log entry; required, see `route()`. */
  audit?: AuditDeclaration;
  /**
   * The operation's name in the API description, unique in the table and stable (generated clients
   * name their methods after it): `listApplications`, `createCustomer`, lower camel case.
   */
  operationId: string;
  /** One line for people reading the API description. */
  summary: string;
  /**
   * What a caller must know that the schemas cannot say (Markdown: the rules between fields, what
   * happens to stored records, what a repeat does), for the API description and docs/api.md.
   */
  description?: string;
  params?: P;
  query?: Q;
  /** A JSON body schema, or a body the handler streams itself. */
  body?: B;
  /** The success status; a handler picks another listed one with Reply.withStatus. */
  status: number | readonly number[];
  /**
   * The failure statuses its handler answers with besides those the declaration implies
   * (pipeline/api-description.ts): 404 for a record named in the query or body, 409 for a state that forbids
   * the request, 410 for what has expired or been withdrawn. The API description lists them.
   */
  failures?: readonly number[];
  /** The schema of `data` in the success envelope, or what the handler writes itself. */
  response: R;
  /**
   * Answered by the hot lane ahead of the router (exact spellings only) as well as by the
   * router; its validated inputs are remembered by URL, so a repeated request parses nothing.
   */
  hot?: boolean;
  /**
   * Every answer, refusals included, carries `Cache-Control: no-store`: what it answers is for one
   * caller, and no cache between may keep it (the update feeds).
   */
  noStore?: boolean;
  /**
   * For a route without a key: its uses are rate-limited per value of this path parameter (the
   * `share-link` policy; values are counted by their SHA-256) and per client address (`share-client`).
   * Routes with a key are limited per key without saying so (gateway/rate-limits/).
   */
  limitedPer?: string;
  handle(input: RouteInput<Parsed<P>, Parsed<Q>, BodyInput<B>>, ctx: AppContext, caller: CallerOf<G>): Eventually<Answer<R>>;
}

/**
 * What the guard obliges a declaration to state: an admin route its scope, and an admin route that
 * writes its audit entry; other routes none of them. A route that leaves one out does not compile.
 */
export type Obligations<M extends Method, G extends Guard> = G extends 'admin'
  ? { scope: Scope } & (M extends 'get' ? { audit?: never } : { audit: AuditDeclaration })
  : { scope?: never; application?: never; audit?: never };

export type Route = RouteDefinition<Guard, AnyZodObject | undefined, ZodTypeAny | undefined, ZodTypeAny | StreamedBody | undefined, ResponseDeclaration>;

/** Declares a route; the types of its handler's input, caller and result follow from the declaration. */
export function route<
  M extends Method,
  G extends Guard,
  R extends ResponseDeclaration,
  P extends AnyZodObject | undefined = undefined,
  Q extends ZodTypeAny | undefined = undefined,
  B extends ZodTypeAny | StreamedBody | undefined = undefined,
>(definition: RouteDefinition<G, P, Q, B, R> & { method: M } & Obligations<M, G>): Route {
  return definition as unknown as Route;
}

/**
 * Whether a route takes an Idempotency-Key (gateway/idempotency/): every POST that needs a key. One
 * whose body is streamed refuses the header, since its body cannot be compared with a first request's.
 */
export function takesIdempotencyKey(route: Route): boolean {
  return route.method === 'post' && route.guard !== 'none';
}
