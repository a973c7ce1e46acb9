import type { RawOutcome } from '../support/raw-http';
import type { FuzzCase } from './draft';

/** Error codes by status, as the README lists them. */
const CODES_BY_STATUS: Record<number, string[]> = {
  400: ['VALIDATION_ERROR', 'BAD_REQUEST', 'INVALID_CURSOR'],
  401: ['UNAUTHORIZED'],
  403: ['FORBIDDEN', 'LICENCE_ACCEPTANCE_REQUIRED', 'TOKEN_DOWNLOAD_LIMIT_REACHED', 'TOKEN_CLIENT_LIMIT_REACHED', 'TOKEN_BYTE_LIMIT_REACHED', 'TOKEN_NOT_YET_VALID', 'TOKEN_EXPIRED'],
  404: ['NOT_FOUND', 'NO_MATCHING_BUILD'],
  405: ['METHOD_NOT_ALLOWED'],
  408: ['REQUEST_TIMEOUT'],
  409: ['CONFLICT', 'VERSION_PUBLISHED', 'VERSION_YANKED'],
  410: ['GONE'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  416: ['RANGE_NOT_SATISFIABLE'],
  417: ['EXPECTATION_FAILED'],
  422: ['IDEMPOTENCY_KEY_REUSED', 'INVALID_ATTESTATION', 'ATTESTATION_SUBJECT_MISMATCH', 'UNSUPPORTED_KEY'],
  429: ['RATE_LIMITED'],
  431: ['HEADERS_TOO_LARGE'],
  503: ['SERVICE_UNAVAILABLE'],
};

/**
 * What is wrong with how the service answered `fuzzCase` (nothing: an empty list). Every request:
 * an answer in time, no 5xx but 503, every error in the envelope with a code that fits its status,
 * an X-Request-Id. A request with a defect: refused; a known case: the status it documents. Only a
 * client that gave up mid-request may see the connection closed without an answer.
 */
export function problemsWith(fuzzCase: FuzzCase, outcome: RawOutcome, boundMs: number): string[] {
  if (outcome.kind === 'timeout') return [`no answer within ${boundMs} ms`];
  if (outcome.kind === 'closed') {
    // A server that refuses at the HTTP level closes at once; bytes still arriving then reset the
    // connection, which can swallow its answer.
    const gaveUp = fuzzCase.request.halfClose || (fuzzCase.mayCloseUnread && (fuzzCase.request.body?.length ?? 0) > 0);
    return gaveUp ? [] : [`connection closed without an answer${outcome.error ? ` (${outcome.error})` : ''}`];
  }
  const { status, headers, body } = outcome.response;
  const problems: string[] = [];
  if (status >= 500 && status !== 503) problems.push(`answered ${status}`);
  if (fuzzCase.defects.length > 0 && status < 400) problems.push(`accepted (${status}) although: ${fuzzCase.defects.join('; ')}`);
  if (fuzzCase.expectedStatuses && !fuzzCase.expectedStatuses.includes(status)) {
    problems.push(`answered ${status}, expected ${fuzzCase.expectedStatuses.join(' or ')}`);
  }
  if (!headers['x-request-id']) problems.push(`${status} without X-Request-Id`);
  if (status >= 400 && fuzzCase.request.method !== 'HEAD') problems.push(...envelopeProblems(status, headers, body));
  return problems;
}

function envelopeProblems(status: number, headers: Record<string, string>, body: Buffer): string[] {
  const shown = JSON.stringify(body.toString('utf8').slice(0, 200));
  if (!/^application\/json\b/.test(headers['content-type'] ?? '')) return [`${status} answered as ${headers['content-type'] ?? 'no content type'}, not the JSON envelope: ${shown}`];
  let parsed: { success?: unknown; error?: { code?: unknown; message?: unknown } };
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return [`${status} with a body that is not JSON: ${shown}`];
  }
  const error = parsed?.error;
  if (parsed?.success !== false || typeof error?.code !== 'string' || typeof error.message !== 'string' || error.message === '') {
    return [`${status} without the error envelope {success: false, error: {code, message}}: ${shown}`];
  }
  const codes = CODES_BY_STATUS[status];
  if (!codes?.includes(error.code)) return [`${status} with code ${error.code}, expected ${codes?.join(' or ') ?? 'a documented status'}`];
  return [];
}
