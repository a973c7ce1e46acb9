import fc from 'fast-check';
import { fields, text } from '../fields';
import type { FieldRule, FieldRules } from '../mutations';
import { pathParameterDefects, unreadBodyOddities } from '../mutations';
import { jsonNotArray, jsonNotNumber, jsonNotString, jsonString } from '../values';
import type { RouteContext } from './context';
import { draft, fuzzer, json, jsonBody, keyed, plus, RouteFuzzer, values } from './route-fuzzer';

const TOKENS = '/v1/management/customers/:customerId/tokens';
const TOKEN = `${TOKENS}/:tokenId`;

/** Customers' access tokens. */
export function accessTokenFuzzers({ f, keys, admin, customerParam, known }: RouteContext): RouteFuzzer[] {
  const premium = f.customers.premium.customerId;
  const count = (max: number): FieldRule => ({
    valid: values('1', '10', String(max), 'null'),
    invalid: fc.oneof(values('0', '-1', String(max + 1), '1.5', '1e999', '-0'), jsonNotNumber.filter((value) => value !== 'null')),
  });
  const list = (valid: string[], bad: string[]): FieldRule => ({
    valid: values(JSON.stringify(valid), 'null'),
    invalid: fc.oneof(jsonNotArray.filter((value) => value !== 'null'), values('[]', '[1]', '[null]', JSON.stringify([valid[0], valid[0]]), ...bad.map((b) => JSON.stringify([b])))),
    expects: [400],
  });
  const instant: FieldRule = {
    valid: values('"2031-01-01T00:00:00Z"', 'null'),
    invalid: fc.oneof(jsonNotString.filter((value) => value !== 'null'), values('"tomorrow"', '"2027-01-01"', '"2027-02-30T00:00:00Z"', '""')),
  };
  const limits: FieldRules = {
    name: { ...fields.name(false), valid: values('"CI fleet"', 'null') },
    maxDownloads: count(1_000_000_000),
    maxClients: count(10_000),
    maxBytes: count(1024 ** 5),
    validUntil: instant,
    applications: { ...list([f.apps.main], ['no-such-application', '__proto__']), expects: [400] },
    channels: list(['stable'], ['nightly', 'Stable', '__proto__']),
    platforms: list(['linux', 'windows'], ['darwin', 'Linux', '']),
    resetEvery: { valid: values('"day"', '"week"', '"month"', 'null'), invalid: fc.oneof(values('"year"', '"Day"', '""', '"__proto__"'), jsonNotString.filter((value) => value !== 'null')) },
    updatesUntil: fields.updatesUntil(),
    versionRange: fields.versionRange(),
  };
  const create = jsonBody(limits, { emptyIsRefused: false });
  const update = jsonBody(limits, { emptyIsRefused: true });
  const tokenParam = pathParameterDefects('tokenId', fc.oneof(text.hostileSegment('tok'), fc.constant(f.tokens.revoked)));
  const otherCustomer = pathParameterDefects('customerId', fc.constantFrom(f.customers.free.customerId, f.customers.inactive.customerId));

  return [
    fuzzer({
      method: 'POST', path: TOKENS, changesData: true,
      base: draft('POST', TOKENS, { customerId: premium }, admin, json({ maxDownloads: '10', resetEvery: jsonString('day') })),
      ...plus(keyed('admin', keys), [customerParam, ...create.defects], create.oddities, [...known.jsonBody, ...known.controlsIn('name')]),
    }),
    fuzzer({
      method: 'GET', path: TOKENS, changesData: false,
      base: draft('GET', TOKENS, { customerId: premium }, admin),
      ...plus(keyed('admin', keys), [customerParam], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: TOKEN, changesData: false,
      base: draft('GET', TOKEN, { customerId: premium, tokenId: f.tokens.spare }, admin),
      ...plus(keyed('admin', keys), [customerParam, otherCustomer, pathParameterDefects('tokenId', text.hostileSegment('tok'))], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'PATCH', path: TOKEN, changesData: true,
      base: draft('PATCH', TOKEN, { customerId: premium, tokenId: f.tokens.spare }, admin, json({ maxDownloads: '20' })),
      ...plus(keyed('admin', keys), [customerParam, otherCustomer, tokenParam, ...update.defects], update.oddities, [...known.jsonBody, ...known.controlsIn('name')]),
    }),
    fuzzer({
      method: 'DELETE', path: TOKEN, changesData: true,
      base: draft('DELETE', TOKEN, { customerId: premium, tokenId: f.tokens.spare }, admin),
      ...plus(keyed('admin', keys), [customerParam, otherCustomer, tokenParam], [unreadBodyOddities]),
    }),
  ];
}
