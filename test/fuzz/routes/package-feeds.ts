import fc from 'fast-check';
import type { Mutation } from '../draft';
import { text } from '../fields';
import { pathParameterDefects, unreadBodyOddities } from '../mutations';
import { encoded, SINGLE_LINE_CONTROLS, insertedIn } from '../values';
import { byteRangeOddities, tokenPathDefects } from '../byte-paths';
import type { RouteContext } from './context';
import { draft, fuzzer, keyed, plus, RouteFuzzer, values } from './route-fuzzer';

const FEED = '/v1/updates/:applicationId';
const SQUIRREL_RELEASES = `${FEED}/squirrel-windows/RELEASES`;
const SQUIRREL_CHANNEL_RELEASES = `${FEED}/squirrel-windows/:channel/RELEASES`;
const SQUIRREL_PACKAGE = `${FEED}/squirrel-windows/:channel/:fileName`;
const VELOPACK_FEED = `${FEED}/velopack/releases.:channel([^/]+).json`;
const VELOPACK_RELEASES = `${FEED}/velopack/RELEASES`;
const VELOPACK_CHANNEL_RELEASES = `${FEED}/velopack/RELEASES-:channel`;
const VELOPACK_PACKAGE = `${FEED}/velopack/:fileName`;

/**
 * The Squirrel.Windows and Velopack feeds and their package links. The fixture's versions have no
 * NuGet package, so a valid check answers 404 (Squirrel: no build) or an empty Velopack feed, and a
 * package link 404; a defect must still be refused, and nothing may answer 5xx.
 */
export function packageFeedFuzzers({ f, keys, customer, applicationParam }: RouteContext): RouteFuzzer[] {
  const main = f.apps.main;
  const application = applicationParam(f.apps.deleted, f.apps.spare);
  const squirrelQuery = {
    id: { valid: values('MyApp', 'My.App_2-x'), invalid: values('', 'my app', 'x'.repeat(101), 'a/b') },
    localVersion: { valid: values('1.0.0', '0.9.0', '2024.01.15'), invalid: values('', '1 0', 'v'.repeat(129)) },
    arch: { valid: values('amd64', 'x86'), invalid: values('', 'x64', 'AMD64', 'arm64', 'constructor') },
  };
  const velopackQuery = {
    localVersion: { valid: values('1.0.0', '0.9.0'), invalid: values('', '1 0', 'v'.repeat(129)) },
    id: { valid: values('MyApp'), invalid: values('', 'my app') },
    stagingId: { valid: values('0a1b2c', 'd3b07384-d9a0-4c9b-8b1a-0e2f1b3c4d5e'), invalid: values('', 'x'.repeat(65)) },
  };
  const channelParam = pathParameterDefects('channel', fc.oneof(
    text.hostileSegment('cha'),
    values('x'.repeat(65)).map(encoded),
    insertedIn('beta', SINGLE_LINE_CONTROLS).map(encoded),
  ));
  const fileNameParam = pathParameterDefects('fileName', fc.oneof(text.badFileName.map(encoded), values('x'.repeat(256)).map(encoded)));
  const channels = fc.constantFrom('stable', 'beta', 'dev', 'nightly', 'STABLE', '__proto__')
    .map((channel): Mutation => ({ label: `channel ${channel}`, defect: false, apply: (d) => { d.params.channel = channel; } }));
  const packages = fc.constantFrom('MyApp-1.0.0-full.nupkg', 'MyApp-1.0.0-delta.nupkg', 'MyApp-9.9.9-linux-full.nupkg', f.files.main.fileName, 'RELEASES.nupkg')
    .map((fileName): Mutation => ({ label: `package ${fileName}`, defect: false, apply: (d) => { d.params.fileName = encoded(fileName); } }));
  // Names with dots and escaped ones are the client's channel too: no channel here, 404 like any other.
  const velopackChannels = fc.constantFrom('win', 'osx', 'linux', 'beta', 'beta-linux', 'nightly', 'win-beta', 'a.b', 'beta.linux', '\u00e4.\u00e7', '%41')
    .map((channel): Mutation => ({ label: `Velopack channel ${channel}`, defect: false, apply: (d) => { d.params.channel = encoded(channel); } }));

  return [
    fuzzer({
      method: 'GET', path: SQUIRREL_RELEASES, changesData: false,
      base: draft('GET', SQUIRREL_RELEASES, { applicationId: main }, customer),
      ...plus(keyed('customer', keys, squirrelQuery), [application], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: SQUIRREL_CHANNEL_RELEASES, changesData: false,
      base: draft('GET', SQUIRREL_CHANNEL_RELEASES, { applicationId: main, channel: 'beta' }, customer),
      ...plus(keyed('customer', keys, squirrelQuery), [application, channelParam], [channels, unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: SQUIRREL_PACKAGE, changesData: false,
      base: draft('GET', SQUIRREL_PACKAGE, { applicationId: main, channel: 'stable', fileName: 'MyApp-1.0.0-full.nupkg' }, customer),
      ...plus(keyed('customer', keys), [application, channelParam, fileNameParam, tokenPathDefects(f.pathTokens, 404)], [channels, packages, byteRangeOddities(f.pathTokens, customer), unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: VELOPACK_FEED, changesData: false,
      base: draft('GET', VELOPACK_FEED, { applicationId: main, channel: 'win' }, customer),
      ...plus(keyed('customer', keys, velopackQuery), [application, channelParam], [velopackChannels, unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: VELOPACK_RELEASES, changesData: false,
      base: draft('GET', VELOPACK_RELEASES, { applicationId: main }, customer),
      ...plus(keyed('customer', keys, squirrelQuery), [application], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: VELOPACK_CHANNEL_RELEASES, changesData: false,
      base: draft('GET', VELOPACK_CHANNEL_RELEASES, { applicationId: main, channel: 'linux' }, customer),
      ...plus(keyed('customer', keys, squirrelQuery), [application, channelParam], [velopackChannels, unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: VELOPACK_PACKAGE, changesData: false,
      base: draft('GET', VELOPACK_PACKAGE, { applicationId: main, fileName: 'MyApp-1.0.0-full.nupkg' }, customer),
      ...plus(keyed('customer', keys), [application, fileNameParam, tokenPathDefects(f.pathTokens, 404)], [packages, byteRangeOddities(f.pathTokens, customer), unreadBodyOddities]),
    }),
  ];
}
