import fc from 'fast-check';
import type { Mutation } from '../draft';
import { text } from '../fields';
import { FieldRule, pathParameterDefects, unreadBodyOddities } from '../mutations';
import { encoded, SINGLE_LINE_CONTROLS, insertedIn, jsonNotString, jsonString } from '../values';
import type { RouteContext } from './context';
import { draft, fuzzer, json, jsonBody, keyed, plus, RouteFuzzer, values } from './route-fuzzer';

const APT = '/v1/repos/:applicationId/apt';
const KEY = `${APT}/key.asc`;
const SUITE_FILES = ['InRelease', 'Release', 'Release.gpg'].map((name) => `${APT}/dists/:channel/${name}`);
const INDEX = `${APT}/dists/:channel/:component/:binary/:indexFile`;
const BY_HASH = `${APT}/dists/:channel/:component/:binary/by-hash/SHA256/:hash`;
const POOL = `${APT}/pool/:version/:fileName`;
const RPM = '/v1/repos/:applicationId/rpm';
const RPM_KEY = `${RPM}/key.asc`;
const REPOMD = [`${RPM}/:channel/repodata/repomd.xml`, `${RPM}/:channel/repodata/repomd.xml.asc`];
const REPODATA = `${RPM}/:channel/repodata/:fileName`;
const REPO_FILE = `${RPM}/:channel/:repoFile`;
const RPM_PACKAGE = `${RPM}/:channel/packages/:version/:fileName`;

/**
 * The apt repository: a valid request is answered with the customer's signed suite, its indexes
 * (an index the suite does not have is a 404 apt moves on from) or a package link (the fixture's
 * files are no .deb, so a 404); an unknown channel, a hostile path part or a file name too long is
 * refused, and nothing answers 5xx.
 */
const MANAGED = '/v1/management/applications/:applicationId/repositories';
const armoured = (body: string) => `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${body}\n-----END PGP PRIVATE KEY BLOCK-----\n`;

/** The vendor's key: armour that holds no key is refused by the service, anything else by the schema. */
const privateKeyField = (required: boolean): FieldRule => ({
  required,
  valid: fc.constantFrom(armoured('AAAA'), armoured('xsBNBGZ')).map(jsonString),
  invalid: fc.oneof(fc.constantFrom('', 'not a key', '-----BEGIN PGP PUBLIC KEY BLOCK-----', 'x'.repeat(40_000)).map(jsonString), jsonNotString),
});
const passphraseField: FieldRule = {
  required: false,
  valid: fc.constantFrom('correct horse', 'p').map(jsonString),
  invalid: fc.oneof(fc.constantFrom('', 'x'.repeat(1_025)).map(jsonString), jsonNotString),
};

