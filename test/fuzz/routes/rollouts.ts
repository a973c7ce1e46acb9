import fc from 'fast-check';
import { text } from '../fields';
import { FieldRule, pathParameterDefects, unreadBodyOddities } from '../mutations';
import { encoded, jsonNotString } from '../values';
import type { RouteContext } from './context';
import { draft, fuzzer, json, jsonBody, keyed, plus, RouteFuzzer, values } from './route-fuzzer';

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

const REPORTS = '/v1/updates/:applicationId/reports';

/** The reports installed apps send: a customer's key, a strict and bounded body. */
export function updateReportFuzzers({ f, keys, customer, applicationParam }: RouteContext): RouteFuzzer[] {
  const version = (): FieldRule => ({ required: true, valid: values('"1.0.0"', '"2.0.0-beta.1"', '"unknown"'), invalid: fc.oneof(values('""', '"1 0"', '"1.0/x"', `"${'v'.repeat(129)}"`, '"é"', '"😀"', '"1.0\\u0000"', '"1.0\\n"'), jsonNotString) });
  const body = jsonBody({
    installId: { valid: values('"0b3f5a2e-7c1d-4e8a-9f6b-2d4c8e1a3b5c"', '"install-1"'), invalid: fc.oneof(values('""', '"a b"', `"${'x'.repeat(129)}"`, '"é"'), jsonNotString) },
    fromVersion: version(),
    toVersion: version(),
    event: { required: true, valid: values('"download_failed"', '"install_failed"', '"started"'), invalid: fc.oneof(values('""', '"failed"', '"Started"', '"__proto__"'), jsonNotString) },
    message: { valid: values('"EPERM: operation not permitted"', '"line one\\nline two"'), invalid: fc.oneof(text.badMultiLine(500).map((v) => JSON.stringify(v)), jsonNotString) },
  }, { emptyIsRefused: true });
  return [
    fuzzer({
      method: 'POST', path: REPORTS, changesData: true,
      base: draft('POST', REPORTS, { applicationId: f.apps.main }, customer, json({ fromVersion: '"1.0.0"', toVersion: '"2.0.0"', event: '"install_failed"' })),
      ...plus(keyed('customer', keys), [applicationParam(f.apps.deleted, f.apps.spare), ...body.defects], body.oddities),
    }),
  ];
}
