import { AppError, conflict, ErrorDetail, idempotencyKeyReused } from '../../shared/errors';
import { randomToken } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import { IDEMPOTENCY_CLAIM_SECONDS, IDEMPOTENCY_KEY_MAX_LENGTH } from '../../shared/policy';
import { hashSecret, keyedDigest, keyFromSecret, openSecret, sameDigest, sealSecret } from '../../shared/secrets';
import type { AppContext, Principal } from '../http/context';
import type { Eventually } from '../http/eventually';
import { presentedKey } from '../auth/guards';
import { JSON_CONTENT_TYPE } from '../http/reply';
import { isStreamedBody, type Route, type RouteInput, takesIdempotencyKey } from '../http/route';
import { appErrorBody } from '../middleware/error-handler';
import type { IdempotencyRecord, IdempotencyRecords } from './idempotency-records';

/** A route's handling once its input is valid: the handler, then the answer sent. */
export type Handling = (input: RouteInput<unknown, unknown, unknown>, caller: Principal | undefined, ctx: AppContext) => Eventually<void>;

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** As Node names it in request.headers. */
const IDEMPOTENCY_HEADER_NAME = 'idempotency-key';

/** A key: visible ASCII but `"` and `\`. */
const KEY = `[\\x21\\x23-\\x5b\\x5d-\\x7e]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}`;
/** The header as the IETF draft sends it (a quoted sf-string) or bare, as Stripe's clients do; the API description's pattern. */
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^(?:${KEY}|"${KEY}")$`);

const MALFORMED_KEY = `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters other than " and \\ (optionally in double quotes), in one header`;
const STREAMED_BODY_REFUSAL = 'is not taken with a streamed body, which cannot be compared with a first request\'s; a repeated upload is refused on its own (409: its file name is taken)';

/** Adds the problems of a request's headers to those of its input. */
export type HeaderCheck = (ctx: AppContext, problems: ErrorDetail[]) => void;

/** A first request's answer, as kept. */
interface KeptAnswer {
  status: number;
  /** The body as sent ('' for none). */
  body: string;
}

/**
 * Idempotency keys, as Stripe's API and the IETF Idempotency-Key draft have them, on every route
 * that takes them (takesIdempotencyKey): the first request's status and body are kept for its caller
 * and key; a repeat with the same request gets them again with `Idempotent-Replayed: true`, a repeat
 * with another request 422, a repeat while the first runs 409. Requests are compared by method,
 * route and validated input. A 5xx is not kept (a 503 changed nothing): the key is freed for the
 * retry. Answers are sealed with a key derived from the caller's API key and the Idempotency-Key
 * (shared/secrets.ts): a new API key in an answer cannot be read from Redis, only replayed to whoever
 * presents both again, and only for as long as the answer is kept.
 */
export class IdempotentRequests {
  constructor(private readonly records: IdempotencyRecords, private readonly logger: Logger) {}

  /**
   * The check of a route's Idempotency-Key among its input's (problems reported in the same 400): a
   * malformed key, or any key on a route whose body is streamed, which cannot be compared with a first
   * request's. Undefined for a route that does not take the header (it is ignored there).
   */
  headerCheck(route: Route): HeaderCheck | undefined {
    if (!takesIdempotencyKey(route)) return undefined;
    const streamed = isStreamedBody(route.body);
    return (ctx, problems) => {
      const raw = sentKey(ctx);
      if (raw === undefined) return;
      if (streamed) problems.push({ field: IDEMPOTENCY_KEY_HEADER, message: STREAMED_BODY_REFUSAL });
      else if (keyOf(raw) === undefined) problems.push({ field: IDEMPOTENCY_KEY_HEADER, message: MALFORMED_KEY });
    };
  }

  /** The route's handling as it is, or run once per caller and Idempotency-Key. */
  handlingFor(route: Route, handling: Handling): Handling {
    if (!takesIdempotencyKey(route) || isStreamedBody(route.body)) return handling;
    return (input, caller, ctx) => (sentKey(ctx) === undefined ? handling(input, caller, ctx) : this.once(route, handling, input, caller, ctx));
  }

