import fc from 'fast-check';
import { fields } from '../fields';
import { FieldRule, FieldRules, jsonContentType, malformedJsonOfType, pathParameterDefects, unreadBodyOddities } from '../mutations';
import { jsonNotArray, jsonNotBoolean, jsonNotString, jsonString } from '../values';
import type { RouteContext } from './context';
import { draft, fuzzer, json, jsonBody, keyed, plus, RouteFuzzer } from './route-fuzzer';
import { text } from '../fields';

const WEBHOOKS = '/v1/management/webhooks';
const WEBHOOK = `${WEBHOOKS}/:webhookId`;
const DELIVERIES = `${WEBHOOK}/deliveries`;
const REDELIVER = `${DELIVERIES}/:deliveryId/redeliver`;

const oneOf = (...values: string[]) => fc.constantFrom(...values);

/** Where deliveries may go: https, and never to a private, loopback or link-local address (the service under fuzz allows no host). */
const webhookUrl = (required: boolean): FieldRule => ({
  required,
  valid: oneOf('https://hooks.example.com/in', 'https://hooks.example.com:8443/a?b=c').map(jsonString),
  invalid: fc.oneof(
    oneOf(
      '', 'hooks.example.com', 'http://hooks.example.com/in', 'ftp://hooks.example.com', 'https://user:pw@hooks.example.com/',
      'https://hooks.example.com/#x', 'https://127.0.0.1/', 'https://10.0.0.1/', 'https://169.254.169.254/', 'https://[::1]/',
      'https://[fe80::1]/', 'https://[::ffff:127.0.0.1]/', 'https://0.0.0.0/', 'javascript:alert(1)', 'https://hooks.example.com/\u0000',
      'https://hooks\n.example.com/', `https://hooks.example.com/${'a'.repeat(2_048)}`,
    ).map(jsonString),
    jsonNotString,
  ),
});

const webhookEvents = (required: boolean): FieldRule => ({
  required,
  valid: oneOf('["customer.created"]', '["download.recorded","upload.failed"]'),
  invalid: fc.oneof(
    oneOf('[]', '["customer.deleted"]', '[""]', '[1]', '[null]', '["customer.created","customer.created"]', '["CUSTOMER.CREATED"]', '["__proto__"]'),
    jsonNotArray,
  ),
});

/** Webhook endpoints, their secrets and delivery logs. */
export function webhookFuzzers({ f, keys, admin, pageRules, known }: RouteContext): RouteFuzzer[] {
  const endpointFields = (creating: boolean): FieldRules => ({
    url: webhookUrl(creating),
    events: webhookEvents(creating),
    description: fields.multiLine(2_000, { nullable: true }),
    isActive: { valid: oneOf('true', 'false'), invalid: jsonNotBoolean },
  });
  const create = jsonBody(endpointFields(true), { emptyIsRefused: true });
  const update = jsonBody(endpointFields(false), { emptyIsRefused: true });
  const noParameters = jsonBody({}, { emptyIsRefused: false });
  const webhookParam = pathParameterDefects('webhookId', text.hostileSegment('whk'));
  const deliveryParam = pathParameterDefects('deliveryId', text.hostileSegment('msg'));
  const main = f.webhooks.main;

  return [
    fuzzer({
      method: 'POST', path: WEBHOOKS, changesData: true,
      base: draft('POST', WEBHOOKS, {}, admin, json({ url: '"https://hooks.example.com/in"', events: '["customer.created"]' })),
      ...plus(keyed('admin', keys), create.defects, create.oddities, [...known.jsonBody, ...known.controlsIn('url'), ...known.nulIn('description')]),
    }),
    fuzzer({
      method: 'GET', path: WEBHOOKS, changesData: false,
      base: draft('GET', WEBHOOKS, {}, admin),
      ...plus(keyed('admin', keys, pageRules), [], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: WEBHOOK, changesData: false,
      base: draft('GET', WEBHOOK, { webhookId: main }, admin),
      ...plus(keyed('admin', keys), [webhookParam]),
    }),
    fuzzer({
      method: 'PATCH', path: WEBHOOK, changesData: true,
      base: draft('PATCH', WEBHOOK, { webhookId: main }, admin, json({ description: '"Changed"' })),
      ...plus(keyed('admin', keys), [webhookParam, ...update.defects], update.oddities, [...known.jsonBody, ...known.controlsIn('url'), ...known.nulIn('description')]),
    }),
    fuzzer({
      method: 'DELETE', path: WEBHOOK, changesData: true,
      base: draft('DELETE', WEBHOOK, { webhookId: f.webhooks.spare }, admin),
      ...plus(keyed('admin', keys), [webhookParam], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'POST', path: `${WEBHOOK}/rotate-secret`, changesData: true,
      base: draft('POST', `${WEBHOOK}/rotate-secret`, { webhookId: main }, admin, json({})),
      ...plus(keyed('admin', keys), [webhookParam, ...noParameters.defects], noParameters.oddities, [
        ...known.jsonBody, [jsonContentType('multipart/form-data; boundary=x')], [malformedJsonOfType('application/merge-patch+json')],
      ]),
    }),
    fuzzer({
      method: 'GET', path: DELIVERIES, changesData: false,
      base: draft('GET', DELIVERIES, { webhookId: main }, admin),
      ...plus(keyed('admin', keys, pageRules), [webhookParam], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'POST', path: REDELIVER, changesData: true,
      base: draft('POST', REDELIVER, { webhookId: main, deliveryId: 'msg_unknown' }, admin, json({})),
      ...plus(keyed('admin', keys), [webhookParam, deliveryParam, ...noParameters.defects], noParameters.oddities, known.jsonBody),
    }),
  ];
}
