import { z, ZodIssue, ZodTypeAny } from 'zod';
import { ErrorDetail, validationError } from '../../shared/errors';
import './openapi-extension';

/** Parses `input` with `schema`, or throws 400 VALIDATION_ERROR listing every problem by field. */
export function validate<S extends ZodTypeAny>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw validationError(result.error.issues.flatMap(toDetails));
}

/**
 * Parses `input` with `schema`; on failure adds every problem to `problems` and returns undefined,
 * so that a request's params, query and body are all reported at once.
 */
export function parseInto<S extends ZodTypeAny>(schema: S, input: unknown, problems: ErrorDetail[]): z.output<S> | undefined {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  problems.push(...result.error.issues.flatMap(toDetails));
  return undefined;
}

function toDetails(issue: ZodIssue): ErrorDetail[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ field: [...issue.path, key].join('.'), message: 'is not a known field' }));
  }
  const field = issue.path.join('.') || '(body)';
  if (issue.code === 'invalid_type' && issue.received === 'undefined') return [{ field, message: 'is required' }];
  return [{ field, message: issue.message }];
}

const GIVEN_ONCE = 'must be given once';

/** A value given more than once (`?a=1&a=2`, an array) is refused before the field's own rule. */
function singleValue(value: unknown, context: z.RefinementCtx): unknown {
  if (!Array.isArray(value)) return value;
  context.addIssue({ code: z.ZodIssueCode.custom, message: GIVEN_ONCE, fatal: true });
  return z.NEVER;
}

/**
 * A single-valued query-string parameter checked by `field`, and described by it in the API
 * description (an enum as its values, a pattern as itself).
 */
export function queryParameter<T extends ZodTypeAny>(field: T) {
  const parameter = z.preprocess(singleValue, field);
  // The generator reads the field under the preprocessing; what `.openapi()` said of it is carried over.
  const described = (field._def as { openapi?: { metadata?: Record<string, unknown> } }).openapi?.metadata;
  return described ? parameter.openapi(described) : parameter;
}

/**
 * A query-string integer with bounds and a default, described as an integer with its minimum,
 * maximum and default: digits only (`007` is 7), then the bounds.
 */
export function queryInteger(min: number, max: number, fallback: number) {
  const message = `must be an integer from ${min} to ${max}`;
  const integer = z.number({ invalid_type_error: message }).int(message).min(min, message).max(max, message);
  return z
    .preprocess((value, context) => {
      const single = singleValue(value, context);
      return typeof single === 'string' && /^\d+$/.test(single) ? Number(single) : single;
    }, integer)
    .default(fallback);
}

/** A single-valued query-string parameter. */
export const queryString = () => z.string({ invalid_type_error: GIVEN_ONCE }).min(1, 'must not be empty');

/** `true`/`false` in a query string. */
export const queryBoolean = () =>
  queryParameter(z.enum(['true', 'false'], { errorMap: () => ({ message: 'must be true or false' }) })).transform((v) => v === 'true');
