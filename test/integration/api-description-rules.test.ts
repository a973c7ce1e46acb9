import { expect } from 'chai';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import type { HttpResult } from '../support/http-client';
import { startTestApp, TestApp } from '../support/test-app';

type Schema = Record<string, unknown>;
interface Operation {
  parameters?: Array<{ in: string; name: string; schema: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
}

const refusedAsInvalid = (result: HttpResult) => result.status === 400 && result.body?.error?.code === 'VALIDATION_ERROR';

/**
 * The rules the API description states where it once said less than the service checks: for each
 * value, what the description allows (read by a JSON Schema 2020-12 validator) is what the service
 * takes, and what it refuses the service refuses.
 */
describe('the API description states what the service checks', function () {
  this.timeout(60_000);
  let app: TestApp;
  let paths: Record<string, Record<string, Operation>>;
  const ajv = new Ajv2020({ strict: false });
  let applicationId: string;
  let customerKey: string;
  let fileId: string;

  before(async () => {
    app = await startTestApp({ workers: false });
    paths = ((await SwaggerParser.dereference((await app.http.get('/v1/openapi.json', { key: null })).body)) as { paths: typeof paths }).paths;
    const customer = await createCustomer(app);
    customerKey = customer.apiKey;
    applicationId = (await createApplication(app, { customerIds: [customer.customerId] })).applicationId;
    fileId = (await uploadSmallFile(app, { applicationId, version: '1.0.0', platform: 'windows', arch: 'x64', fileName: 'Setup.exe' })).fileId;
    await uploadSmallFile(app, { applicationId, version: '2.0.0' });
  });
  after(() => app?.close());

  const parameter = (path: string, name: string): Schema => {
    const found = paths[path].get.parameters?.find((p) => p.name === name);
    if (!found) throw new Error(`${path} has no parameter ${name}`);
    return found.schema;
  };
  const body = (path: string, method: string): Schema => paths[path][method].requestBody?.content['application/json'].schema as Schema;
  const allows = (schema: Schema, value: unknown) => ajv.validate(schema, value);

  /** For each value: the description allows it exactly when the service does not refuse it as invalid. */
  async function agree(schema: Schema, values: unknown[], send: (value: never) => Promise<HttpResult>, refused = refusedAsInvalid) {
    const disagreements: string[] = [];
    for (const value of values) {
      const result = await send(value as never);
      if (allows(schema, value) === refused(result)) {
        disagreements.push(`${JSON.stringify(value)}: described ${allows(schema, value) ? 'valid' : 'invalid'}, answered ${result.status} ${result.raw.toString().slice(0, 160)}`);
      }
    }
    expect(disagreements).to.deep.equal([]);
    // Both verdicts occur: the cases test the rule, not one side of it.
    expect(new Set(values.map((value) => allows(schema, value))).size).to.equal(2);
  }

  describe("the latest links' {platform} and {arch}: the aliases in any case, a file type after the last segment", () => {
    const latest = (...segments: string[]) => app.http.get(`/v1/downloads/latest/${applicationId}/${segments.map(encodeURIComponent).join('/')}`, { key: customerKey });

    it('{platform} as the last segment', async () => {
      const schema = parameter('/v1/downloads/latest/{applicationId}/{platform}', 'platform');
      expect(schema).to.have.property('pattern');
      await agree(schema, ['windows', 'WIN', 'Darwin', 'win64.exe', 'linux.AppImage', 'mac.tar.gz', 'beos', 'windows.', 'win.a.b.c', `win.${'a'.repeat(17)}`, 'win.a-b', 'w in'], (value: string) => latest(value));
    });

    it('{platform} before {arch}, and {arch} as the last segment', async () => {
      const platform = parameter('/v1/downloads/latest/{applicationId}/{platform}/{arch}', 'platform');
      await agree(platform, ['windows', 'OSX', 'win.exe', 'amiga'], (value: string) => latest(value, 'x64'));
      const arch = parameter('/v1/downloads/latest/{applicationId}/{platform}/{arch}', 'arch');
      await agree(arch, ['x64', 'AMD64', 'x86_64.exe', 'x86-64', 'arm', 'sparc', 'x64.', 'i386.tar.gz.x'], (value: string) => latest('windows', value));
    });
  });

  it("customers' search: one line without control characters", async () => {
    const schema = parameter('/v1/management/customers', 'search');
    await agree(schema, ['acme', 'Ac me', 'é', 'a\u0001b', 'a\nb', 'a\u007fb', 'a\u202eb', 'a\u2028b'],
      (value: string) => app.http.get(`/v1/management/customers?search=${encodeURIComponent(value)}`));
  });

  describe('the package feeds\' {channel}: the names that are channels; any other is 404', () => {
    it('Squirrel.Windows: one of the channels', async () => {
      const schema = parameter('/v1/updates/{applicationId}/squirrel-windows/{channel}/RELEASES', 'channel');
      const noChannel = (result: HttpResult) => result.status === 404 && /^no channel /.test(result.body.error.message);
      await agree(schema, ['stable', 'beta', 'dev', 'nightly', 'STABLE', 'a.b', '__proto__'],
        (value: string) => app.http.get(`/v1/updates/${applicationId}/squirrel-windows/${encodeURIComponent(value)}/RELEASES`, { key: customerKey }), noChannel);
    });

    it('Velopack: win, osx, linux, a channel or <channel>-<os>; any other name, dots or escapes included, is the same 404', async () => {
      const schema = parameter('/v1/updates/{applicationId}/velopack/releases.{channel}.json', 'channel');
      const names = ['win', 'osx', 'linux', 'beta', 'beta-linux', 'stable-osx', 'nightly', 'win-beta', 'stable-mac', 'a.b', 'ä.ç', 'beta.linux', 'A'];
      const noChannel = (name: string) => (result: HttpResult) => result.status === 404 && result.body.error.message.startsWith(`no Velopack channel ${name}: `);
      for (const name of names) {
        const feed = await app.http.get(`/v1/updates/${applicationId}/velopack/releases.${encodeURIComponent(name)}.json?localVersion=1.0.0`, { key: customerKey });
        const legacy = await app.http.get(`/v1/updates/${applicationId}/velopack/RELEASES-${encodeURIComponent(name)}`, { key: customerKey });
        if (allows(schema, name)) {
          expect(feed.status, `${name}: ${feed.raw}`).to.equal(200);
          expect(noChannel(name)(legacy), `${name}: ${legacy.raw}`).to.equal(false);
        } else {
          expect(noChannel(name)(feed), `${name}: ${feed.raw}`).to.equal(true);
          expect(noChannel(name)(legacy), `${name}: ${legacy.raw}`).to.equal(true);
        }
      }
      expect(names.filter((name) => allows(schema, name))).to.deep.equal(['win', 'osx', 'linux', 'beta', 'beta-linux', 'stable-osx']);
      // Spelt exactly as Velopack spells it, or escaped: the same rule.
      const plain = await app.http.get(`/v1/updates/${applicationId}/velopack/releases.a.b.json?localVersion=1`, { key: customerKey });
      const escaped = await app.http.get(`/v1/updates/${applicationId}/velopack/releases.%C3%A4.%C3%A7.json?localVersion=1`, { key: customerKey });
      expect([plain.status, plain.body.error.message]).to.deep.equal([404, 'no Velopack channel a.b: it is win, osx, linux, one of the channels, or <channel>-<win|osx|linux>']);
      expect([escaped.status, escaped.body.error.message]).to.deep.equal([404, 'no Velopack channel ä.ç: it is win, osx, linux, one of the channels, or <channel>-<win|osx|linux>']);
    });
  });

  describe("rules across a body's fields", () => {
    it('an application: licenceRevision with a licenceText (dependentRequired, if/then)', async () => {
      const schema = body('/v1/management/applications', 'post');
      expect(schema).to.deep.include({ dependentRequired: { licenceRevision: ['licenceText'] } });
      let n = 0;
      await agree(schema, [
        { licenceRevision: 2 }, { licenceText: null, licenceRevision: 1 }, { licenceText: 'Terms', licenceRevision: 2 }, { licenceText: 'Terms' }, {},
      ].map((fields) => ({ applicationId: `rules-${(n += 1)}-${Date.now().toString(36)}`, name: 'Rules', ...fields })),
      (value: object) => app.http.post('/v1/management/applications', value));
    });

    it('a share link: fileId with an exact version and without platform, arch or channel; channel with latest (if/then, not)', async () => {
      const schema = body('/v1/downloads/share', 'post');
      expect(JSON.stringify(schema)).to.match(/"not":\{"anyOf":\[\{"properties":\{"platform":\{\}\},"required":\["platform"\]\}/);
      await agree(schema, [
        { version: '1.0.0', fileId }, { version: 'latest', fileId }, { version: '1.0.0', fileId, platform: 'windows' }, { version: '1.0.0', fileId, arch: 'x64' },
        { version: '1.0.0', fileId, channel: 'stable' }, { version: 'latest', channel: 'stable' }, { version: '1.0.0', channel: 'stable' },
        { version: '1.0.0', platform: 'windows', arch: 'x64' }, { version: 'latest' },
      ].map((fields) => ({ applicationId, ...fields })), (value: object) => app.http.post('/v1/downloads/share', value, { key: customerKey }));
    });

    it("a version: yankReason and rollbackTo with status yanked, a rollout plan without rolloutPercentage (if/then)", async () => {
      const schema = body('/v1/management/applications/{applicationId}/versions/{version}', 'patch');
      expect(schema).to.deep.include({ minProperties: 1 });
      expect((schema.allOf as Array<{ if: unknown }>).map((rule) => rule.if)).to.deep.equal([
        { properties: { yankReason: {} }, required: ['yankReason'] }, { properties: { rollbackTo: {} }, required: ['rollbackTo'] },
        { properties: { rolloutPlan: { type: 'object' } }, required: ['rolloutPlan'] },
      ]);
      const plan = { steps: [{ percentage: 10, after: '0h' }], halt: { minOffered: 50, minSuccessRate: 0.9, maxFailureReports: 10 } };
      await agree(schema, [
        { yankReason: 'Crashes' }, { status: 'published', yankReason: 'Crashes' }, { rolloutPercentage: 50, yankReason: 'Crashes' },
        { rollbackTo: '1.0.0' }, { status: 'published', rollbackTo: '1.0.0' },
        { rolloutPercentage: 40, rolloutPlan: plan }, { rolloutPercentage: 40, rolloutPlan: null },
        { status: 'yanked', yankReason: 'Crashes on start' }, { rolloutPercentage: 60 }, {},
      ], (value: object) => app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0`, value));
      expect((await app.core.store.versions.getVersion(applicationId, '2.0.0'))?.yankReason).to.equal('Crashes on start');
    });
  });
});
