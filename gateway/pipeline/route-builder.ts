import { parse as parseQueryString, ParsedUrlQuery } from 'node:querystring';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z, ZodTypeAny } from 'zod';
import { BoundedMap } from '../../shared/cache/bounded-map';
import { ErrorDetail, validationError } from '../../shared/errors';
import { SCOPES } from '../../shared/scopes';
import { answeredStatus } from '../middleware/error-handler';
import { jsonBody, streamedBody } from '../middleware/json-body';
import { ApplicationSource, checkReach, checkRecordReach, checkUnlimited, FieldSource, fieldValue } from '../http/access';
import { AuditRecorder, auditStep, CloseAudit } from '../http/audit-step';
import type { AdminPrincipal, AppContext, AppState, AppRouter, Principal } from '../http/context';
import { andThen, Eventually, isPending } from '../http/eventually';
import { admission, Credentials } from '../auth/guards';
import { JSON_CONTENT_TYPE, Reply } from '../http/reply';
import { writeDocument } from '../http/stored-document';
import { AUDIT_ACTION_PATTERN, FieldAdmission, isStreamedBody, NoInput, Route, RouteInput, routeTemplate } from '../http/route';
import { parseInto } from '../http/validate';
import type { Handling, HeaderCheck, IdempotentRequests } from '../idempotency/idempotent-requests';
import type { RateLimiting } from '../rate-limits/rate-limiting';

/** A route with the one function that answers it, shared by the router and the hot lane. */
export interface BuiltRoute {
  route: Route;
  /** Guard, validation, handler and response; returns a promise only when one of them has to wait. */
  answer(ctx: AppContext): Eventually<void>;
}

export interface BuiltRoutes {
  router: AppRouter;
  routes: readonly BuiltRoute[];
}

/** Inputs remembered per hot route; past this the memory starts over. */
const MAX_REMEMBERED_INPUTS = 1_000;

const NOTHING: NoInput = Object.freeze({});
/** The query of a route that declares none: any parameter is refused, as in every strict query schema. */
const NO_QUERY = z.object({}).strict();

/** What the steps every route is answered by need from the gateway. */
export interface RouteSteps extends Credentials {
  /** The application of an upload, for routes that name their application through one; null when unknown. */
  applicationOfUpload(uploadId: string): Promise<string | null>;
  audit: AuditRecorder;
  /** Absent with RATE_LIMITS=off. */
  rateLimits?: RateLimiting;
  idempotency?: IdempotentRequests;
}

/** Turns the route table into one router; every route is answered by the same steps. */
export function buildRoutes(routes: readonly Route[], steps: RouteSteps): BuiltRoutes {
  const router = new Router<AppState>();
  const built = routes.map((route): BuiltRoute => {
    checkDeclaration(route);
    const answer = noStoreFirst(route, route.guard === 'admin' ? adminAnswerer(route, steps) : answerer(route, steps));
    const readParams = pathParamsReader(route);
    const handler: Middleware<AppState> = (ctx) => {
      ctx.params = readParams(ctx.captures);
      return answer(ctx as AppContext);
    };
    // Bodies are read once a route has matched: an unknown path is a 404 and a wrong method a 405
    // whatever the body. JSON is parsed here; streamed bodies are left to their handler.
    const body = (isStreamedBody(route.body) ? streamedBody : jsonBody) as Middleware<AppState>;
    const template = routeTemplate(route.path);
    const matched: Middleware<AppState> = (ctx, next) => {
      ctx.state.route = template;
      // Also on a refusal of the body, which comes before the answer.
      if (route.noStore) ctx.set('Cache-Control', NO_STORE);
      return next();
    };
    router[route.method](route.path, matched, body, handler);
    return { route, answer };
  });
  return { router, routes: built };
}

const NO_STORE = 'no-store';

/** A route declared `noStore` says so before anything else, so its guard's refusals carry it too. */
function noStoreFirst(route: Route, answer: (ctx: AppContext) => Eventually<void>): (ctx: AppContext) => Eventually<void> {
  if (!route.noStore) return answer;
  return (ctx) => {
    ctx.set('Cache-Control', NO_STORE);
    return answer(ctx);
  };
}

