import fc from 'fast-check';
import type { Mutation } from '../draft';
import { fields, text } from '../fields';
import { FieldRules, pathParameterDefects, unreadBodyOddities } from '../mutations';
import { jsonString } from '../values';
import { hashSecret } from '../../../shared/secrets';
import type { RouteContext } from './context';
import { draft, fuzzer, json, jsonBody, keyed, plus, RouteFuzzer, setJson } from './route-fuzzer';

const SHARE_LINKS = '/v1/management/customers/:customerId/share-links';

/** A customer's share links as the vendor's team lists, makes and revokes them. */
export function customerShareLinkFuzzers({ f, keys, admin, customerParam, known }: RouteContext): RouteFuzzer[] {
  const main = f.apps.main;
  const premium = f.customers.premium.customerId;
  const rules: FieldRules = {
    applicationId: { ...fields.applicationReference([f.apps.deleted, f.apps.spare]), valid: fc.constant(jsonString(main)) },
    version: {
      required: true,
      valid: fc.constant(jsonString(f.versions.open)),
      invalid: fc.oneof(fields.versionReference().invalid, fc.constant(jsonString(f.versions.pending))),
      expects: [400, 404],
    },
    fileId: { ...fields.fileId(), valid: fc.constant(jsonString(f.files.main.fileId)) },
    expiresInMinutes: fields.expiresInMinutes(),
    maxDownloads: fields.maxDownloads(),
  };
  const create = jsonBody(rules, { emptyIsRefused: true });
  const refusal = (label: string, apply: Parameters<typeof setJson>[1], expects: number[], customerId: string): Mutation => ({
    label, defect: true, expects, apply: (d) => { d.params.customerId = customerId; setJson(d, apply); },
  });
  return [
    fuzzer({
      method: 'GET', path: SHARE_LINKS, changesData: false,
      base: draft('GET', SHARE_LINKS, { customerId: premium }, admin),
      ...plus(keyed('admin', keys), [customerParam], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'POST', path: SHARE_LINKS, changesData: true,
      base: draft('POST', SHARE_LINKS, { customerId: premium }, admin, json({ applicationId: jsonString(main), version: jsonString(f.versions.open) })),
      ...plus(keyed('admin', keys), [
        customerParam, ...create.defects,
        fc.constant(refusal('a free customer made to share a premium version', { version: jsonString(f.versions.premium) }, [403], f.customers.free.customerId)),
        fc.constant(refusal('an inactive customer', {}, [409], f.customers.inactive.customerId)),
      ], create.oddities, known.jsonBody),
    }),
    fuzzer({
      method: 'DELETE', path: `${SHARE_LINKS}/:shareLinkId`, changesData: true,
      base: draft('DELETE', `${SHARE_LINKS}/:shareLinkId`, { customerId: premium, shareLinkId: hashSecret(f.shares.managed) }, admin),
      ...plus(keyed('admin', keys), [
        customerParam,
        pathParameterDefects('customerId', fc.constant(f.customers.free.customerId)),
        pathParameterDefects('shareLinkId', fc.oneof(text.hostileSegment('shr'), fc.constant(hashSecret(f.shares.revoked)), fc.constant(f.shares.managed)), [404]),
      ], [unreadBodyOddities]),
    }),
  ];
}
