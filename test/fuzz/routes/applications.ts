import fc from 'fast-check';
import { generateKeyPairSync } from 'node:crypto';
import { fields, text } from '../fields';
import { FieldRules, jsonField, pathParameterDefects, QueryRules, unreadBodyOddities } from '../mutations';
import { encoded, jsonNotBoolean, jsonNotNullableString, jsonNotNumber, jsonNotString, jsonString, NOT_A_BOOLEAN, unusualText } from '../values';
import type { RouteContext } from './context';
import { draft, fuzzer, json, jsonBody, keyed, plus, RouteFuzzer, values } from './route-fuzzer';

const APPLICATIONS = '/v1/management/applications';
const APPLICATION = `${APPLICATIONS}/:applicationId`;
/** An Ed25519 public key as Sparkle's generate_keys prints it (base64 of 32 bytes). */
const SPARKLE_PUBLIC_KEY = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x as string, 'base64url').toString('base64');

/** Applications and their versions. */
export function applicationFuzzers({ f, keys, admin, customerIds, fresh, pageRules, applicationParam, known }: RouteContext): RouteFuzzer[] {
  const main = f.apps.main;
  const applicationFields = (creating: boolean): FieldRules => ({
    ...(creating ? { applicationId: fields.newApplicationId([main, f.apps.deleted]) } : {}),
    name: fields.name(creating),
    description: fields.multiLine(2_000, { nullable: true }),
    tags: fields.tags(),
    customerIds: fields.customerIds(customerIds),
    sparklePublicKey: {
      valid: values(`"${SPARKLE_PUBLIC_KEY}"`, 'null'),
      invalid: fc.oneof(values('""', '"abc"', `"${Buffer.alloc(64).toString('base64')}"`, `"${SPARKLE_PUBLIC_KEY.slice(1)}"`), jsonNotNullableString),
    },
  });
  const create = jsonBody(applicationFields(true), { emptyIsRefused: false });
  const update = jsonBody(applicationFields(false), { emptyIsRefused: true });
  const listRules: QueryRules = {
    ...pageRules,
    tag: { valid: fc.oneof(values('fuzz', 'none'), unusualText('t')), invalid: values('') },
    customerId: { valid: values(...customerIds, 'nobody'), invalid: values('') },
    includeDeleted: { valid: values('true', 'false'), invalid: values(...NOT_A_BOOLEAN) },
  };
  const versionUpdate = jsonBody({
    requiredTier: fields.tier(false, true),
    releaseNotes: fields.multiLine(20_000, { nullable: true }),
    channel: { valid: values('"stable"', '"rc"'), invalid: fc.oneof(values('"nightly"', '""', '"Stable"', '"latest"', '"__proto__"'), jsonNotString) },
    // The seeded version is published: naming that status is no change, draft is a transition the lifecycle refuses.
    status: {
      valid: values('"published"'),
      invalid: fc.oneof(values('"draft"', '"deleted"', '""', '"Published"'), jsonNotString),
      expects: [400, 409],
    },
    // null stops the version's plan (a plan given with rolloutPercentage would be refused: the integration tests set plans).
    rolloutPlan: {
      valid: values('null'),
      invalid: fc.oneof(values(
        '{}', '[]', '"5%"', '{"steps":[],"halt":{"minOffered":1,"minSuccessRate":0.9,"maxFailureReports":0}}',
        '{"steps":[{"percentage":5,"after":"1h"}],"halt":{"minOffered":1,"minSuccessRate":0.9,"maxFailureReports":0}}',
        '{"steps":[{"percentage":5,"after":"0h"},{"percentage":5,"after":"1h"}],"halt":{"minOffered":1,"minSuccessRate":0.9,"maxFailureReports":0}}',
        '{"steps":[{"percentage":5,"after":"0h"}],"halt":{"minOffered":0,"minSuccessRate":2,"maxFailureReports":-1}}',
        '{"steps":[{"percentage":5,"after":"0h"}]}',
        '{"steps":[{"percentage":5,"after":"0h","x":1}],"halt":{"minOffered":1,"minSuccessRate":0.9,"maxFailureReports":0}}',
      ), jsonNotNullableString),
    },
    rolloutPercentage: { valid: values('100', '50', '1'), invalid: fc.oneof(values('0', '101', '-1', '12.5', '1e3', '1e999', '-0'), jsonNotNumber) },
    bundleVersion: { valid: values('"1042"', '"1.2.3"', 'null'), invalid: fc.oneof(values('""', '"a b"', '"<1>"', '"1."', `"${'9'.repeat(65)}"`), jsonNotNullableString) },
    minimumSystemVersion: { valid: values('"11.0"', '"10.0.17763"', 'null'), invalid: fc.oneof(values('""', '"eleven"', '"11.0.0.0.0"', '"11 "'), jsonNotNullableString) },
    critical: { valid: values('true', 'false'), invalid: jsonNotBoolean },
  }, { emptyIsRefused: true });
  const statusFilter = values('draft', 'published', 'yanked');
  const versionListRules: QueryRules = {
    channel: { valid: values('stable', 'beta'), invalid: values('', 'nightly', 'STABLE', '__proto__') },
    status: { valid: statusFilter, invalid: values('', 'Published', 'deleted', 'constructor') },
  };
  const versionParam = pathParameterDefects('version', fc.oneof(
    text.badVersionReference.map(encoded),
    values('..', '.', '%2e%2e', '%2E', '9.9.9', '1.0.0%00', '1.0.0%2F', '%', 'x'.repeat(129), '1.0.0%20'),
  ));

  return [
    fuzzer({
      method: 'POST', path: APPLICATIONS, changesData: true,
      base: () => draft('POST', APPLICATIONS, {}, admin, json({ applicationId: jsonString(fresh('new')), name: '"New application"' })),
      ...plus(keyed('admin', keys), create.defects, create.oddities, [...known.jsonBody, ...known.controlsIn('name'), ...known.nulIn('description')]),
    }),
    fuzzer({
      method: 'GET', path: APPLICATIONS, changesData: false,
      base: draft('GET', APPLICATIONS, {}, admin),
      ...plus(keyed('admin', keys, listRules), [], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: APPLICATION, changesData: false,
      base: draft('GET', APPLICATION, { applicationId: main }, admin),
      // Not the deleted application: includeDeleted=true, a valid query, finds it.
      ...plus(keyed('admin', keys, { includeDeleted: listRules.includeDeleted }), [applicationParam()], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'PATCH', path: APPLICATION, changesData: true,
      base: draft('PATCH', APPLICATION, { applicationId: main }, admin, json({ name: '"Renamed"' })),
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted), ...update.defects], update.oddities, [
        ...known.jsonBody, ...known.controlsIn('name'), ...known.nulIn('description'),
      ]),
    }),
    fuzzer({
      method: 'DELETE', path: APPLICATION, changesData: true,
      base: draft('DELETE', APPLICATION, { applicationId: f.apps.spare }, admin),
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted)], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'POST', path: `${APPLICATION}/restore`, changesData: true,
      base: draft('POST', `${APPLICATION}/restore`, { applicationId: f.apps.deleted }, admin),
      ...plus(keyed('admin', keys), [
        pathParameterDefects('applicationId', fc.oneof(text.hostileSegment('app'), values(main, f.apps.spare)), [400, 404, 409]),
      ], [unreadBodyOddities]),
    }),
    fuzzer({
      // The deleted application was deleted moments ago: within RELEASE_PURGE_AFTER_DAYS, a purge is refused (409).
      method: 'POST', path: `${APPLICATION}/purge`, changesData: true,
      base: draft('POST', `${APPLICATION}/purge`, { applicationId: f.apps.deleted }, admin),
      ...plus(keyed('admin', keys), [
        pathParameterDefects('applicationId', fc.oneof(text.hostileSegment('app'), values(main, f.apps.spare)), [400, 404, 409]),
      ], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: `${APPLICATION}/versions`, changesData: false,
      base: draft('GET', `${APPLICATION}/versions`, { applicationId: main }, admin),
      ...plus(keyed('admin', keys, versionListRules), [applicationParam(f.apps.deleted)]),
    }),
    fuzzer({
      method: 'PATCH', path: `${APPLICATION}/versions/:version`, changesData: true,
      base: draft('PATCH', `${APPLICATION}/versions/:version`, { applicationId: main, version: f.versions.open }, admin, json({ releaseNotes: '"Changed"' })),
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted), versionParam, ...versionUpdate.defects], versionUpdate.oddities, [
        ...known.jsonBody, ...known.nulIn('releaseNotes'),
        // rollbackTo and yankReason go with status yanked only; the seeded version stays published.
        [jsonField('rollbackTo', '"1.0.0"', [400])], [jsonField('yankReason', '"Crashes"', [400])],
      ]),
    }),
    fuzzer({
      method: 'GET', path: `${APPLICATION}/versions/:version/files/:fileId/download`, changesData: false,
      base: draft('GET', `${APPLICATION}/versions/:version/files/:fileId/download`, { applicationId: main, version: f.versions.open, fileId: f.files.main.fileId }, admin),
      ...plus(keyed('admin', keys), [
        applicationParam(f.apps.deleted),
        versionParam,
        // Another version's file is not this version's.
        pathParameterDefects('fileId', fc.oneof(text.hostileSegment('file'), fc.constant(f.files.premium.fileId))),
      ], [unreadBodyOddities]),
    }),
  ];
}
