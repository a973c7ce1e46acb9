import fc from 'fast-check';
import type { Mutation } from '../draft';
import { text } from '../fields';
import { pathParameterDefects, unreadBodyOddities } from '../mutations';
import { encoded } from '../values';
import type { RouteContext } from './context';
import { draft, fuzzer, keyed, plus, RouteFuzzer, values } from './route-fuzzer';

const APPCAST = '/v1/updates/:applicationId/sparkle/:channel/appcast.xml';

/**
 * Sparkle's appcast: a valid request is answered with an appcast (items or none) for the fixture's
 * customers; a channel the service does not know, an os other than macOS and Windows, or an arch
 * no build is made for is refused.
 */
export function sparkleFuzzers({ f, keys, customer, applicationParam }: RouteContext): RouteFuzzer[] {
  const application = applicationParam(f.apps.deleted, f.apps.spare);
  return [
    fuzzer({
      method: 'GET', path: APPCAST, changesData: false,
      base: draft('GET', APPCAST, { applicationId: f.apps.main, channel: 'stable' }, customer),
      ...plus(keyed('customer', keys, {
        os: { valid: values('macos', 'windows'), invalid: values('', 'linux', 'macOS', 'any', 'darwin', '__proto__') },
        arch: { valid: values('x64', 'arm64', 'universal'), invalid: values('', 'any', 'amd64', 'X64', 'constructor') },
      }), [
        application,
        pathParameterDefects('channel', fc.oneof(text.hostileSegment('cha'), values('', 'nightly', 'STABLE', 'latest', '__proto__').map(encoded))),
      ], [
        fc.constantFrom('beta', 'dev', 'rc')
          .map((channel): Mutation => ({ label: `channel ${channel}`, defect: false, apply: (d) => { d.params.channel = channel; } })),
        unreadBodyOddities,
      ]),
    }),
  ];
}