/** Guard, rate limit, input, then the handling (once per Idempotency-Key where the route takes one). */
function answerer(route: Route, steps: RouteSteps): (ctx: AppContext) => Eventually<void> {
  const admit = limitedAdmission(route, steps);
  const read = inputReader(route, steps.idempotency?.headerCheck(route));
  const send = sender(route);
  const execute: Handling = (input, caller, ctx) => andThen(route.handle(input as never, ctx, caller as never), send, ctx);
  const handling = steps.idempotency ? steps.idempotency.handlingFor(route, execute) : execute;
  const handle = (caller: Principal | undefined, ctx: AppContext) => handling(read(ctx), caller, ctx);
  return (ctx) => andThen(admit(ctx), handle, ctx);
}

/**
 * An admin route's answer: the key and its scope (401, 403), the input (400), the application the
 * request names against a key limited to applications (403), then, for a write, the audit entry
 * opened before the handler acts (for a form, once its fields are admitted) and closed with the
 * status answered, whatever it is. A request refused before that records nothing.
 */
function adminAnswerer(route: Route, steps: RouteSteps): (ctx: AppContext) => Promise<void> {
  const admit = limitedAdmission(route, steps);
  const read = inputReader(route, steps.idempotency?.headerCheck(route));
  const send = sender(route);
  const source = route.application;
  const inForm = source?.from === 'body' && isStreamedBody(route.body);
  const locate = source && !inForm ? applicationLocator(source, steps.applicationOfUpload) : undefined;
  const openAudit = route.audit && auditStep(route.audit, steps.audit);

  // Once per Idempotency-Key where the route takes one: a repeat answered from the first acts on nothing and opens no audit entry.
  const handle: Handling = async (input, caller, ctx) => {
    const principal = caller as AdminPrincipal;
    const request: AdmittedRequest = { applicationId: undefined, close: undefined };
    const audit = async (applicationId: string | undefined) => {
      request.applicationId = applicationId;
      if (openAudit && !request.close) request.close = await openAudit(ctx, principal, input, applicationId);
    };
    let handlerInput = input;
    if (inForm) handlerInput = { ...input, body: fieldAdmission(source.field, principal, audit) };
    else {
      if (!source) checkUnlimited(principal);
      let applicationId: string | undefined;
      if (locate && (principal.applicationIds !== null || openAudit)) applicationId = await locate(input, principal);
      await audit(applicationId);
    }
    let result: unknown;
    try {
      result = await route.handle(handlerInput as never, ctx, principal as never);
      send(result, ctx);
    } catch (error) {
      await request.close?.(answeredStatus(error), undefined, request.applicationId);
      throw error;
    }
    await request.close?.(ctx.status, result, request.applicationId);
  };
  const handling = steps.idempotency ? steps.idempotency.handlingFor(route, handle) : handle;

  return async (ctx) => {
    const admitted = admit(ctx);
    const principal = isPending(admitted) ? await admitted : admitted;
    await handling(read(ctx), principal, ctx);
  };
}

/** The guard's admission, then the route's rate limit (gateway/rate-limits/), where it has one. */
function limitedAdmission(route: Route, steps: RouteSteps): (ctx: AppContext) => Eventually<Principal | undefined> {
  const admit = admission(route.guard, route.scope, steps);
  const limit = steps.rateLimits?.stepFor(route);
  return limit ? (ctx) => andThen(admit(ctx), limit, ctx) : admit;
}

/** What an admin request has been admitted for: its application, and the audit entry it opened. */
interface AdmittedRequest {
  applicationId: string | undefined;
  close: CloseAudit | undefined;
}

/**
 * The application a request acts on where its route declares it (undefined when it names none),
 * checked against a key limited to applications: the one it names, or that of the upload it names.
 */
