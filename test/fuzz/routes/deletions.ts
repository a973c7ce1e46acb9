import fc from 'fast-check';
import { text } from '../fields';
import { pathParameterDefects, unreadBodyOddities } from '../mutations';
import { encoded } from '../values';
import type { RouteContext } from './context';
import { draft, fuzzer, keyed, plus, RouteFuzzer, values } from './route-fuzzer';

const VERSION = '/v1/management/applications/:applicationId/versions/:version';
const FILE = `${VERSION}/files/:fileId`;
const CUSTOMER = '/v1/management/customers/:customerId';

/** Undoing mistakes: a draft version, a file of a draft (or of a failed upload), a customer. */
export function deletionFuzzers({ f, keys, admin, applicationParam, customerParam }: RouteContext): RouteFuzzer[] {
  const main = f.apps.main;
  // Versions that do not exist (404) and the shipped ones, which a deletion refuses (409).
  const versionParam = pathParameterDefects('version', fc.oneof(
    text.badVersionReference.map(encoded),
    values('..', '.', '%2e%2e', '9.9.9', '%', 'x'.repeat(129), f.versions.pending),
    values(f.versions.open, f.versions.premium),
  ), [400, 404, 405, 409]);
  const draftParams = { applicationId: main, version: f.draft.version };

  return [
    fuzzer({
      method: 'DELETE', path: VERSION, changesData: true,
      base: draft('DELETE', VERSION, draftParams, admin),
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted, f.apps.spare), versionParam], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'DELETE', path: FILE, changesData: true,
      base: draft('DELETE', FILE, { ...draftParams, fileId: f.draft.file.fileId }, admin),
      ...plus(keyed('admin', keys), [
        applicationParam(f.apps.deleted, f.apps.spare),
        versionParam,
        // Files of other versions (named under the draft's version: 404) and ids that name none.
        pathParameterDefects('fileId', fc.oneof(text.hostileSegment('fil'), values(f.files.main.fileId, f.files.premium.fileId))),
      ], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'DELETE', path: CUSTOMER, changesData: true,
      base: draft('DELETE', CUSTOMER, { customerId: f.customers.spare.customerId }, admin),
      ...plus(keyed('admin', keys), [customerParam], [unreadBodyOddities]),
    }),
  ];
}
