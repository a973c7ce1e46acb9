import { z, ZodIssue, ZodTypeAny } from 'zod';
import { ErrorDetail, validationError } from '../../shared/errors';
import '../../shared/contract/openapi-extension';

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

// The query-string fields moved to the contract; the update feeds still import them from here.
