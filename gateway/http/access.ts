import { forbidden } from '../../shared/errors';
import type { AdminPrincipal } from './context';
import { Reply } from './reply';

/** Where a route's validated input holds a field. */
export type InputPart = 'params' | 'query' | 'body';

/** A field of the validated input, or of the success response's data (what a creation made). */
export interface FieldSource {
  from: InputPart | 'result';
  field: string;
}

/**
 * Where a request names the application it acts on: a field of its params, query or body (for a
 * multipart body, a form field), or a field naming an upload, whose stored application it is (what
 * else the request says of the upload's application decides nothing).
 */
export interface ApplicationSource {
  from: InputPart;
  field: string;
  via?: 'upload';
}

export const inParams = (field: string) => ({ from: 'params', field }) as const satisfies ApplicationSource;
export const inQuery = (field: string) => ({ from: 'query', field }) as const satisfies ApplicationSource;
export const inBody = (field: string) => ({ from: 'body', field }) as const satisfies ApplicationSource;
export const inResult = (field: string): FieldSource => ({ from: 'result', field });
/** The application of the upload a field names. */
export const uploadNamedBy = (source: ApplicationSource): ApplicationSource => ({ ...source, via: 'upload' });

type Parts = Readonly<Record<InputPart, unknown>>;

/** The field's value when it is a string; undefined when the part or the field is absent. */
export function fieldValue(source: FieldSource, input: Parts, result?: unknown): string | undefined {
  const holder = source.from === 'result' ? dataOf(result) : input[source.from];
  const value = holder !== null && typeof holder === 'object' ? (holder as Record<string, unknown>)[source.field] : undefined;
  return typeof value === 'string' ? value : undefined;
}

const dataOf = (result: unknown): unknown => (result instanceof Reply ? result.data : result);

/**
 * Refuses a key limited to applications (403) unless `applicationId` is one of them: a request that
 * names no application, or another one, is refused. Keys for every application pass.
 */
export function checkReach(principal: AdminPrincipal, applicationId: string | undefined): void {
  const limit = principal.applicationIds;
  if (limit === null) return;
  if (applicationId === undefined) {
    throw forbidden('this API key is limited to some applications: this request must name one of them');
  }
  if (!limit.includes(applicationId)) throw forbidden(`this API key is not allowed to act on application ${applicationId}`);
}

/**
 * Refuses a key limited to applications (403) unless the record a request names (`record`, such as
 * `upload upl_…`) belongs to one of them, its application read from the stored record, never from
 * what the request says. A record of another application and one that does not exist get the same
 * answer, which names only what the request sent: nothing of a record the key may not see leaks.
 */
export function checkRecordReach(principal: AdminPrincipal, recordApplicationId: string | undefined, record: string): void {
  const limit = principal.applicationIds;
  if (limit === null || (recordApplicationId !== undefined && limit.includes(recordApplicationId))) return;
  throw forbidden(`this API key is limited to some applications, and may not act on ${record}`);
}

/** Refuses a key limited to applications on a route that acts on no single application. */
export function checkUnlimited(principal: AdminPrincipal): void {
  if (principal.applicationIds !== null) throw forbidden('this API key is limited to some applications, and this route does not act on one application');
}
