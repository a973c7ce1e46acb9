import fc from 'fast-check';
import type { Draft, Mutation } from '../draft';
import { text } from '../fields';
import { pathParameterDefects, QueryRules, unreadBodyOddities } from '../mutations';
import { encoded, insertedIn, SINGLE_LINE_CONTROLS, unknownId } from '../values';
import { byteRangeOddities, tokenPathDefects } from '../byte-paths';
import type { RouteContext } from './context';
import { draft, fuzzer, keyed, plus, RouteFuzzer, values } from './route-fuzzer';

const FEED = '/v1/updates/:applicationId';
const ELECTRON_CHANNEL_FILE = `${FEED}/electron/:channelFile`;
const ELECTRON_FILE = `${FEED}/electron/:version/:fileName`;
const TAURI_CHECK = `${FEED}/tauri/:target/:arch/:currentVersion`;
const SQUIRREL_MAC_CHECK = `${FEED}/squirrel-mac/:currentVersion`;

/**
 * The update feeds: electron-updater's channel files and file links, Tauri's and Squirrel.Mac's
 * checks. The main application's OPEN version has a MAIN file for any platform and its signature,
 * so every feed has an answer for the fixture's customers; a name the clients never send is a 404.
 */
export function updateFeedFuzzers({ f, keys, customer, applicationParam }: RouteContext): RouteFuzzer[] {
  const main = f.apps.main;
  const free = `Bearer ${f.customers.free.apiKey}`;
  const refusal = (label: string, apply: (d: Draft) => void, expects: number[]): Mutation => ({ label, defect: true, expects, apply });
  const channelRule = { valid: values('stable', 'beta', 'dev'), invalid: values('', 'nightly', 'STABLE', 'latest', 'beta ', '__proto__') };
  // Any version a client may run is valid (older, newer, not SemVer); only what no version can be is refused.
  const currentVersionParam = pathParameterDefects('currentVersion', fc.oneof(
    values(' ', '1 0', 'é', '😀', 'v'.repeat(129), '1.0/x').map(encoded),
    insertedIn('1.0', SINGLE_LINE_CONTROLS).map(encoded),
    values('1.0%00', '1.0%0A'),
  ));
  const application = applicationParam(f.apps.deleted, f.apps.spare);
  const clientName = (name: string, unknown: string[]) => pathParameterDefects(name, fc.oneof(
    text.hostileSegment(name.slice(0, 3)),
    values(...unknown, 'x'.repeat(65)).map(encoded),
  ));

  return [
    fuzzer({
      method: 'GET', path: ELECTRON_CHANNEL_FILE, changesData: false,
      base: draft('GET', ELECTRON_CHANNEL_FILE, { applicationId: main, channelFile: 'latest.yml' }, customer),
      ...plus(keyed('customer', keys, { noCache: { valid: values('1a2b3c', ''), invalid: values('x'.repeat(65)) } }), [
        application,
        clientName('channelFile', ['latest', 'latest.yaml', 'nightly.yml', 'Latest.yml', 'latest-linux-ppc64.yml', 'latest-windows.yml', '.yml', '__proto__.yml']),
      ], [
        fc.constantFrom('latest-mac.yml', 'latest-linux.yml', 'latest-linux-arm64.yml', 'beta.yml', 'stable-mac.yml', 'dev-linux-arm.yml')
          .map((channelFile): Mutation => ({ label: `channel file ${channelFile}`, defect: false, apply: (d) => { d.params.channelFile = channelFile; } })),
        unreadBodyOddities,
      ]),
    }),
    fuzzer({
      method: 'GET', path: ELECTRON_FILE, changesData: false,
      base: draft('GET', ELECTRON_FILE, { applicationId: main, version: f.versions.open, fileName: encoded(f.files.main.fileName) }, customer),
      ...plus(keyed('customer', keys), [
        application,
        pathParameterDefects('version', fc.oneof(text.badVersionReference.map(encoded), values(f.versions.pending, 'latest', '%2e%2e', '1.0.0%2F'))),
        pathParameterDefects('fileName', fc.oneof(
          text.badFileName.map(encoded),
          unknownId('setup').map((name) => `${name}.exe`),
          values(encoded(f.files.main.fileName.toUpperCase()), `${encoded(f.files.main.fileName)}%00`),
        )),
        fc.constant(refusal('the blockmap of a file that has none', (d) => { d.params.fileName = `${encoded(f.files.main.fileName)}.blockmap`; }, [404])),
        fc.constant(refusal('a free customer asking for a file of a premium version', (d) => {
          d.authorization = free;
          d.params.version = f.versions.premium;
        }, [403])),
        tokenPathDefects(f.pathTokens),
      ], [
        fc.constant<Mutation>({ label: 'a file that is not MAIN', defect: false, apply: (d) => { d.params.fileName = encoded(f.files.dependency.fileName); } }),
        // A differential update's byte ranges, with a key or an access token in the path.
        byteRangeOddities(f.pathTokens, customer),
        unreadBodyOddities,
      ]),
    }),
    fuzzer({
      method: 'GET', path: TAURI_CHECK, changesData: false,
      base: draft('GET', TAURI_CHECK, { applicationId: main, target: 'windows', arch: 'x86_64', currentVersion: '0.9.0' }, customer),
      ...plus(keyed('customer', keys, { channel: channelRule }), [
        application,
        clientName('target', ['win32', 'Windows', 'macos', 'freebsd', 'any']),
        clientName('arch', ['x64', 'amd64', 'AARCH64', 'arm64', 'any']),
        currentVersionParam,
      ], [
        fc.constantFrom('1.0.0', '9.9.9', '0.0.1-beta', '2024.01.15', 'v1', '%')
          .map((version): Mutation => ({ label: `current version ${version}`, defect: false, apply: (d) => { d.params.currentVersion = encoded(version); } })),
        fc.constantFrom(['linux', 'aarch64'], ['darwin', 'x86_64'], ['windows', 'i686'], ['linux', 'armv7'])
          .map(([target, arch]): Mutation => ({ label: `target ${target} ${arch}`, defect: false, apply: (d) => { d.params.target = target; d.params.arch = arch; } })),
        unreadBodyOddities,
      ]),
    }),
    fuzzer({
      method: 'GET', path: SQUIRREL_MAC_CHECK, changesData: false,
      base: draft('GET', SQUIRREL_MAC_CHECK, { applicationId: main, currentVersion: '0.9.0' }, customer),
      ...plus(keyed('customer', keys, squirrelRules(channelRule)), [application, currentVersionParam], [
        fc.constantFrom('1.0.0', '9.9.9', '2024.01.15', 'v1')
          .map((version): Mutation => ({ label: `current version ${version}`, defect: false, apply: (d) => { d.params.currentVersion = encoded(version); } })),
        unreadBodyOddities,
      ]),
    }),
  ];
}

function squirrelRules(channel: QueryRules[string]): QueryRules {
  return {
    channel,
    arch: { valid: values('x64', 'arm64'), invalid: values('', 'universal', 'aarch64', 'X64', 'any', 'constructor') },
  };
}
