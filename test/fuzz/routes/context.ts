import fc from 'fast-check';
import { text } from '../fields';
import type { Fixture } from '../fixture';
import type { Mutation } from '../draft';
import { contentEncoding, corruptGzip, declaredLengthOnly, jsonField, KeyRing, pathParameterDefects, QueryRules } from '../mutations';
import { encoded, jsonString, NOT_A_PAGE, NOT_A_PAGE_SIZE } from '../values';
import { values } from './route-fuzzer';

/** What every route module builds its requests from: the fixture, the keys, shared rules and known cases. */
export interface RouteContext {
  f: Fixture;
  keys: KeyRing;
  /** Authorization header values. */
  admin: string;
  customer: string;
  customerIds: string[];
  /**
   * A new name for what a request creates. A case wrongly accepted creates what it names; the next
   * names something else, so a conflict with it never stands in for the refusal its case checks.
   */
  fresh(prefix: string): string;
  pageRules: QueryRules;
  applicationParam(...missing: string[]): fc.Arbitrary<Mutation>;
  customerParam: fc.Arbitrary<Mutation>;
  known: KnownCases;
}

/**
 * Failures seen before, tried on every run: compression headers on plain bodies, control characters
 * in stored text, versions with path-significant characters, declared lengths past 2^31.
 */
export interface KnownCases {
  hugeDeclaredLengths: Mutation[][];
  jsonBody: Mutation[][];
  controlsIn(field: string): Mutation[][];
  nulIn(field: string): Mutation[][];
  pathSignificantVersions: string[];
}

export function routeContext(f: Fixture, adminKey: string, metricsToken: string): RouteContext {
  let created = 0;
  const plainBodyEncodings: Mutation[][] = [[contentEncoding('gzip')], [contentEncoding('br')], [corruptGzip]];
  const hugeDeclaredLengths: Mutation[][] = [2 ** 31, 2 ** 32 + 10].map((length) => [declaredLengthOnly(length)]);
  return {
    f,
    keys: {
      admin: adminKey,
      metrics: metricsToken,
      customer: f.customers.premium.apiKey,
      customerId: f.customers.premium.customerId,
      inactive: f.customers.inactive.apiKey,
      revoked: f.keys.revoked.apiKey,
      adminRevoked: f.adminKeys.revoked.apiKey,
      adminElsewhere: f.adminKeys.elsewhere.apiKey,
    },
    admin: `Bearer ${adminKey}`,
    customer: `Bearer ${f.customers.premium.apiKey}`,
    customerIds: Object.values(f.customers).map((c) => c.customerId),
    fresh: (prefix) => `${prefix}-${f.tag}-${(created += 1)}`,
    pageRules: {
      page: { valid: values('1', '2', '1000000', '01'), invalid: values(...NOT_A_PAGE) },
      pageSize: { valid: values('1', '20', '100'), invalid: values(...NOT_A_PAGE_SIZE) },
    },
    applicationParam: (...missing) => pathParameterDefects('applicationId', fc.oneof(
      text.hostileSegment('app'),
      text.badApplicationId.map(encoded),
      ...missing.map((id) => fc.constant(id)),
    )),
    customerParam: pathParameterDefects('customerId', fc.oneof(text.hostileSegment('cus'), text.badNewCustomerId.filter((id) => id !== '').map(encoded))),
    known: {
      hugeDeclaredLengths,
      jsonBody: [...plainBodyEncodings, ...hugeDeclaredLengths],
      controlsIn: (field) => ['\u0000', '\r\n', '\n', '\r'].map((c) => [jsonField(field, jsonString(`a${c}b`))]),
      nulIn: (field) => [[jsonField(field, jsonString('a\u0000b'))]],
      pathSignificantVersions: ['.', '..', '%', '?x'],
    },
  };
}
