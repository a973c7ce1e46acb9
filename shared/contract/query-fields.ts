import { z, type ZodTypeAny } from 'zod';
import './openapi-extension';
import { PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../policy';

/*
 * The query-string parameters of the API: single-valued, as text, described in the API description
 * by the field they are checked with.
 */

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

/** The query fields of every paged listing. */
export const pageFields = {
  page: queryInteger(1, PAGE_MAX, 1),
  pageSize: queryInteger(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
};