function applicationLocator(source: ApplicationSource, applicationOfUpload: RouteSteps['applicationOfUpload']) {
  return async (input: AnyInput, principal: AdminPrincipal): Promise<string | undefined> => {
    const value = fieldValue(source, input);
    if (value === undefined || source.via !== 'upload') {
      checkReach(principal, value);
      return value;
    }
    const recordApplicationId = (await applicationOfUpload(value)) ?? undefined;
    checkRecordReach(principal, recordApplicationId, `upload ${value}`);
    return recordApplicationId;
  };
}

/**
 * The field checks a multipart handler runs on its form (route.ts, FieldAdmission): the application
 * against a key limited to applications, then the audit entry opened once it is admitted.
 */
function fieldAdmission(field: string, principal: AdminPrincipal, admitted: (applicationId: string | undefined) => Promise<void>): FieldAdmission {
  const admit = async (fields: Readonly<Record<string, string>>, whole: boolean) => {
    const applicationId = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (applicationId === undefined && !whole) return;
    checkReach(principal, applicationId);
    await admitted(applicationId);
  };
  return { partial: (fields) => admit(fields, false), whole: (fields) => admit(fields, true) };
}

type AnyInput = RouteInput<unknown, unknown, unknown>;

/** Params, query and body validated against the route's schemas (and headers by `checkHeaders`), every problem reported at once. */
function inputReader(route: Route, checkHeaders?: HeaderCheck): (ctx: AppContext) => AnyInput {
  const body = isStreamedBody(route.body) ? undefined : route.body;
  const parse = (ctx: AppContext): AnyInput => {
    const problems: ErrorDetail[] = [];
    const params = route.params ? parseInto(route.params, ctx.params, problems) : NOTHING;
    const query = route.query ? parseInto(route.query, queryOf(ctx), problems) : noQuery(ctx, problems);
    const parsedBody = body ? parseInto(body, ctx.request.body, problems) : undefined;
    checkHeaders?.(ctx, problems);
    if (problems.length > 0) throw validationError(problems);
    return { params, query, body: parsedBody };
  };
  if (!route.hot) return parse;

  // A hot route's input is a function of its URL (it has no body): installers and update checks send
  // the same few URLs over and over, and a repeat then parses nothing. Shared, so frozen.
  const remembered = new BoundedMap<string, AnyInput>(MAX_REMEMBERED_INPUTS);
  return (ctx) => {
    const url = ctx.url;
    const known = remembered.get(url);
    if (known) return known;
    const input = Object.freeze(parse(ctx));
    remembered.set(url, input);
    return input;
  };
}

function noQuery(ctx: AppContext, problems: ErrorDetail[]): NoInput {
  if (ctx.querystring !== '') parseInto(NO_QUERY, queryOf(ctx), problems);
  return NOTHING;
}

/** A route answering a document (or bytes): a stored document is written here; any other answer the handler wrote. */
function sendDocument(result: unknown, ctx: AppContext): void {
  if (result instanceof Reply && result.document) writeDocument(ctx, result.document);
}

/**
 * The request's query parameters, parsed from the query string. Not Koa's ctx.query: Koa caches
 * parsed queries in a plain object keyed by the query string, so a query of exactly `__proto__` reads
 * as Object.prototype (no parameters at all) and one of `constructor` as a function.
 */
function queryOf(ctx: AppContext): ParsedUrlQuery {
  return parseQueryString(ctx.querystring);
}

function sender(route: Route): (result: unknown, ctx: AppContext) => void {
  if (!(route.response instanceof z.ZodType)) return sendDocument;
  const status = typeof route.status === 'number' ? route.status : route.status[0];
  return (result, ctx) => {
    if (!(result instanceof Reply)) {
      ctx.status = status;
      ctx.body = { success: true, data: result };
      return;
    }
    if (result.written) return;
    if (result.document) {
      writeDocument(ctx, result.document);
      return;
    }
    ctx.status = result.status ?? status;
    if (result.error) {
      ctx.body = { success: false, error: result.error };
      return;
    }
    if (result.json === undefined) {
      ctx.body = { success: true, data: result.data };
      return;
    }
    ctx.set('Content-Type', JSON_CONTENT_TYPE);
    ctx.body = result.json;
  };
}

