import fc from 'fast-check';
import { buildCase, decodedName, Draft, DraftBody, FuzzCase, Mutation } from './draft';
import { fields, text, withValid } from './fields';
import type { Fixture } from './fixture';
import {
  contentEncoding,
  corruptGzip,
  declaredLengthOnly,
  FieldRules,
  headerOddities,
  jsonContentType,
  jsonField,
  malformedJsonOfType,
  jsonBodyDefects,
  jsonBodyOddities,
  KeyRing,
  keyDefects,
  keyOddities,
  pathParameterDefects,
  protocolDefects,
  protocolKnownCases,
  queryDefects,
  queryOddities,
  QueryRules,
  unknownParameter,
  unknownQueryParameter,
  unreadBodyOddities,
} from './mutations';
import { putBodyDefects, putBodyOddities, signatureDefects, signedUrlOddities, signedUrlParts } from './object-urls';
import { cutForm, formField, unclosedForm, unknownFormField, uploadBase, uploadConflicts, uploadDefects, uploadOddities } from './upload-form';
import { base64url, jsonString, NOT_A_BOOLEAN, NOT_A_DATE, NOT_A_PAGE, NOT_A_PAGE_SIZE, plainSegment, unknownId, unusualText } from './values';

/**
 * One entry per route the gateway serves: the route's valid request against the fixture, and what
 * can be wrong with it. Every case of a route that can change data carries at least one defect.
 */
export interface RouteFuzzer {
  method: string;
  path: string;
  /** The route's valid request target (path with the fixture's values, no query). */
  target: string;
  changesData: boolean;
  cases: fc.Arbitrary<FuzzCase>;
  /** Failures seen before, tried first on every run. */
  known: FuzzCase[];
}

interface RouteSpec {
  method: string;
  path: string;
  changesData: boolean;
  /** The valid request; a function when each case needs names of its own (a new id, a new version). */
  base: Draft | (() => Draft);
  defects: fc.Arbitrary<Mutation>[];
  oddities: fc.Arbitrary<Mutation>[];
  known?: Mutation[][];
}

const MAX_DEFECTS = 2;
const MAX_ODDITIES = 2;

function fuzzer(spec: RouteSpec): RouteFuzzer {
  const key = `${spec.method} ${spec.path}`;
  const base = typeof spec.base === 'function' ? spec.base : () => spec.base as Draft;
  const defects = fc.array(fc.oneof(...spec.defects), { minLength: spec.changesData ? 1 : 0, maxLength: MAX_DEFECTS });
  const oddities = fc.array(fc.oneof(...spec.oddities), { maxLength: MAX_ODDITIES });
  return {
    method: spec.method,
    path: spec.path,
    target: buildCase(key, { ...base(), query: [] }, []).request.target,
    changesData: spec.changesData,
    cases: fc.tuple(defects, oddities).map(([d, o]) => buildCase(key, base(), [...o, ...d])),
    known: [...protocolKnownCases, ...(spec.known ?? [])].map((mutations) => buildCase(key, base(), mutations)),
  };
}

const draft = (method: string, path: string, params: Record<string, string>, authorization: string | null, body: DraftBody = { kind: 'none' }, query: Draft['query'] = []): Draft =>
  ({ method, path, params, query, authorization, headers: [], body });

const json = (fieldValues: Record<string, string>): DraftBody => ({ kind: 'json', fields: Object.entries(fieldValues) });

type Mutations = Pick<RouteSpec, 'defects' | 'oddities' | 'known'>;

/** What every route with a key shares: the framing, the key, unknown and malformed query parameters. */
function keyed(guard: 'admin' | 'customer', keys: KeyRing, query: QueryRules = {}): Mutations {
  return {
    defects: [protocolDefects, keyDefects(guard, keys), unknownQueryParameter(true, Object.keys(query)), ...queryDefects(query)],
    oddities: [headerOddities, keyOddities(guard, keys), ...queryOddities(query)],
    // The README refuses unknown query parameters on every route; some routes once accepted them.
    known: [[unknownParameter('bogus', '1', true)]],
  };
}

const plus = (a: Mutations, defects: fc.Arbitrary<Mutation>[], oddities: fc.Arbitrary<Mutation>[] = [], known: Mutation[][] = []): Mutations =>
  ({ defects: [...a.defects, ...defects], oddities: [...a.oddities, ...oddities], known: [...(a.known ?? []), ...known] });

