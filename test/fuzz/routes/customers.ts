import fc from 'fast-check';
import { fields, text } from '../fields';
import { FieldRules, jsonContentType, jsonField, malformedJsonOfType, pathParameterDefects, unreadBodyOddities } from '../mutations';
import type { RouteContext } from './context';
import { draft, fuzzer, json, jsonBody, keyed, plus, RouteFuzzer, values } from './route-fuzzer';

const CUSTOMERS = '/v1/management/customers';
const CUSTOMER = `${CUSTOMERS}/:customerId`;
const API_KEYS = `${CUSTOMER}/apikeys`;
const ACCESS = `${CUSTOMER}/applications/:applicationId`;

/** Customers and their API keys. */
export function customerFuzzers({ f, keys, admin, customerIds, pageRules, customerParam, applicationParam, known }: RouteContext): RouteFuzzer[] {
  const customerFields = (creating: boolean): FieldRules => ({
    ...(creating ? { customerId: fields.newCustomerId(customerIds) } : { isActive: fields.boolean() }),
    name: fields.name(creating),
    tier: fields.tier(creating),
    notes: fields.multiLine(2_000, { nullable: true }),
    updatesUntil: fields.updatesUntil(),
    versionRange: fields.versionRange(),
  });
  const create = jsonBody(customerFields(true), { emptyIsRefused: false });
  const update = jsonBody(customerFields(false), { emptyIsRefused: true });
  const issueKey = jsonBody({}, { emptyIsRefused: false });
  const premium = f.customers.premium.customerId;
  const grant = jsonBody({}, { emptyIsRefused: false });

  return [
    fuzzer({
      method: 'POST', path: CUSTOMERS, changesData: true,
      base: draft('POST', CUSTOMERS, {}, admin, json({ name: '"New customer"', tier: '"standard"' })),
      ...plus(keyed('admin', keys), create.defects, create.oddities, [
        ...known.jsonBody, [jsonField('customerId', '"__proto__"', [400])], ...known.controlsIn('name'), ...known.nulIn('notes'),
      ]),
    }),
    fuzzer({
      method: 'GET', path: CUSTOMERS, changesData: false,
      base: draft('GET', CUSTOMERS, {}, admin),
      ...plus(keyed('admin', keys, {
        ...pageRules,
        search: { valid: values('cust', 'Premium', '%', 'a_b'), invalid: values('', 'x'.repeat(101), 'a\u0000b', 'a\nb') },
      }), [], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: CUSTOMER, changesData: false,
      base: draft('GET', CUSTOMER, { customerId: f.customers.free.customerId }, admin),
      ...plus(keyed('admin', keys), [customerParam]),
    }),
    fuzzer({
      method: 'PATCH', path: CUSTOMER, changesData: true,
      base: draft('PATCH', CUSTOMER, { customerId: f.customers.free.customerId }, admin, json({ name: '"Renamed"' })),
      ...plus(keyed('admin', keys), [customerParam, ...update.defects], update.oddities, [
        ...known.jsonBody, ...known.controlsIn('name'), ...known.nulIn('notes'),
      ]),
    }),
    fuzzer({
      method: 'POST', path: API_KEYS, changesData: true,
      base: draft('POST', API_KEYS, { customerId: premium }, admin, json({})),
      // A body the JSON parser skips (multipart, a +json type it does not parse) was ignored, and a
      // key issued as if the body had been empty.
      ...plus(keyed('admin', keys), [customerParam, ...issueKey.defects], issueKey.oddities, [
        ...known.jsonBody, [jsonContentType('multipart/form-data; boundary=x')], [malformedJsonOfType('application/merge-patch+json')],
      ]),
    }),
    fuzzer({
      method: 'GET', path: API_KEYS, changesData: false,
      base: draft('GET', API_KEYS, { customerId: premium }, admin),
      ...plus(keyed('admin', keys), [customerParam]),
    }),
    fuzzer({
      method: 'DELETE', path: `${API_KEYS}/:keyId`, changesData: true,
      base: draft('DELETE', `${API_KEYS}/:keyId`, { customerId: premium, keyId: f.keys.spare.keyId }, admin),
      ...plus(keyed('admin', keys), [
        customerParam,
        pathParameterDefects('customerId', fc.constantFrom(f.customers.free.customerId, f.customers.inactive.customerId)),
        // Not another customer's own key: with that customer's id in the path too, the pair would be valid.
        pathParameterDefects('keyId', fc.oneof(text.hostileSegment('key'), fc.constant(f.keys.revoked.keyId))),
      ], [unreadBodyOddities]),
    }),
    fuzzer({
      // The spare application lists no customer: a grant wrongly accepted would change it.
      method: 'PUT', path: ACCESS, changesData: true,
      base: draft('PUT', ACCESS, { customerId: f.customers.free.customerId, applicationId: f.apps.spare }, admin, json({})),
      ...plus(keyed('admin', keys), [customerParam, applicationParam(f.apps.deleted), ...grant.defects], grant.oddities, [...known.jsonBody]),
    }),
    fuzzer({
      // The main application lists every customer: a revocation wrongly accepted would change it.
      method: 'DELETE', path: ACCESS, changesData: true,
      base: draft('DELETE', ACCESS, { customerId: premium, applicationId: f.apps.main }, admin),
      ...plus(keyed('admin', keys), [customerParam, applicationParam(f.apps.deleted)], [unreadBodyOddities]),
    }),
  ];
}
