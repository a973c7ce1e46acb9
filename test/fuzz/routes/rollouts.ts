import fc from 'fast-check';
import { text } from '../fields';
import { pathParameterDefects, unreadBodyOddities } from '../mutations';
import { encoded } from '../values';
import type { RouteContext } from './context';
import { draft, fuzzer, keyed, plus, RouteFuzzer, values } from './route-fuzzer';

const VERSION = '/v1/management/applications/:applicationId/versions/:version';
const HEALTH = '/v1/applications/:applicationId/versions/:version/health';

/** A release's health, and resuming or stopping its rollout plan (the fixture's versions have none: 404, never a change). */
export function rolloutFuzzers({ f, keys, admin, applicationParam }: RouteContext): RouteFuzzer[] {
  const main = f.apps.main;
  // Versions that do not exist; for resume and stop, also one that exists without a plan.
  const missingVersions = fc.oneof(text.badVersionReference.map(encoded), values('..', '.', '%2e%2e', '9.9.9', '%', 'x'.repeat(129), '1.0.0%00'));
  const versionParam = pathParameterDefects('version', missingVersions, [400, 404]);
  const planVersionParam = pathParameterDefects('version', fc.oneof(missingVersions, values(f.versions.premium)), [400, 404]);
  const params = { applicationId: main, version: f.versions.open };
  const planRoute = (action: string): RouteFuzzer => fuzzer({
    method: 'POST', path: `${VERSION}/rollout/${action}`, changesData: true,
    base: draft('POST', `${VERSION}/rollout/${action}`, params, admin),
    ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted), planVersionParam], [unreadBodyOddities]),
  });
  return [
    fuzzer({
      method: 'GET', path: HEALTH, changesData: false,
      base: draft('GET', HEALTH, params, admin),
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted), versionParam], [unreadBodyOddities]),
    }),
    planRoute('resume'),
    planRoute('stop'),
  ];
}
