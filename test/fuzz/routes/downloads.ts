import fc from 'fast-check';
import { decodedName, Draft, Mutation } from '../draft';
import { fields, text } from '../fields';
import { FieldRule, FieldRules, pathParameterDefects, QueryRules, unknownQueryParameter, unreadBodyOddities } from '../mutations';
import { base64url, encoded, jsonString, unknownId } from '../values';
import type { RouteContext } from './context';
import { draft, fuzzer, json, jsonBody, keyed, plus, RouteFuzzer, setJson, unkeyed, values } from './route-fuzzer';

const SHARE_USE = '/v1/downloads/share/:token';
const LATEST_LINK = '/v1/downloads/latest/:applicationId/:platform';
const LATEST_ARCH_LINK = `${LATEST_LINK}/:arch`;
const LICENCE = '/v1/downloads/licence/:applicationId';
const LICENCE_ACCEPT = `${LICENCE}/accept`;

/** Customers' download URLs, share links and releases listing. */
export function downloadFuzzers({ f, keys, admin, customer, known, pageRules, applicationParam }: RouteContext): RouteFuzzer[] {
  const main = f.apps.main;
  const free = `Bearer ${f.customers.free.apiKey}`;
  const refusal = (label: string, apply: (d: Draft) => void, expects: number[]): Mutation => ({ label, defect: true, expects, apply });
  const applicationRule = { valid: fc.constant(main), invalid: fc.oneof(text.badApplicationId, unknownId('app'), values(f.apps.deleted, f.apps.spare)) };
  // Valid alone; with another selector some combinations are refused (a channel with an exact version, a selector with fileId).
  const selectorRules: QueryRules = {
    channel: { valid: values('stable', 'beta', 'dev'), invalid: values('', 'nightly', 'STABLE', 'latest', 'beta ', '__proto__') },
    platform: { valid: values('windows', 'macos', 'linux'), invalid: values('', 'any', 'darwin', 'win32', 'Windows', 'toString') },
    arch: { valid: values('x64', 'arm64', 'universal', 'armv7l'), invalid: values('', 'any', 'x86_64', 'aarch64', 'ARM64', 'constructor') },
  };
  const downloadRules: QueryRules = {
    applicationId: applicationRule,
    version: { valid: values(f.versions.open, 'latest'), invalid: fc.oneof(text.badVersionReference, values(f.versions.pending)) },
    fileId: { valid: values(f.files.main.fileId, f.files.dependency.fileId), invalid: fc.oneof(values('', 'x'.repeat(101), f.files.premium.fileId), unknownId('fil')) },
    ...selectorRules,
  };
  const releasesRules: QueryRules = { applicationId: applicationRule, ...selectorRules, ...pageRules };
  const selectorField = (rule: QueryRules[string]): FieldRule => ({
    valid: (rule.valid as fc.Arbitrary<string>).map(jsonString),
    invalid: fc.oneof(rule.invalid.map(jsonString), values('null', '1', '["windows"]', '{}')),
  });
  const shareRules: FieldRules = {
    applicationId: { ...fields.applicationReference([f.apps.deleted, f.apps.spare]), valid: fc.constant(jsonString(main)) },
    version: {
      required: true,
      valid: fc.constant(jsonString(f.versions.open)),
      invalid: fc.oneof(fields.versionReference().invalid, fc.constant(jsonString(f.versions.pending))),
      expects: [400, 404],
    },
    fileId: { ...fields.fileId(), valid: values(jsonString(f.files.main.fileId), jsonString(f.files.dependency.fileId)) },
    expiresInMinutes: fields.expiresInMinutes(),
    channel: selectorField(selectorRules.channel),
    platform: selectorField(selectorRules.platform),
    arch: selectorField(selectorRules.arch),
    maxDownloads: fields.maxDownloads(),
  };
  const share = jsonBody(shareRules, { emptyIsRefused: false });
  const otherTokens = [f.shares.revoked, `${f.shares.active.slice(0, 42)}%2F`, f.shares.active.toUpperCase()].filter((token) => token !== f.shares.active);
  const tokenDefects = pathParameterDefects('token', fc.oneof(
    text.hostileSegment('tok'), base64url(43), base64url(42), base64url(44), fc.constantFrom(...otherTokens),
  ), [400, 404, 405, 410]);
  const unneededKey = fc.constantFrom(admin, customer, 'Bearer x').map((authorization): Mutation => ({
    label: 'a key a share link does not need', defect: false, apply: (d) => { d.authorization = authorization; },
  }));

  // The main application's open version has a MAIN file for any platform and arch: every target finds it.
  const latestRules: QueryRules = {
    channel: selectorRules.channel,
    fileType: { valid: values('bin', 'BIN'), invalid: values('', '.dmg', 'd m g', 'x'.repeat(17), 'tar..gz', 'é') },
  };
  const targetName = (name: string, unknown: string[]) => pathParameterDefects(name, fc.oneof(
    text.hostileSegment(name.slice(0, 3)),
    values(...unknown).map(encoded),
  ));
  const aliases = (pairs: string[][]) => fc.constantFrom(...pairs).map(([platform, arch]): Mutation => ({
    label: `target ${platform} ${arch ?? ''}`, defect: false,
    apply: (d) => { d.params.platform = platform; if (arch !== undefined && 'arch' in d.params) d.params.arch = arch; },
  }));
  const unknownPlatforms = ['any', 'beos', 'Mac OS', 'toString', '__proto__', 'linux.', 'mac.d$g', 'win.'];
  const latestLink = (path: string, params: Record<string, string>, extra: fc.Arbitrary<Mutation>[]) => fuzzer({
    method: 'GET', path, changesData: false,
    base: draft('GET', path, params, customer),
    ...plus(keyed('customer', keys, latestRules), [
      applicationParam(f.apps.deleted, f.apps.spare),
      ...extra,
      fc.constant(refusal('a file type the application has no build of', (d) => { d.query = [['fileType', 'pkg']]; }, [404])),
    ], [
      aliases([['mac', 'aarch64'], ['darwin', 'x86_64'], ['WIN', 'amd64'], ['osx', 'universal'], ['linux', 'armv7'], ['macos', 'arm64.bin']]),
      unreadBodyOddities,
    ]),
  });

  const accept = jsonBody({ revision: { ...fields.licenceRevision(), required: true } }, { emptyIsRefused: true });

  return [
    fuzzer({
      method: 'GET', path: '/v1/downloads/applications', changesData: false,
      base: draft('GET', '/v1/downloads/applications', {}, customer),
      ...plus(keyed('customer', keys, pageRules), [], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: LICENCE, changesData: false,
      base: draft('GET', LICENCE, { applicationId: main }, customer),
      ...plus(keyed('customer', keys), [applicationParam(f.apps.deleted, f.apps.spare)], [unreadBodyOddities]),
    }),
    // The main application has no licence: a valid acceptance is refused with 409, and each case carries a defect besides.
    fuzzer({
      method: 'POST', path: LICENCE_ACCEPT, changesData: true,
      base: draft('POST', LICENCE_ACCEPT, { applicationId: main }, customer, json({ revision: '1' })),
      ...plus(keyed('customer', keys), [applicationParam(f.apps.deleted, f.apps.spare), ...accept.defects], accept.oddities, known.jsonBody),
    }),
    latestLink(LATEST_LINK, { applicationId: main, platform: 'linux' }, [targetName('platform', unknownPlatforms)]),
    latestLink(LATEST_ARCH_LINK, { applicationId: main, platform: 'windows', arch: 'x64' }, [
      targetName('platform', [...unknownPlatforms, 'linux.bin']),
      targetName('arch', ['any', 'sparc', 'X86-32', 'constructor', 'x64.', 'x64.a b', `x64.${'b'.repeat(17)}`]),
    ]),
    fuzzer({
      method: 'GET', path: '/v1/downloads/url', changesData: false,
      base: draft('GET', '/v1/downloads/url', {}, customer, { kind: 'none' }, [['applicationId', main], ['version', f.versions.open]]),
      ...plus(keyed('customer', keys, downloadRules), [
        fc.constantFrom('applicationId', 'version').map((name) => refusal(`query ${name} missing`, (d) => {
          d.query = d.query.filter(([existing]) => decodedName(existing) !== name);
        }, [400])),
        fc.constant(refusal('a free customer asking for a premium version', (d) => {
          d.authorization = free;
          d.query = [['applicationId', main], ['version', f.versions.premium]];
        }, [403])),
      ], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: '/v1/downloads/releases', changesData: false,
      base: draft('GET', '/v1/downloads/releases', {}, customer, { kind: 'none' }, [['applicationId', main]]),
      ...plus(keyed('customer', keys, releasesRules), [
        fc.constant(refusal('query applicationId missing', (d) => {
          d.query = d.query.filter(([existing]) => decodedName(existing) !== 'applicationId');
        }, [400])),
      ], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'POST', path: '/v1/downloads/share', changesData: true,
      base: draft('POST', '/v1/downloads/share', {}, customer, json({ applicationId: jsonString(main), version: jsonString(f.versions.open) })),
      ...plus(keyed('customer', keys), [
        ...share.defects,
        fc.constant(refusal('a free customer sharing a premium version', (d) => {
          d.authorization = free;
          setJson(d, { version: jsonString(f.versions.premium) });
        }, [403])),
      ], share.oddities, known.jsonBody),
    }),
    fuzzer({
      method: 'GET', path: SHARE_USE, changesData: false,
      base: draft('GET', SHARE_USE, { token: f.shares.active }, null),
      ...unkeyed([tokenDefects], [unknownQueryParameter(false), unreadBodyOddities, unneededKey]),
    }),
    fuzzer({
      method: 'DELETE', path: SHARE_USE, changesData: true,
      base: draft('DELETE', SHARE_USE, { token: f.shares.spare }, customer),
      ...plus(keyed('customer', keys), [
        tokenDefects,
        fc.constant(refusal("another customer's link", (d) => { d.authorization = free; }, [404])),
      ], [unreadBodyOddities]),
    }),
  ];
}
