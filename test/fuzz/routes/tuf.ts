import fc from 'fast-check';
import { text } from '../fields';
import { FieldRule, pathParameterDefects, unreadBodyOddities } from '../mutations';
import { encoded, jsonNotArray } from '../values';
import type { Mutation } from '../draft';
import type { RouteContext } from './context';
import { draft, fuzzer, json, jsonBody, keyed, plus, RouteFuzzer, values } from './route-fuzzer';

const MANAGED = '/v1/management/applications/:applicationId/tuf';
const ROOTS = `${MANAGED}/roots`;
const METADATA = '/v1/tuf/:applicationId/:metadataFile';
const TARGET = '/v1/tuf/:applicationId/targets/:version/:fileName';

const signature = (keyid: string, sig: string) => ({ keyid, sig });

/**
 * The TUF repositories: the vendor's root (a well-formed one that no key signed is refused by the
 * service, 422; anything else by the schema), metadata documents by name (a name the specification
 * does not give is a 400; the fixture's application has no root yet, a 404), and targets, which are
 * downloads.
 */
export function tufFuzzers({ f, keys, customer, admin, applicationParam, known }: RouteContext): RouteFuzzer[] {
  const main = f.apps.main;
  const application = applicationParam(f.apps.deleted, f.apps.spare);
  const managedApplication = applicationParam(f.apps.deleted);
  const signed: FieldRule = {
    required: true,
    valid: values(JSON.stringify({ _type: 'root', version: 1 }), '{}'),
    invalid: values('[]', '"root"', '1', 'null'),
    expects: [400, 422],
  };
  const signatures: FieldRule = {
    required: true,
    valid: values(JSON.stringify([signature('ab'.repeat(32), 'cd'.repeat(64))])),
    invalid: fc.oneof(jsonNotArray, values('[]', '[{}]', '[null]', JSON.stringify([signature('XYZ', 'ab')]), JSON.stringify([signature('ab', '')]),
      JSON.stringify([{ ...signature('ab', 'cd'), extra: 1 }]), JSON.stringify(Array.from({ length: 17 }, () => signature('ab', 'cd'))))),
  };
  const root = jsonBody({ signed, signatures }, { emptyIsRefused: true });
  const metadataParam = pathParameterDefects('metadataFile', fc.oneof(text.hostileSegment('meta'),
    values('0.root.json', 'root', 'ROOT.json', 'nightly.json', 'mirrors.json', '1.snapshot.json', 'x'.repeat(81)).map(encoded)));
  const documents = fc.constantFrom('root.json', '1.root.json', 'timestamp.json', 'snapshot.json', 'targets.json', 'stable.json', 'beta.json')
    .map((metadataFile): Mutation => ({ label: `document ${metadataFile}`, defect: false, apply: (d) => { d.params.metadataFile = metadataFile; } }));
  const fileNameParam = pathParameterDefects('fileName', fc.oneof(text.badFileName.map(encoded), values('x'.repeat(256)).map(encoded)));
  const versionParam = pathParameterDefects('version', fc.oneof(values('', '1 0', 'v'.repeat(129)).map(encoded)));
  return [
    fuzzer({
      method: 'GET', path: MANAGED, changesData: false,
      base: draft('GET', MANAGED, { applicationId: main }, admin),
      ...plus(keyed('admin', keys), [managedApplication], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'POST', path: ROOTS, changesData: true,
      base: draft('POST', ROOTS, { applicationId: main }, admin, json({
        signed: JSON.stringify({ _type: 'root', version: 1 }), signatures: JSON.stringify([signature('ab'.repeat(32), 'cd'.repeat(64))]),
      })),
      ...plus(keyed('admin', keys), [managedApplication, ...root.defects], root.oddities, [...known.jsonBody]),
    }),
    fuzzer({
      method: 'GET', path: METADATA, changesData: false,
      base: draft('GET', METADATA, { applicationId: main, metadataFile: 'timestamp.json' }, customer),
      ...plus(keyed('customer', keys), [application, metadataParam], [documents, unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: TARGET, changesData: false,
      base: draft('GET', TARGET, { applicationId: main, version: f.versions.open, fileName: encoded(f.files.main.fileName) }, customer),
      ...plus(keyed('customer', keys), [application, versionParam, fileNameParam], [unreadBodyOddities]),
    }),
  ];
}