const jsonRoute = (rules: FieldRules, emptyIsRefused: boolean) => ({
  defects: jsonBodyDefects(rules, { emptyIsRefused }),
  oddities: jsonBodyOddities(rules),
});

const values = (...list: string[]) => fc.constantFrom(...list);

export function routeFuzzers(f: Fixture, adminKey: string): RouteFuzzer[] {
  const keys: KeyRing = {
    admin: adminKey,
    customer: f.customers.premium.apiKey,
    customerId: f.customers.premium.customerId,
    inactive: f.customers.inactive.apiKey,
    revoked: f.keys.revoked.apiKey,
  };
  const admin = `Bearer ${adminKey}`;
  const customer = `Bearer ${f.customers.premium.apiKey}`;
  const customerIds = Object.values(f.customers).map((c) => c.customerId);
  const main = f.apps.main;
  // A case that is wrongly accepted creates what it names; the next one names something new, so a
  // conflict with it never stands in for the refusal the case is there to check.
  let created = 0;
  const fresh = (prefix: string) => `${prefix}-${f.tag}-${(created += 1)}`;
  const missingApps = [f.apps.deleted];

  const applicationParam = (...missing: string[]) =>
    pathParameterDefects('applicationId', fc.oneof(text.hostileSegment('app'), text.badApplicationId.map(encodeURIComponent), ...missing.map((id) => fc.constant(id))));
  const customerParam = pathParameterDefects('customerId', fc.oneof(text.hostileSegment('cus'), text.badNewCustomerId.filter((id) => id !== '').map(encodeURIComponent)));
  // Failures seen before, each tried on every run: compression headers on plain bodies, control
  // characters in stored text, a reserved customer id, versions with path-significant characters,
  // declared lengths past 2^31, refused uploads that changed the version.
  const plainBodyEncodings: Mutation[][] = [[contentEncoding('gzip')], [contentEncoding('br')], [corruptGzip]];
  const hugeDeclaredLengths: Mutation[][] = [2 ** 31, 2 ** 32 + 10].map((length) => [declaredLengthOnly(length)]);
  const jsonBodyKnown = [...plainBodyEncodings, ...hugeDeclaredLengths];
  const controlsIn = (field: string): Mutation[][] => ['\u0000', '\r\n', '\n', '\r'].map((c) => [jsonField(field, jsonString(`a${c}b`))]);
  const nulIn = (field: string): Mutation[][] => [[jsonField(field, jsonString('a\u0000b'))]];
  const pathSignificantVersions = ['.', '..', '%', '?x'];

  const pageRules: QueryRules = {
    page: { valid: values('1', '2', '1000000', '01'), invalid: values(...NOT_A_PAGE) },
    pageSize: { valid: values('1', '20', '100'), invalid: values(...NOT_A_PAGE_SIZE) },
  };

  // --- Applications and versions ---------------------------------------------------------------

  const applicationFields = (required: boolean): FieldRules => ({
    ...(required ? { applicationId: fields.newApplicationId([main, f.apps.deleted]) } : {}),
    name: fields.name(required),
    description: fields.multiLine(2_000, { nullable: true }),
    tags: fields.tags(),
    customerIds: fields.customerIds(customerIds),
  });
  const createApplication = applicationFields(true);
  const updateApplication = applicationFields(false);
  const listApplicationRules: QueryRules = {
    ...pageRules,
    tag: { valid: fc.oneof(values('fuzz', 'none'), unusualText('t')), invalid: values('') },
    customerId: { valid: values(...customerIds, 'nobody'), invalid: values('') },
    includeDeleted: { valid: values('true', 'false'), invalid: values(...NOT_A_BOOLEAN) },
  };
  const includeDeleted: QueryRules = { includeDeleted: listApplicationRules.includeDeleted };
  const versionRules: FieldRules = {
    requiredTier: fields.tier(false, true),
    releaseNotes: fields.multiLine(20_000, { nullable: true }),
  };
  const versionParam = pathParameterDefects('version', fc.oneof(
    text.badVersionReference.map(encodeURIComponent),
    fc.constantFrom('..', '.', '%2e%2e', '%2E', '9.9.9', '1.0.0%00', '1.0.0%2F', '%', 'x'.repeat(129), '1.0.0 '.replace(' ', '%20')),
  ));

  const applications = '/v1/management/applications';
  const application = `${applications}/:applicationId`;
  const routes: RouteFuzzer[] = [
    fuzzer({
      method: 'POST', path: applications, changesData: true,
      base: () => draft('POST', applications, {}, admin, json({ applicationId: jsonString(fresh('new')), name: '"New application"' })),
      ...plus(keyed('admin', keys), jsonRoute(createApplication, false).defects, jsonRoute(createApplication, false).oddities, [
        ...jsonBodyKnown, ...controlsIn('name'), ...nulIn('description'),
      ]),
    }),
    fuzzer({
      method: 'GET', path: applications, changesData: false,
      base: draft('GET', applications, {}, admin),
      ...plus(keyed('admin', keys, listApplicationRules), [], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: application, changesData: false,
      base: draft('GET', application, { applicationId: main }, admin),
      // Not the deleted application: includeDeleted=true, a valid query, would find it.
      ...plus(keyed('admin', keys, includeDeleted), [applicationParam()], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'PATCH', path: application, changesData: true,
      base: draft('PATCH', application, { applicationId: main }, admin, json({ name: '"Renamed"' })),
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted), ...jsonRoute(updateApplication, true).defects], jsonRoute(updateApplication, true).oddities, [
        ...jsonBodyKnown, ...controlsIn('name'), ...nulIn('description'),
      ]),
    }),
    fuzzer({
      method: 'DELETE', path: application, changesData: true,
      base: draft('DELETE', application, { applicationId: f.apps.spare }, admin),
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted)], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'POST', path: `${application}/restore`, changesData: true,
      base: draft('POST', `${application}/restore`, { applicationId: f.apps.deleted }, admin),
      ...plus(keyed('admin', keys), [
        pathParameterDefects('applicationId', fc.oneof(text.hostileSegment('app'), fc.constantFrom(main, f.apps.spare)), [400, 404, 409]),
      ], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: `${application}/versions`, changesData: false,
      base: draft('GET', `${application}/versions`, { applicationId: main }, admin),
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted)]),
    }),
    fuzzer({
      method: 'PATCH', path: `${application}/versions/:version`, changesData: true,
      base: draft('PATCH', `${application}/versions/:version`, { applicationId: main, version: f.versions.open }, admin, json({ releaseNotes: '"Changed"' })),
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted), versionParam, ...jsonRoute(versionRules, true).defects], jsonRoute(versionRules, true).oddities, [
        ...jsonBodyKnown, ...nulIn('releaseNotes'),
      ]),
    }),
  ];

  // --- Uploads ----------------------------------------------------------------------------------

  const largeUrlRules: FieldRules = {
    applicationId: withValid(fields.applicationReference(missingApps), fc.constant(jsonString(main))),
    version: fields.newVersion(),
    fileName: fields.fileName(true),
    fileSize: fields.fileSize(),
    contentType: fields.contentType(),
    fileType: fields.fileType(),
    releaseNotes: fields.multiLine(20_000, { nullable: false }),
    requiredTier: fields.tier(false),
  };
  const refusedRelease = { releaseNotes: jsonString('written by a refused upload'), requiredTier: '"enterprise"' };
  const largeUrlConflicts: Mutation[] = [
    {
      label: 'a second MAIN file for a published version (large-url)', defect: true, expects: [409],
      apply: (d) => setJson(d, { version: jsonString(f.versions.open), fileType: '"MAIN"', ...refusedRelease }),
    },
    {
      label: 'a file name the version already has (large-url)', defect: true, expects: [409],
      apply: (d) => setJson(d, { version: jsonString(f.versions.open), fileType: '"DEPENDENCY"', fileName: jsonString(f.files.dependency.fileName), ...refusedRelease }),
    },
    {
      label: 'the file name a pending large upload reserved (large-url)', defect: true, expects: [409],
      apply: (d) => setJson(d, { version: jsonString(f.upload.version), fileType: '"DEPENDENCY"', fileName: jsonString(f.upload.fileName), ...refusedRelease }),
    },
  ];
  const largeCompleteRules: FieldRules = {
    uploadId: { required: true, valid: fc.constant(jsonString(f.upload.uploadId)), invalid: fc.oneof(values('""', jsonString('x'.repeat(101)), '1', 'null'), unknownId('upl').map(jsonString)), expects: [400, 404] },
    applicationId: { required: true, valid: fc.constant(jsonString(main)), invalid: fc.oneof(fields.applicationReference(missingApps).invalid, fc.constant(jsonString(f.apps.spare))) },
    version: { required: true, valid: fc.constant(jsonString(f.upload.version)), invalid: fc.oneof(fields.versionReference().invalid, fc.constant(jsonString(f.versions.open))) },
    fileName: { required: true, valid: fc.constant(jsonString(f.upload.fileName)), invalid: fc.oneof(fields.fileName(true).invalid, fc.constant('"other.bin"')) },
    fileSize: { required: true, valid: fc.constant(String(f.upload.fileSize)), invalid: fc.oneof(fields.fileSize().invalid, fc.constant(String(f.upload.fileSize + 1))) },
    checksum: fields.checksum(),
    releaseNotes: fields.multiLine(20_000, { nullable: false }),
  };
  const uploadBoundary = `----fuzz${f.tag}`;
  routes.push(
    fuzzer({
      method: 'POST', path: '/v1/management/upload', changesData: true,
      base: () => draft('POST', '/v1/management/upload', {}, admin, uploadBase(f, uploadBoundary, fresh('u'))),
      ...plus(keyed('admin', keys), uploadDefects(f), uploadOddities(), [
        [unclosedForm], [cutForm(0.9, false)], [cutForm(0.9, true)], ...uploadConflicts(f).map((conflict) => [conflict]), ...hugeDeclaredLengths,
        // A field named __proto__ once vanished from the form instead of being refused.
        [unknownFormField('__proto__')],
        ...pathSignificantVersions.map((version) => [formField('version', version, [400])]), [formField('releaseNotes', 'a\u0000b', [400])],
      ]),
    }),
    fuzzer({
      method: 'POST', path: '/v1/management/upload/large-url', changesData: true,
      base: () => draft('POST', '/v1/management/upload/large-url', {}, admin, json({ applicationId: jsonString(main), version: jsonString(fresh('l')), fileName: '"big.bin"', fileSize: '1000' })),
      ...plus(keyed('admin', keys), [...jsonRoute(largeUrlRules, false).defects, fc.constantFrom(...largeUrlConflicts)], jsonRoute(largeUrlRules, false).oddities, [
        ...jsonBodyKnown, ...largeUrlConflicts.map((conflict) => [conflict]), ...nulIn('releaseNotes'),
        ...pathSignificantVersions.map((version) => [jsonField('version', jsonString(version))]),
      ]),
    }),
    fuzzer({
      method: 'POST', path: '/v1/management/upload/large-complete', changesData: true,
      base: draft('POST', '/v1/management/upload/large-complete', {}, admin, json({
        uploadId: jsonString(f.upload.uploadId), applicationId: jsonString(main), version: jsonString(f.upload.version),
        fileName: jsonString(f.upload.fileName), fileSize: String(f.upload.fileSize),
      })),
      ...plus(keyed('admin', keys), jsonRoute(largeCompleteRules, false).defects, jsonRoute(largeCompleteRules, false).oddities, jsonBodyKnown),
    }),
    fuzzer({
      method: 'GET', path: '/v1/management/uploads/:uploadId', changesData: false,
      base: draft('GET', '/v1/management/uploads/:uploadId', { uploadId: f.upload.uploadId }, admin),
      ...plus(keyed('admin', keys), [pathParameterDefects('uploadId', fc.oneof(text.hostileSegment('upl'), fc.constant('x'.repeat(101))))]),
    }),
  );

  // --- Customers and keys ---------------------------------------------------------------------------

  const customerRules = (creating: boolean): FieldRules => ({
    ...(creating ? { customerId: fields.newCustomerId(customerIds) } : { isActive: fields.boolean() }),
    name: fields.name(creating),
    tier: fields.tier(creating),
    notes: fields.multiLine(2_000, { nullable: true }),
  });
  const customers = '/v1/management/customers';
  const customerPath = `${customers}/:customerId`;
  const apiKeys = `${customerPath}/apikeys`;
  routes.push(
    fuzzer({
      method: 'POST', path: customers, changesData: true,
      base: draft('POST', customers, {}, admin, json({ name: '"New customer"', tier: '"standard"' })),
      ...plus(keyed('admin', keys), jsonRoute(customerRules(true), false).defects, jsonRoute(customerRules(true), false).oddities, [
        ...jsonBodyKnown, [jsonField('customerId', '"__proto__"', [400])], ...controlsIn('name'), ...nulIn('notes'),
      ]),
    }),
    fuzzer({
      method: 'GET', path: customers, changesData: false,
      base: draft('GET', customers, {}, admin),
      ...plus(keyed('admin', keys, pageRules), [], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: customerPath, changesData: false,
      base: draft('GET', customerPath, { customerId: f.customers.free.customerId }, admin),
      ...plus(keyed('admin', keys), [customerParam]),
    }),
    fuzzer({
      method: 'PATCH', path: customerPath, changesData: true,
      base: draft('PATCH', customerPath, { customerId: f.customers.free.customerId }, admin, json({ name: '"Renamed"' })),
      ...plus(keyed('admin', keys), [customerParam, ...jsonRoute(customerRules(false), true).defects], jsonRoute(customerRules(false), true).oddities, [
        ...jsonBodyKnown, ...controlsIn('name'), ...nulIn('notes'),
      ]),
    }),
    fuzzer({
      method: 'POST', path: apiKeys, changesData: true,
      base: draft('POST', apiKeys, { customerId: f.customers.premium.customerId }, admin, json({})),
      // A body in a format the JSON parser skips (multipart, a +json type it does not know) was
      // ignored, and the key issued as if the body were empty.
      ...plus(keyed('admin', keys), [customerParam, ...jsonRoute({}, false).defects], jsonRoute({}, false).oddities, [
        ...jsonBodyKnown, [jsonContentType('multipart/form-data; boundary=x')], [malformedJsonOfType('application/merge-patch+json')],
      ]),
    }),
    fuzzer({
      method: 'GET', path: apiKeys, changesData: false,
      base: draft('GET', apiKeys, { customerId: f.customers.premium.customerId }, admin),
      ...plus(keyed('admin', keys), [customerParam]),
    }),
    fuzzer({
      method: 'DELETE', path: `${apiKeys}/:keyId`, changesData: true,
      base: draft('DELETE', `${apiKeys}/:keyId`, { customerId: f.customers.premium.customerId, keyId: f.keys.spare.keyId }, admin),
      ...plus(keyed('admin', keys), [
        customerParam,
        pathParameterDefects('customerId', fc.constantFrom(f.customers.free.customerId, f.customers.inactive.customerId)),
        // Not another customer's own key: with that customer's id in the path too, the pair would be valid.
        pathParameterDefects('keyId', fc.oneof(text.hostileSegment('key'), fc.constant(f.keys.revoked.keyId))),
      ], [unreadBodyOddities]),
    }),
  );

  // --- Statistics and activity -------------------------------------------------------------------------

  const dates = values('2024-01-01', '2026-12-31', '1970-01-01', '9999-12-31');
  const statisticsRules: QueryRules = {
    version: { valid: values(f.versions.open, '9.9.9', '%'), invalid: values('', ' ', 'x'.repeat(129), 'a b', '1\u00000', '1\n0', 'é') },
    from: { valid: dates, invalid: values(...NOT_A_DATE) },
    to: { valid: dates, invalid: values(...NOT_A_DATE) },
  };
  const activityRules: QueryRules = {
    type: { valid: values('upload', 'download'), invalid: values('UPLOAD', 'uploads', '', 'delete', '__proto__') },
    applicationId: { valid: values(main, 'nothing-here'), invalid: fc.oneof(text.badApplicationId, values('')) },
    limit: { valid: values('1', '20', '100'), invalid: values(...NOT_A_PAGE_SIZE) },
    cursor: {
      invalid: values('x', '', 'a'.repeat(513), '__proto__', Buffer.from('{"t":1}').toString('base64url'), Buffer.from('garbage').toString('base64'), '%%%'),
    },
  };
  routes.push(
    fuzzer({
      method: 'GET', path: '/v1/applications/:applicationId/stats', changesData: false,
      base: draft('GET', '/v1/applications/:applicationId/stats', { applicationId: main }, admin),
      ...plus(keyed('admin', keys, statisticsRules), [
        pathParameterDefects('applicationId', fc.oneof(text.hostileSegment('app'), text.badApplicationId.map(encodeURIComponent))),
        fc.constant<Mutation>({ label: 'from after to', defect: true, expects: [400], apply: (d) => d.query.push(['from', '2025-01-02'], ['to', '2025-01-01']) }),
      ]),
    }),
    fuzzer({
      method: 'GET', path: '/v1/activity', changesData: false,
      base: draft('GET', '/v1/activity', {}, admin),
      ...plus(keyed('admin', keys, activityRules), [], [unreadBodyOddities]),
    }),
  );

  // --- Downloads and share links ----------------------------------------------------------------

  const free = `Bearer ${f.customers.free.apiKey}`;
  const noAccess = (label: string, apply: (d: Draft) => void, expects: number[]): Mutation => ({ label, defect: true, expects, apply });
  const downloadRules: QueryRules = {
    applicationId: { valid: fc.constant(main), invalid: fc.oneof(text.badApplicationId, unknownId('app'), values(f.apps.deleted, f.apps.spare)) },
    version: { valid: fc.constant(f.versions.open), invalid: fc.oneof(text.badVersionReference, values(f.versions.pending)) },
    fileId: { valid: values(f.files.main.fileId, f.files.dependency.fileId), invalid: fc.oneof(values('', 'x'.repeat(101), f.files.premium.fileId), unknownId('fil')) },
  };
  const shareRules: FieldRules = {
    applicationId: { ...fields.applicationReference([...missingApps, f.apps.spare]), valid: fc.constant(jsonString(main)) },
    version: { required: true, valid: fc.constant(jsonString(f.versions.open)), invalid: fc.oneof(fields.versionReference().invalid, fc.constant(jsonString(f.versions.pending))), expects: [400, 404] },
    fileId: { ...fields.fileId(), valid: values(jsonString(f.files.main.fileId), jsonString(f.files.dependency.fileId)) },
    expiresInMinutes: fields.expiresInMinutes(),
  };
  const shareUse = '/v1/downloads/share/:token';
  const tokenDefects = pathParameterDefects('token', fc.oneof(
    text.hostileSegment('tok'),
    base64url(43),
    base64url(42),
    base64url(44),
    fc.constantFrom(...[f.shares.revoked, `${f.shares.active.slice(0, 42)}%2F`, f.shares.active.toUpperCase()].filter((token) => token !== f.shares.active)),
  ), [400, 404, 405, 410]);
  const shareUseSpec = (method: string) => fuzzer({
    method, path: shareUse, changesData: false,
    base: draft(method, shareUse, { token: f.shares.active }, null),
    defects: [protocolDefects, tokenDefects],
    oddities: [headerOddities, unknownQueryParameter(false), unreadBodyOddities, fc.constantFrom(admin, customer, 'Bearer x').map((authorization) => ({
      label: 'a key a share link does not need', defect: false, apply: (d: Draft) => { d.authorization = authorization; },
    }))],
  });
  routes.push(
    fuzzer({
      method: 'GET', path: '/v1/downloads/url', changesData: false,
      base: draft('GET', '/v1/downloads/url', {}, customer, { kind: 'none' }, [['applicationId', main], ['version', f.versions.open]]),
      ...plus(keyed('customer', keys, downloadRules), [
        fc.constantFrom('applicationId', 'version').map((name) => noAccess(`query ${name} missing`, (d) => {
          d.query = d.query.filter(([existing]) => decodedName(existing) !== name);
        }, [400])),
        fc.constant(noAccess('a free customer asking for a premium version', (d) => {
          d.authorization = free;
          d.query = [['applicationId', main], ['version', f.versions.premium]];
        }, [403])),
      ], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'POST', path: '/v1/downloads/share', changesData: true,
      base: draft('POST', '/v1/downloads/share', {}, customer, json({ applicationId: jsonString(main), version: jsonString(f.versions.open) })),
      ...plus(keyed('customer', keys), [
        ...jsonRoute(shareRules, false).defects,
        fc.constant(noAccess('a free customer sharing a premium version', (d) => {
          d.authorization = free;
          setJson(d, { version: jsonString(f.versions.premium) });
        }, [403])),
      ], jsonRoute(shareRules, false).oddities, jsonBodyKnown),
    }),
    shareUseSpec('GET'),
    shareUseSpec('HEAD'),
    fuzzer({
      method: 'DELETE', path: shareUse, changesData: true,
      base: draft('DELETE', shareUse, { token: f.shares.spare }, customer),
      ...plus(keyed('customer', keys), [
        tokenDefects,
        fc.constant(noAccess("another customer's link", (d) => { d.authorization = free; }, [404])),
      ], [unreadBodyOddities]),
    }),
  );

  // --- Health and signed object URLs ---------------------------------------------------------------

  const health = (path: string) => fuzzer({
    method: 'GET', path, changesData: false,
    base: draft('GET', path, {}, null),
    defects: [protocolDefects],
    oddities: [headerOddities, unknownQueryParameter(false), unreadBodyOddities, fc.constant<Mutation>({ label: 'a key health does not need', defect: false, apply: (d) => { d.authorization = admin; } })],
  });
  routes.push(health('/healthz'), health('/readyz'));

  const download = signedUrlParts(f.downloadTarget);
  const upload = signedUrlParts(f.upload.target);
  const objectGet = (method: string) => fuzzer({
    method, path: '/v1/objects/:key(.+)', changesData: false,
    base: { ...draft(method, download.path, download.params, null, { kind: 'none' }, download.query) },
    defects: [protocolDefects, ...signatureDefects(download, upload.params.key)],
    oddities: [headerOddities, ...signedUrlOddities, unreadBodyOddities],
  });
  routes.push(
    objectGet('GET'),
    objectGet('HEAD'),
    fuzzer({
      method: 'PUT', path: '/v1/objects/:key(.+)', changesData: true,
      base: draft('PUT', upload.path, upload.params, null, { kind: 'bytes', bytes: Buffer.alloc(f.upload.fileSize, 0x61), contentType: 'application/octet-stream' }, upload.query),
      defects: [protocolDefects, ...signatureDefects(upload, download.params.key), ...putBodyDefects(f.upload.fileSize)],
      oddities: [headerOddities, ...signedUrlOddities, ...putBodyOddities],
      known: hugeDeclaredLengths,
    }),
  );
  return routes;
}

/** Sets JSON fields of a draft, replacing those already there. */
function setJson(d: Draft, values: Record<string, string>): void {
  if (d.body.kind !== 'json') return;
  const names = Object.keys(values);
  d.body.fields = [...d.body.fields.filter(([name]) => !names.includes(name)), ...Object.entries(values)];
}

const ANY_METHOD = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const UNMATCHED_PATHS = [
  '/', '//', '/v1', '/v2/management/customers', '/v1/nope', '/v1/management', '/v1/management/applications/a/b/c',
  '/v1/downloads', '/v1/objects', '/v1/objects/', '/..%2f..%2fetc/passwd', '/v1/management/../../etc/passwd', '/%00',
  '/v1/management/customers/x/apikeys/y/z', '/v1/applications', '/v1/applications/x/stats/y', '/healthz/x', '/favicon.ico',
];

/**
 * Requests no route serves: unknown paths (404) and known paths with a method they do not take
 * (405), with or without a key.
 */
export function unmatchedFuzzer(routes: RouteFuzzer[], adminKey: string): RouteFuzzer {
  const byPath = new Map<string, { target: string; methods: Set<string> }>();
  for (const route of routes) {
    const entry = byPath.get(route.path) ?? { target: route.target, methods: new Set<string>() };
    entry.methods.add(route.method);
    byPath.set(route.path, entry);
  }
  const wrongMethods = [...byPath.values()].flatMap(({ target, methods }) => ANY_METHOD.filter((method) => !methods.has(method)).map((method) => [method, target] as const));
  const unknownPaths = fc.oneof(
    fc.constantFrom(...UNMATCHED_PATHS),
    plainSegment.map((segment) => `/v1/${segment}/nothing`),
  );
  const request = (method: string, target: string, expects: number[]): Mutation =>
    ({ label: `${method} ${target}: no such route`, defect: true, expects, apply: (d) => { d.method = method; d.path = target; } });
  const cases = fc.tuple(
    fc.oneof(
      fc.tuple(fc.constantFrom(...ANY_METHOD, 'OPTIONS', 'TRACE', 'PROPFIND'), unknownPaths).map(([method, target]) => request(method, target, [404])),
      fc.constantFrom(...wrongMethods).map(([method, target]) => request(method, target, [405])),
    ),
    fc.constantFrom<string | null>(null, `Bearer ${adminKey}`),
    fc.array(headerOddities, { maxLength: 1 }),
  ).map(([mutation, authorization, oddities]) => buildCase('unmatched', draft('GET', '/', {}, authorization), [...oddities, mutation]));
  return { method: '*', path: '(no route)', target: '', changesData: false, cases, known: [] };
}