export function repositoryFuzzers({ f, keys, customer, admin, applicationParam, known }: RouteContext): RouteFuzzer[] {
  const main = f.apps.main;
  const application = applicationParam(f.apps.deleted, f.apps.spare);
  const channelParam = pathParameterDefects('channel', fc.oneof(text.hostileSegment('cha'), values('', 'nightly', 'STABLE', 'latest', '__proto__').map(encoded)));
  const channels = fc.constantFrom('stable', 'beta', 'dev')
    .map((channel): Mutation => ({ label: `channel ${channel}`, defect: false, apply: (d) => { d.params.channel = channel; } }));
  const partParam = (name: string) => pathParameterDefects(name, fc.oneof(
    text.hostileSegment('prt'), values('x'.repeat(65), 'a b', 'a%b').map(encoded), insertedIn('main', SINGLE_LINE_CONTROLS).map(encoded),
  ));
  const indexes = fc.constantFrom('Packages', 'Packages.gz', 'Packages.xz', 'Release', 'Translation-en')
    .map((indexFile): Mutation => ({ label: `index ${indexFile}`, defect: false, apply: (d) => { d.params.indexFile = indexFile; } }));
  const binaries = fc.constantFrom('binary-amd64', 'binary-arm64', 'binary-all', 'i18n')
    .map((binary): Mutation => ({ label: `directory ${binary}`, defect: false, apply: (d) => { d.params.binary = binary; } }));
  const metadata = fc.constantFrom('primary.xml.gz', 'filelists.xml.gz', 'other.xml.gz', 'comps.xml', 'primary.sqlite.bz2')
    .map((fileName): Mutation => ({ label: `metadata ${fileName}`, defect: false, apply: (d) => { d.params.fileName = fileName; } }));
  const hashParam = pathParameterDefects('hash', fc.oneof(text.hostileSegment('hsh'), values('A'.repeat(64), 'a'.repeat(63), 'a'.repeat(65), 'g'.repeat(64), '').map(encoded)));
  const hashes = fc.stringMatching(/^[0-9a-f]{64}$/)
    .map((hash): Mutation => ({ label: 'another hash', defect: false, apply: (d) => { d.params.hash = hash; } }));
  const fileNameParam = pathParameterDefects('fileName', fc.oneof(text.badFileName.map(encoded), values('x'.repeat(256)).map(encoded)));
  const versionParam = pathParameterDefects('version', fc.oneof(values('', '1 0', 'v'.repeat(129)).map(encoded)));
  const noParameters = jsonBody({}, { emptyIsRefused: false });
  const importKey = jsonBody({ privateKey: privateKeyField(true), passphrase: passphraseField }, { emptyIsRefused: true });
  const managedApplication = applicationParam(f.apps.deleted);
  return [
    fuzzer({
      method: 'GET', path: MANAGED, changesData: false,
      base: draft('GET', MANAGED, { applicationId: main }, admin),
      ...plus(keyed('admin', keys), [managedApplication], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'POST', path: `${MANAGED}/rotate-key`, changesData: true,
      base: draft('POST', `${MANAGED}/rotate-key`, { applicationId: main }, admin, json({})),
      ...plus(keyed('admin', keys), [managedApplication, ...noParameters.defects], noParameters.oddities, [...known.jsonBody]),
    }),
    fuzzer({
      method: 'PUT', path: `${MANAGED}/key`, changesData: true,
      base: draft('PUT', `${MANAGED}/key`, { applicationId: main }, admin, json({ privateKey: JSON.stringify(armoured('AAAA')) })),
      ...plus(keyed('admin', keys), [managedApplication, ...importKey.defects], importKey.oddities, [...known.jsonBody]),
    }),
    fuzzer({
      method: 'GET', path: KEY, changesData: false,
      base: draft('GET', KEY, { applicationId: main }, customer),
      ...plus(keyed('customer', keys), [application], [unreadBodyOddities]),
    }),
    ...SUITE_FILES.map((path) => fuzzer({
      method: 'GET', path, changesData: false,
      base: draft('GET', path, { applicationId: main, channel: 'stable' }, customer),
      ...plus(keyed('customer', keys), [application, channelParam], [channels, unreadBodyOddities]),
    })),
    fuzzer({
      method: 'GET', path: INDEX, changesData: false,
      base: draft('GET', INDEX, { applicationId: main, channel: 'stable', component: 'main', binary: 'binary-amd64', indexFile: 'Packages' }, customer),
      ...plus(keyed('customer', keys), [application, channelParam, partParam('component'), partParam('binary'), partParam('indexFile')],
        [channels, indexes, binaries, unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: BY_HASH, changesData: false,
      base: draft('GET', BY_HASH, { applicationId: main, channel: 'stable', component: 'main', binary: 'binary-amd64', hash: 'a'.repeat(64) }, customer),
      ...plus(keyed('customer', keys), [application, channelParam, partParam('component'), partParam('binary'), hashParam], [channels, binaries, hashes, unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: POOL, changesData: false,
      base: draft('GET', POOL, { applicationId: main, version: f.versions.open, fileName: encoded(f.files.main.fileName) }, customer),
      ...plus(keyed('customer', keys), [application, versionParam, fileNameParam], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: RPM_KEY, changesData: false,
      base: draft('GET', RPM_KEY, { applicationId: main }, customer),
      ...plus(keyed('customer', keys), [application], [unreadBodyOddities]),
    }),
    ...REPOMD.map((path) => fuzzer({
      method: 'GET', path, changesData: false,
      base: draft('GET', path, { applicationId: main, channel: 'stable' }, customer),
      ...plus(keyed('customer', keys), [application, channelParam], [channels, unreadBodyOddities]),
    })),
    fuzzer({
      method: 'GET', path: REPODATA, changesData: false,
      base: draft('GET', REPODATA, { applicationId: main, channel: 'stable', fileName: 'primary.xml.gz' }, customer),
      ...plus(keyed('customer', keys), [application, channelParam, partParam('fileName')], [channels, metadata, unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: REPO_FILE, changesData: false,
      base: draft('GET', REPO_FILE, { applicationId: main, channel: 'stable', repoFile: `${main}.repo` }, customer),
      ...plus(keyed('customer', keys), [application, channelParam, partParam('repoFile')], [channels, unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: RPM_PACKAGE, changesData: false,
      base: draft('GET', RPM_PACKAGE, { applicationId: main, channel: 'stable', version: f.versions.open, fileName: encoded(f.files.main.fileName) }, customer),
      ...plus(keyed('customer', keys), [application, channelParam, versionParam, fileNameParam], [channels, unreadBodyOddities]),
    }),
  ];
}
