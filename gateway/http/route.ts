import type { AnyZodObject, z, ZodTypeAny } from 'zod';
import type { GatewayDeps } from '../gateway-deps';
import type { AppContext } from './context';
import type { Eventually } from './eventually';
import type { CallerOf, Guard } from './guards';
import type { Reply } from './reply';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * A request body the handler reads as a stream, never parsed ahead: a multipart form (its text
 * fields described by `fields`) or raw bytes. Declared so that the table describes every body.
 */
export interface StreamedBody {
  kind: 'multipart' | 'bytes';
  fields?: AnyZodObject;
}

export const multipartForm = (fields: AnyZodObject): StreamedBody => ({ kind: 'multipart', fields });
export const rawBytes: StreamedBody = { kind: 'bytes' };

/** A response that is not JSON in the envelope: the handler writes the status, headers and bytes itself. */
export type BytesResponse = 'bytes';

/** What a route without params or a query schema gets: nothing. */
export type NoInput = Readonly<Record<string, never>>;

type Parsed<S> = S extends ZodTypeAny ? z.output<S> : NoInput;

export interface RouteInput<P, Q, B> {
  readonly params: P;
  readonly query: Q;
  readonly body: B;
}

type Answer<R> = R extends ZodTypeAny ? z.input<R> | Reply<z.input<R>> : void;

/**
 * One route, declared as data: what it accepts, who may call it and what it answers. The builder
 * (route-builder.ts) turns the table into the router: guard, then params, query and body validated
 * against these schemas (all problems reported together, 400 VALIDATION_ERROR), then `handle`, whose
 * result is sent in the envelope with `status`. A route without a query schema takes no query
 * parameters, and query schemas must be strict: an unknown parameter is a 400 on every route.
 */
export interface RouteDefinition<G extends Guard, P, Q, B, R> {
  method: Method;
  /** Koa-router syntax (`/v1/things/:thingId`); every `:param` is described by `params`. */
  path: string;
  guard: G;
  /** One line for people reading the API description. */
  summary: string;
  params?: P;
  query?: Q;
  /** A JSON body schema, or a body the handler streams itself. */
  body?: B;
  /** The success status; a handler picks another listed one with Reply.withStatus. */
  status: number | readonly number[];
  /** The schema of `data` in the success envelope. */
  response: R;
  /**
   * Answered by the download lane ahead of the router (exact spellings only) as well as by the
   * router; its validated inputs are remembered by URL, so a repeated request parses nothing.
   */
  hot?: boolean;
  handle(input: RouteInput<Parsed<P>, Parsed<Q>, B extends ZodTypeAny ? z.output<B> : undefined>, ctx: AppContext, caller: CallerOf<G>): Eventually<Answer<R>>;
}

export type Route = RouteDefinition<Guard, AnyZodObject | undefined, ZodTypeAny | undefined, ZodTypeAny | StreamedBody | undefined, ZodTypeAny | BytesResponse>;

/** Declares a route; the types of its handler's input, caller and result follow from the declaration. */
export function route<
  G extends Guard,
  R extends ZodTypeAny | BytesResponse,
  P extends AnyZodObject | undefined = undefined,
  Q extends ZodTypeAny | undefined = undefined,
  B extends ZodTypeAny | StreamedBody | undefined = undefined,
>(definition: RouteDefinition<G, P, Q, B, R>): Route {
  return definition as unknown as Route;
}

/** Every route module has this shape: it builds its services from the gateway's dependencies and declares its routes. */
export type RouteModule = (deps: GatewayDeps) => readonly Route[];