  private async once(route: Route, handling: Handling, input: RouteInput<unknown, unknown, unknown>, caller: Principal | undefined, ctx: AppContext): Promise<void> {
    // Checked with the input (headerCheck).
    const idempotencyKey = keyOf(sentKey(ctx) as string) as string;
    // The route takes a key, so its guard has admitted the one presented.
    const apiKey = presentedKey(ctx) as string;
    const sealing = keyFromSecret(apiKey, idempotencyKey);
    const fingerprint = keyedDigest(sealing, `${route.method} ${route.path}\n${JSON.stringify(input)}`);
    const key = this.records.keyOf(hashSecret(`${hashSecret(apiKey)}\n${idempotencyKey}`));
    const running = { state: 'running' as const, claim: randomToken(16), fingerprint };

    const existing = await this.records.claim(key, running);
    if (existing) return replay(existing, fingerprint, sealing, ctx);

    let answer: KeptAnswer;
    try {
      await handling(input, caller, ctx);
      answer = { status: ctx.status, body: bodyText(ctx.body) };
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) {
        await this.records.release(key, running).catch(() => undefined);
        throw error;
      }
      answer = { status: error.status, body: JSON.stringify({ success: false, error: appErrorBody(error) }) };
      await this.keep(key, running, sealing, answer, ctx);
      throw error;
    }
    await this.keep(key, running, sealing, answer, ctx);
  }

  private async keep(key: string, running: Extract<IdempotencyRecord, { state: 'running' }>, sealing: Buffer, answer: KeptAnswer, ctx: AppContext): Promise<void> {
    const done = { state: 'done' as const, fingerprint: running.fingerprint, response: sealSecret(sealing, JSON.stringify(answer), running.fingerprint) };
    try {
      await this.records.keep(key, running, done);
    } catch {
      // The request did its work: its answer goes out. Only a repeat after the claim lapses runs it again.
      this.logger.warn(
        { requestId: ctx.state.requestId, method: ctx.method, path: ctx.path },
        `the answer to a request with an Idempotency-Key could not be kept (redis is unreachable): a repeat after ${IDEMPOTENCY_CLAIM_SECONDS} s would run again`,
      );
    }
  }
}

/**
 * The Idempotency-Key header as sent, undefined only when it was not sent: an empty or blank value
 * (Node hands it over as '') is a malformed key, not a request without one, or a retry would run twice.
 */
function sentKey(ctx: AppContext): string | undefined {
  // Node joins a repeated header into one string (', '), which the key's form refuses.
  return ctx.req.headers[IDEMPOTENCY_HEADER_NAME] as string | undefined;
}

/** The key of an Idempotency-Key header, or undefined when it is not 1 to 255 visible ASCII characters. */
function keyOf(raw: string): string | undefined {
  if (!IDEMPOTENCY_KEY_PATTERN.test(raw)) return undefined;
  return raw.startsWith('"') ? raw.slice(1, -1) : raw;
}

/** A repeat: the first answer again, or 422 for another request, or 409 while the first runs. */
function replay(record: IdempotencyRecord, fingerprint: string, sealing: Buffer, ctx: AppContext): void {
  if (!sameDigest(record.fingerprint, fingerprint)) {
    throw idempotencyKeyReused(`this ${IDEMPOTENCY_KEY_HEADER} was sent with another request; a new request needs a new key`);
  }
  if (record.state === 'running') {
    throw conflict(`the first request with this ${IDEMPOTENCY_KEY_HEADER} is still running; repeat it once that one is answered`);
  }
  const answer = JSON.parse(openSecret(sealing, record.response, record.fingerprint)) as KeptAnswer;
  ctx.status = answer.status;
  ctx.set(REPLAYED_HEADER, 'true');
  if (answer.body === '') return;
  ctx.set('Content-Type', JSON_CONTENT_TYPE);
  ctx.body = answer.body;
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}
