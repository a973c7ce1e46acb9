import fc from 'fast-check';
import { fields, text } from '../fields';
import { FieldRule, pathParameterDefects, QueryRules, unreadBodyOddities } from '../mutations';
import { jsonNotArray, jsonNotString, NOT_A_DATE, NOT_A_PAGE_SIZE } from '../values';
import type { RouteContext } from './context';
import { draft, fuzzer, json, jsonBody, keyed, plus, RouteFuzzer, values } from './route-fuzzer';
import { DAY_MS } from '../../../shared/durations';

const ADMIN_KEYS = '/v1/management/apikeys';

/** Scoped admin keys and the audit log. */
export function adminKeyFuzzers({ f, keys, admin, known }: RouteContext): RouteFuzzer[] {
  const inDays = (days: number) => JSON.stringify(new Date(Date.now() + days * DAY_MS).toISOString());
  const scopes: FieldRule = {
    required: true,
    valid: values('["read"]', '["publish","manage"]', '["publish","read","manage"]'),
    invalid: fc.oneof(jsonNotArray, values('[]', '["everything"]', '["READ"]', '["read","read"]', '[1]', '[null]', '["__proto__"]', '"read"')),
  };
  const applicationIds: FieldRule = {
    valid: values(JSON.stringify([f.apps.main]), JSON.stringify([f.apps.main, f.apps.spare])),
    invalid: fc.oneof(
      jsonNotArray,
      values('[]', '["no-such-application"]', '[1]', '[null]', JSON.stringify([f.apps.main, f.apps.main]), JSON.stringify(Array.from({ length: 101 }, (_, i) => `app-${i}`))),
      text.badApplicationId.map((id) => JSON.stringify([id])),
    ),
  };
  const expiresAt: FieldRule = {
    valid: fc.constantFrom(1, 30, 365).map(inDays),
    invalid: fc.oneof(
      jsonNotString,
      values('"2020-01-01T00:00:00Z"', '"tomorrow"', '"2027-01-01"', '"9999-12-31T00:00:00Z"', '"2027-02-30T00:00:00Z"', '"2027-01-01T00:00:00+25:00"', '""'),
      fc.constant(inDays(-1)),
    ),
  };
  const create = jsonBody({ name: fields.name(true), scopes, applicationIds, expiresAt }, { emptyIsRefused: true });
  const auditRules: QueryRules = {
    action: { valid: values('application.update', 'adminKey.create', 'nothing.here'), invalid: values('', 'update', 'Application.update', 'a.b.c', 'a..b', '__proto__', 'x'.repeat(70)) },
    applicationId: { valid: values(f.apps.main, 'nothing-here'), invalid: fc.oneof(text.badApplicationId, values('')) },
    actor: { valid: values('root', 'adm_unknown', '%', '__proto__'), invalid: values('', 'x'.repeat(101)) },
    target: { valid: values(f.apps.main, 'a/b', '%2F', '__proto__'), invalid: values('', 'x'.repeat(301)) },
    from: { valid: values('2024-01-01', '1970-01-01'), invalid: values(...NOT_A_DATE) },
    to: { valid: values('2026-12-31', '9999-12-31'), invalid: values(...NOT_A_DATE) },
    limit: { valid: values('1', '20', '100'), invalid: values(...NOT_A_PAGE_SIZE) },
    // No valid cursor to make up: one comes only from a page.
    cursor: {
      invalid: values('x', '', 'a'.repeat(513), '__proto__', Buffer.from('{"t":1}').toString('base64url'), Buffer.from('garbage').toString('base64'), '%%%'),
    },
  };

  return [
    fuzzer({
      method: 'POST', path: ADMIN_KEYS, changesData: true,
      base: draft('POST', ADMIN_KEYS, {}, admin, json({ name: '"CI"', scopes: '["read"]' })),
      ...plus(keyed('admin', keys), create.defects, create.oddities, [...known.jsonBody, ...known.controlsIn('name')]),
    }),
    fuzzer({
      method: 'GET', path: ADMIN_KEYS, changesData: false,
      base: draft('GET', ADMIN_KEYS, {}, admin),
      ...plus(keyed('admin', keys), [], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'DELETE', path: `${ADMIN_KEYS}/:keyId`, changesData: true,
      base: draft('DELETE', `${ADMIN_KEYS}/:keyId`, { keyId: f.adminKeys.spare.keyId }, admin),
      ...plus(keyed('admin', keys), [
        pathParameterDefects('keyId', fc.oneof(text.hostileSegment('adk'), fc.constant(f.adminKeys.revoked.keyId))),
      ], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: '/v1/management/audit', changesData: false,
      base: draft('GET', '/v1/management/audit', {}, admin),
      ...plus(keyed('admin', keys, auditRules), [], [unreadBodyOddities]),
    }),
  ];
}