/**
 * The route's path parameters as the router captured them, percent-decoded. Not @koa/router's own
 * ctx.params: it decodes '+' as a space, a rule of query strings; in a path '+' stands for itself
 * (RFC 3986), so a version such as `1.0.0+build` is named as written. An escape that does not decode
 * is left as written, and the param's schema refuses it.
 */
function pathParamsReader(route: Route): (captures: readonly string[]) => Record<string, string> {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
  return (captures) => {
    const params: Record<string, string> = {};
    names.forEach((name, index) => {
      const raw = captures[index];
      if (raw !== undefined) params[name] = decodedOrRaw(raw);
    });
    return params;
  };
}

function decodedOrRaw(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Mistakes in a declaration stop the gateway at start-up rather than surfacing in a request. */
function checkDeclaration(route: Route): void {
  const where = `${route.method.toUpperCase()} ${route.path}`;
  checkAccessDeclaration(route, where);
  const inPath = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]).sort();
  const declared = Object.keys(route.params?.shape ?? {}).sort();
  if (inPath.join() !== declared.join()) {
    throw new Error(`${where}: params must describe exactly the path's parameters (${inPath.join(', ') || 'none'})`);
  }
  if (route.query && !isStrictObject(route.query)) {
    throw new Error(`${where}: the query schema must be a strict object, so that unknown parameters are refused`);
  }
  if (route.hot && (route.method !== 'get' || route.body !== undefined)) {
    throw new Error(`${where}: only GET routes without a body can be hot`);
  }
  if (route.limitedPer !== undefined && (route.guard !== 'none' || !inPath.includes(route.limitedPer))) {
    throw new Error(`${where}: limitedPer names a path parameter of a route without a key (routes with a key are limited per key)`);
  }
}

/**
 * The admin obligations route() enforces by type, checked again for what types cannot see: every
 * admin route names a scope, every admin write its audit action, and every field a declaration names
 * is one the request or the response has.
 */
function checkAccessDeclaration(route: Route, where: string): void {
  if (route.guard !== 'admin') {
    if (route.scope || route.application || route.audit) throw new Error(`${where}: only admin routes declare a scope, an application or an audit entry`);
    return;
  }
  if (!route.scope || !SCOPES.includes(route.scope)) throw new Error(`${where}: an admin route declares the scope it needs (${SCOPES.join(', ')})`);
  if ((route.method === 'get') !== (route.audit === undefined)) throw new Error(`${where}: every admin write, and no read, declares its audit entry`);
  if (route.application) {
    if (route.application.via === 'upload' && isStreamedBody(route.body)) throw new Error(`${where}: a form field cannot name the application through an upload`);
    checkField(route, route.application, where);
  }
  if (route.audit) {
    if (!AUDIT_ACTION_PATTERN.test(route.audit.action)) throw new Error(`${where}: the audit action must be <resource>.<verb> (${AUDIT_ACTION_PATTERN})`);
    for (const source of [route.audit.target, route.audit.application ?? []].flat()) checkField(route, source, where);
  }
}

function checkField(route: Route, source: FieldSource, where: string): void {
  const schema = {
    params: route.params,
    query: route.query,
    body: isStreamedBody(route.body) ? route.body.fields : route.body,
    result: route.response instanceof z.ZodType ? route.response : undefined,
  }[source.from];
  if (!schema || !fieldsOf(schema).includes(source.field)) throw new Error(`${where}: declares ${source.from}.${source.field}, which the route's ${source.from} schema does not have`);
}

function fieldsOf(schema: ZodTypeAny): string[] {
  let inner = schema;
  while (inner instanceof z.ZodEffects) inner = inner.innerType();
  return inner instanceof z.ZodObject ? Object.keys(inner.shape) : [];
}

function isStrictObject(schema: ZodTypeAny): boolean {
  let inner = schema;
  while (inner instanceof z.ZodEffects) inner = inner.innerType();
  return inner instanceof z.ZodObject && inner._def.unknownKeys === 'strict';
}
