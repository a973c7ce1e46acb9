import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { isInRollout } from '../../shared/releases/rollout';
import { createApplication, createCustomer, smallUploadForm, SmallUpload, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { createBucket } from '../support/s3-bucket';
import { s3Environment, S3rverProcess, startS3rver } from '../support/s3rver';
import { generateSparkleKey, SparkleKey, sparkleVerifies } from '../support/sparkle-signer';
import { startTestApp, TestApp } from '../support/test-app';

const SPARKLE_NAMESPACE = 'http://www.andymatuschak.org/xml-namespaces/sparkle';

/**
 * The names Sparkle reads, as Sparkle/SUConstants.m spells them (SURSSElement*, SUAppcastElement*,
 * SUAppcastAttribute*, SURSSAttribute*): every element and attribute of an item must be one of them.
 */
const SPARKLE_ITEM_ELEMENTS = new Set([
  'title', 'pubDate', 'description', 'link', 'enclosure', 'sparkle:version', 'sparkle:shortVersionString', 'sparkle:criticalUpdate',
  'sparkle:deltas', 'sparkle:minimumAutoupdateVersion', 'sparkle:minimumSystemVersion', 'sparkle:maximumSystemVersion',
  'sparkle:releaseNotesLink', 'sparkle:fullReleaseNotesLink', 'sparkle:tags', 'sparkle:phasedRolloutInterval',
  'sparkle:informationalUpdate', 'sparkle:channel',
]);
const SPARKLE_ENCLOSURE_ATTRIBUTES = new Set([
  'url', 'length', 'type', 'sparkle:version', 'sparkle:shortVersionString', 'sparkle:edSignature', 'sparkle:dsaSignature', 'sparkle:os',
  'sparkle:deltaFrom', 'sparkle:installationType', 'sparkle:deltaFromSparkleExecutableSize', 'sparkle:deltaFromSparkleLocales',
]);

type Attributes = Record<string, string>;
interface ParsedItem {
  title: string;
  pubDate: string;
  description?: string;
  'sparkle:version': string;
  'sparkle:shortVersionString': string;
  'sparkle:minimumSystemVersion'?: string;
  'sparkle:criticalUpdate'?: string;
  enclosure: Attributes;
  'sparkle:deltas'?: { enclosure: Attributes[] };
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (_name, jpath) => jpath === 'rss.channel.item' || jpath === 'rss.channel.item.sparkle:deltas.enclosure',
});

/** An appcast as Sparkle reads it (/rss/channel/item), each name checked against Sparkle's. */
function readAppcast(xml: string): ParsedItem[] {
  const document = parser.parse(xml, true);
  expect(document.rss.version).to.equal('2.0');
  expect(document.rss['xmlns:sparkle']).to.equal(SPARKLE_NAMESPACE);
  const items: ParsedItem[] = document.rss.channel.item ?? [];
  for (const item of items) {
    for (const name of Object.keys(item)) expect(SPARKLE_ITEM_ELEMENTS, `element ${name}`).to.include(name);
    const enclosures = [item.enclosure, ...(item['sparkle:deltas']?.enclosure ?? [])];
    for (const enclosure of enclosures) for (const name of Object.keys(enclosure)) expect(SPARKLE_ENCLOSURE_ATTRIBUTES, `attribute ${name}`).to.include(name);
  }
  return items;
}

for (const storage of ['embedded store', 'S3'] as const) describe(`Sparkle appcast (${storage})`, function () {
  this.timeout(60_000);
  let app: TestApp;
  let s3: S3rverProcess | undefined;
  const key: SparkleKey = generateSparkleKey();
  const otherKey: SparkleKey = generateSparkleKey();

  before(async () => {
    if (storage === 'S3') s3 = await startS3rver();
    app = await startTestApp({ env: s3 ? s3Environment(s3, 'sparkle-appcast') : {} });
    if (app.config.s3) await createBucket(app.config.s3);
  });
  after(async () => {
    await app?.close();
    await s3?.stop();
  });

  const appcastPath = (applicationId: string, channel = 'stable', query = '') => `/v1/updates/${applicationId}/sparkle/${channel}/appcast.xml${query}`;

  /** The appcast as a client fetches it, with the key in a header (Sparkle's httpHeaders). */
  async function appcast(applicationId: string, apiKey: string, channel = 'stable', query = ''): Promise<ParsedItem[]> {
    const res = await app.http.get(appcastPath(applicationId, channel, query), { key: apiKey });
    expect(res.status, res.raw.toString()).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/rss+xml; charset=utf-8');
    expect(res.headers.get('cache-control')).to.equal('no-store');
    return readAppcast(res.raw.toString());
  }

  const upload = (fields: SmallUpload) => app.http.request('POST', '/v1/management/upload', { body: smallUploadForm(fields) });

  /** An archive for macOS (universal) and its signature as `sign_update -p` prints it, both uploaded. */
  async function publishSigned(applicationId: string, version: string, options: Partial<SmallUpload> & { signingKey?: SparkleKey } = {}) {
    const bytes = randomBytes(30_000);
    const fileName = options.fileName ?? `App-${version}.zip`;
    const target = { platform: options.platform ?? 'macos', arch: options.arch ?? 'universal' };
    await uploadSmallFile(app, { applicationId, version, content: bytes, fileName, ...target, fileType: options.fileType, channel: options.channel, status: options.status, releaseNotes: options.releaseNotes });
    const signature = (options.signingKey ?? key).sign(bytes);
    await uploadSmallFile(app, { applicationId, version, content: Buffer.from(`${signature}\n`), fileName: `${fileName}.sig`, fileType: 'SIGNATURE', ...target });
    return { bytes, signature };
  }

  async function sparkleApplication(overrides: Record<string, unknown> = {}) {
    const customer = await createCustomer(app);
    const { applicationId } = await createApplication(app, { sparklePublicKey: key.publicKey, customerIds: [customer.customerId], ...overrides });
    return { applicationId, customer };
  }

  const patchVersion = async (applicationId: string, version: string, body: Record<string, unknown>) => {
    const res = await app.http.patch(`/v1/management/applications/${applicationId}/versions/${version}`, body);
    expect(res.status, res.raw.toString()).to.equal(200);
    return res.body.data;
  };

  /** Follows an enclosure as Sparkle's download does: the key sent, the redirect followed. */
  async function download(url: string, apiKey: string): Promise<Buffer> {
    const res = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(res.status).to.equal(200);
    return Buffer.from(await res.arrayBuffer());
  }

  describe('the application key and the version fields', () => {
    it('takes sparklePublicKey as generate_keys prints it, refuses what is not one, and null removes it', async () => {
      const { applicationId } = await createApplication(app, { sparklePublicKey: `  ${key.publicKey}\n` });
      expect((await app.http.get(`/v1/management/applications/${applicationId}`)).body.data.sparklePublicKey).to.equal(key.publicKey);
      for (const sparklePublicKey of ['', 'not a key', key.publicKey.slice(0, -4), Buffer.alloc(64).toString('base64'), 42]) {
        const res = await app.http.patch(`/v1/management/applications/${applicationId}`, { sparklePublicKey });
        expect(res.status, String(sparklePublicKey)).to.equal(400);
        expect(res.body.error.details[0].field).to.equal('sparklePublicKey');
      }
      expect((await app.http.get(`/v1/management/applications/${applicationId}`)).body.data.sparklePublicKey).to.equal(key.publicKey);
      expect((await app.http.patch(`/v1/management/applications/${applicationId}`, { sparklePublicKey: null })).body.data.sparklePublicKey).to.equal(null);
    });

    it('sets bundleVersion, minimumSystemVersion and critical on a version, refusing malformed values and changing nothing', async () => {
      const { applicationId } = await sparkleApplication();
      await uploadSmallFile(app, { applicationId, version: '1.0.0', content: randomBytes(100), fileName: 'App.zip', platform: 'macos', arch: 'universal' });
      const fresh = (await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions[0];
      expect([fresh.bundleVersion, fresh.minimumSystemVersion, fresh.critical]).to.deep.equal([null, null, false]);
      const set = await patchVersion(applicationId, '1.0.0', { bundleVersion: '1042', minimumSystemVersion: '11.0', critical: true });
      expect([set.bundleVersion, set.minimumSystemVersion, set.critical]).to.deep.equal(['1042', '11.0', true]);
      for (const body of [{ bundleVersion: '' }, { bundleVersion: 'a b' }, { bundleVersion: '<1>' }, { minimumSystemVersion: 'eleven' },
        { minimumSystemVersion: '11.0.0.0.0' }, { critical: 'yes' }]) {
        const res = await app.http.patch(`/v1/management/applications/${applicationId}/versions/1.0.0`, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
      }
      const cleared = await patchVersion(applicationId, '1.0.0', { bundleVersion: null, minimumSystemVersion: null, critical: false });
      expect([cleared.bundleVersion, cleared.minimumSystemVersion, cleared.critical]).to.deep.equal([null, null, false]);
    });
  });

  describe('signature uploads', () => {
    it("publishes a signature made with the application's key over the archive, as sign_update prints it with or without -p", async () => {
      const { applicationId } = await sparkleApplication();
      await publishSigned(applicationId, '1.0.0');
      const bytes = randomBytes(5_000);
      await uploadSmallFile(app, { applicationId, version: '1.1.0', content: bytes, fileName: 'App.zip' });
      const printed = `sparkle:edSignature="${key.sign(bytes)}" length="${bytes.length}"`;
      const res = await upload({ applicationId, version: '1.1.0', content: Buffer.from(printed), fileName: 'App.zip.sig', fileType: 'SIGNATURE' });
      expect(res.status, res.raw.toString()).to.equal(201);
    });

    it('refuses a signature over a tampered archive, by another key, or that is no signature, storing nothing', async () => {
      const { applicationId } = await sparkleApplication();
      const bytes = randomBytes(40_000);
      const signature = key.sign(bytes);
      const tampered = Buffer.from(bytes);
      tampered[31_337] ^= 0x01;
      await uploadSmallFile(app, { applicationId, version: '1.0.0', content: tampered, fileName: 'App.zip', platform: 'macos', arch: 'universal' });
      const cases: [string, RegExp][] = [
        [signature, /Sparkle signature does not verify against App\.zip/],
        [otherKey.sign(tampered), /Sparkle signature does not verify against App\.zip/],
        ['hello', /not a Sparkle EdDSA signature/],
        [Buffer.alloc(63).toString('base64'), /not a Sparkle EdDSA signature/],
      ];
      for (const [content, reason] of cases) {
        const res = await upload({ applicationId, version: '1.0.0', content: Buffer.from(content), fileName: 'App.zip.sig', fileType: 'SIGNATURE', platform: 'macos', arch: 'universal' });
        expect(res.status, content).to.equal(400);
        expect(res.body.error.details[0].message).to.match(reason);
      }
      const versions = (await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions;
      expect(versions[0].files.map((f: { fileName: string }) => f.fileName)).to.deep.equal(['App.zip']);
    });

    it('verifies a large upload of a signature in the worker, failing one that does not match', async () => {
      const { applicationId } = await sparkleApplication();
      const bytes = randomBytes(300_000);
      await uploadSmallFile(app, { applicationId, version: '3.0.0', content: bytes, fileName: 'App.zip' });
      const largeSignature = async (content: string) => {
        const body = Buffer.from(content);
        const issued = await app.http.post('/v1/management/upload/large-url', { applicationId, version: '3.0.0', fileName: 'App.zip.sig', fileSize: body.length, fileType: 'SIGNATURE' });
        expect(issued.status).to.equal(201);
        expect((await fetch(issued.body.data.uploadUrl, { method: 'PUT', body })).status).to.equal(200);
        const done = await app.http.post('/v1/management/upload/large-complete', {
          uploadId: issued.body.data.uploadId, applicationId, version: '3.0.0', fileName: 'App.zip.sig', fileSize: body.length,
        });
        expect(done.status).to.equal(202);
        return pollUntil(async () => {
          const res = await app.http.get(`/v1/management/uploads/${issued.body.data.uploadId}`);
          return ['completed', 'failed'].includes(res.body.data.status) ? res.body.data : undefined;
        }, 30_000, 'verification');
      };
      const failed = await largeSignature(otherKey.sign(bytes));
      expect(failed.status).to.equal('failed');
      expect(failed.failureReason).to.match(/Sparkle signature does not verify against App\.zip/);
      expect((await largeSignature(key.sign(bytes))).status).to.equal('completed');
    });
  });

  describe('the appcast', () => {
    it('lists the offered releases newest first with what Sparkle reads, signatures that verify, and enclosures that download and count', async () => {
      const { applicationId, customer } = await sparkleApplication();
      const old = await publishSigned(applicationId, '1.0.0');
      await patchVersion(applicationId, '1.0.0', { bundleVersion: '100' });
      const current = await publishSigned(applicationId, '1.1.0', { releaseNotes: '## Fixed\n\n- **crash** on start <script>alert(1)</script> ]]> [site](https://example.com) [bad](javascript:alert(1))' });
      await patchVersion(applicationId, '1.1.0', { bundleVersion: '110', minimumSystemVersion: '11.0', critical: true });
      // A delta from bundle 100, named as generate_appcast names deltas, with its own signature.
      const delta = randomBytes(3_000);
      await uploadSmallFile(app, { applicationId, version: '1.1.0', content: delta, fileName: 'App110-100.delta', fileType: 'OTHER', platform: 'macos', arch: 'universal' });
      await uploadSmallFile(app, { applicationId, version: '1.1.0', content: Buffer.from(key.sign(delta)), fileName: 'App110-100.delta.sig', fileType: 'SIGNATURE', platform: 'macos', arch: 'universal' });

      const items = await appcast(applicationId, customer.apiKey);
      expect(items.map((item) => [item['sparkle:version'], item['sparkle:shortVersionString']])).to.deep.equal([['110', '1.1.0'], ['100', '1.0.0']]);
      const [newest, older] = items;
      expect(newest.title).to.equal('Version 1.1.0');
      expect(new Date(newest.pubDate).toUTCString()).to.equal(newest.pubDate);
      expect(newest['sparkle:minimumSystemVersion']).to.equal('11.0');
      expect(newest).to.have.property('sparkle:criticalUpdate');
      expect(older).not.to.have.property('sparkle:criticalUpdate');
      expect(older).not.to.have.property('sparkle:minimumSystemVersion');
      expect(newest.description).to.contain('<h2>Fixed</h2>').and.to.contain('<strong>crash</strong>').and.to.contain('href="https://example.com"');
      expect(newest.description).not.to.match(/<script|javascript:/);
      expect(newest.enclosure).to.include({ length: '30000', type: 'application/octet-stream', 'sparkle:version': '110' });
      expect(newest.enclosure).not.to.have.property('sparkle:os');
      expect(newest.enclosure.url).to.equal(`${app.config.publicBaseUrl}/v1/updates/${applicationId}/electron/1.1.0/App-1.1.0.zip`);

      // What Sparkle does with an item: download it with its headers, verify the signature under SUPublicEDKey.
      const fetched = await download(newest.enclosure.url, customer.apiKey);
      expect(fetched.equals(current.bytes)).to.equal(true);
      expect(sparkleVerifies(key.publicKey, fetched, newest.enclosure['sparkle:edSignature'])).to.equal(true);
      expect(sparkleVerifies(key.publicKey, await download(older.enclosure.url, customer.apiKey), older.enclosure['sparkle:edSignature'])).to.equal(true);
      expect(sparkleVerifies(key.publicKey, old.bytes, older.enclosure['sparkle:edSignature'])).to.equal(true);
      const [deltaEnclosure] = newest['sparkle:deltas']?.enclosure ?? [];
      expect(deltaEnclosure).to.include({ 'sparkle:deltaFrom': '100', length: '3000', 'sparkle:version': '110' });
      expect(sparkleVerifies(key.publicKey, await download(deltaEnclosure.url, customer.apiKey), deltaEnclosure['sparkle:edSignature'])).to.equal(true);
      const events = await pollUntil(async () => {
        const found = await app.core.store.activity.listEvents({ applicationId, type: 'download', limit: 10 });
        return found.length >= 3 ? found : undefined;
      }, 10_000, 'the downloads recorded');
      expect(events.map((event) => event.customerId)).to.deep.equal([customer.customerId, customer.customerId, customer.customerId]);
    });

    it('offers what the catalogue offers: no drafts, no yanked, the tier, the channel cascade and the rollout per customer', async () => {
      const { applicationId, customer } = await sparkleApplication();
      await publishSigned(applicationId, '1.0.0');
      await publishSigned(applicationId, '1.1.0-beta.1', { channel: 'beta' });
      await publishSigned(applicationId, '1.2.0', { status: 'draft' });
      await publishSigned(applicationId, '0.9.0');
      await patchVersion(applicationId, '0.9.0', { status: 'yanked' });
      const versions = async (channel = 'stable', apiKey = customer.apiKey) => (await appcast(applicationId, apiKey, channel)).map((item) => item['sparkle:shortVersionString']);
      expect(await versions()).to.deep.equal(['1.0.0']);
      expect(await versions('beta')).to.deep.equal(['1.1.0-beta.1', '1.0.0']);
      expect(await versions('alpha'), 'alpha cascades to beta and stable').to.deep.equal(['1.1.0-beta.1', '1.0.0']);

      await patchVersion(applicationId, '1.0.0', { requiredTier: 'premium' });
      expect(await versions()).to.deep.equal([]);
      const premium = await createCustomer(app, { tier: 'premium' });
      expect((await app.http.request('PUT', `/v1/management/customers/${premium.customerId}/applications/${applicationId}`)).status).to.equal(200);
      expect(await versions('stable', premium.apiKey)).to.deep.equal(['1.0.0']);

      await patchVersion(applicationId, '1.2.0', { status: 'published', rolloutPercentage: 50 });
      const inside = isInRollout(customer.customerId, applicationId, '1.2.0', 50);
      expect(await versions()).to.deep.equal(inside ? ['1.2.0'] : []);
      expect(await versions('stable', premium.apiKey)).to.deep.equal(isInRollout(premium.customerId, applicationId, '1.2.0', 50) ? ['1.2.0', '1.0.0'] : ['1.0.0']);
    });

    it('leaves out archives without a Sparkle signature, picks the build for ?os=windows and ?arch=, and answers an empty channel as an RSS without items', async () => {
      const { applicationId, customer } = await sparkleApplication();
      expect(await appcast(applicationId, customer.apiKey), 'nothing published').to.deep.equal([]);
      await uploadSmallFile(app, { applicationId, version: '0.5.0', content: randomBytes(100), fileName: 'Unsigned.zip', platform: 'macos', arch: 'universal' });
      expect(await appcast(applicationId, customer.apiKey), 'no signature: Sparkle would refuse it').to.deep.equal([]);

      await publishSigned(applicationId, '1.0.0', { fileName: 'App-setup.exe', platform: 'windows', arch: 'x64' });
      await publishSigned(applicationId, '1.0.0', { fileName: 'App-setup-arm64.exe', platform: 'windows', arch: 'arm64' });
      expect(await appcast(applicationId, customer.apiKey), 'no macOS build').to.deep.equal([]);
      expect(await appcast(applicationId, customer.apiKey, 'stable', '?os=windows'), 'two builds, no arch named').to.deep.equal([]);
      const [windows] = await appcast(applicationId, customer.apiKey, 'stable', '?os=windows&arch=x64');
      expect(windows.enclosure).to.include({ 'sparkle:os': 'windows' });
      expect(windows.enclosure.url).to.match(/\/1\.0\.0\/App-setup\.exe$/);
      const [arm] = await appcast(applicationId, customer.apiKey, 'stable', '?os=windows&arch=arm64');
      expect(arm.enclosure.url).to.match(/\/1\.0\.0\/App-setup-arm64\.exe$/);
      expect(sparkleVerifies(key.publicKey, await download(arm.enclosure.url, customer.apiKey), arm.enclosure['sparkle:edSignature'])).to.equal(true);
    });

    it('offers the signed .zip beside an unsigned .dmg, and a version it leaves out says why in updateFeedProblems', async () => {
      const { applicationId, customer } = await sparkleApplication();
      const versionOf = async (version: string) => ((await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions
        .find((v: { version: string }) => v.version === version) as { updateFeedProblems: string[] });
      // 1.0.0: the .dmg (MAIN) and its .zip (UPDATE), nothing signed: left out, and said so.
      await uploadSmallFile(app, { applicationId, version: '1.0.0', content: randomBytes(1_000), fileName: 'App-1.0.0.dmg', platform: 'macos', arch: 'universal' });
      await uploadSmallFile(app, { applicationId, version: '1.0.0', content: randomBytes(1_000), fileName: 'App-1.0.0-mac.zip', fileType: 'UPDATE', platform: 'macos', arch: 'universal' });
      expect(await appcast(applicationId, customer.apiKey)).to.deep.equal([]);
      const [problem] = (await versionOf('1.0.0')).updateFeedProblems;
      expect(problem).to.match(/^no Sparkle signature for macos\/universal: Sparkle offers this version only with an archive signed/);
      // 1.1.0: only the .zip signed, as generate_appcast signs it: the item is the zip.
      await uploadSmallFile(app, { applicationId, version: '1.1.0', content: randomBytes(1_000), fileName: 'App-1.1.0.dmg', platform: 'macos', arch: 'universal' });
      const { bytes } = await publishSigned(applicationId, '1.1.0', { fileName: 'App-1.1.0-mac.zip', fileType: 'UPDATE' });
      const [item] = await appcast(applicationId, customer.apiKey);
      expect(item['sparkle:shortVersionString']).to.equal('1.1.0');
      expect(item.enclosure.url).to.match(/\/1\.1\.0\/App-1\.1\.0-mac\.zip$/);
      expect((await download(item.enclosure.url, customer.apiKey)).equals(bytes)).to.equal(true);
      expect((await versionOf('1.1.0')).updateFeedProblems).to.deep.equal([]);
    });

    it('answers what the other feeds answer to no key, a wrong key, an inactive customer, no access and an unknown application, with no-store', async () => {
      const { applicationId, customer } = await sparkleApplication();
      await publishSigned(applicationId, '1.0.0');
      const outsider = await createCustomer(app);
      const inactive = await createCustomer(app);
      expect((await app.http.request('PUT', `/v1/management/customers/${inactive.customerId}/applications/${applicationId}`)).status).to.equal(200);
      expect((await app.http.patch(`/v1/management/customers/${inactive.customerId}`, { isActive: false })).status).to.equal(200);
      const answer = async (path: string, apiKey: string | null) => {
        const res = await app.http.get(path, { key: apiKey });
        return [res.status, res.headers.get('cache-control'), res.body?.error?.code];
      };
      const cases: [string, string | null][] = [
        [applicationId, null], [applicationId, 'nope.nope'], [applicationId, inactive.apiKey], [applicationId, outsider.apiKey], ['no-such-app', customer.apiKey],
      ];
      for (const [id, apiKey] of cases) {
        const sparkle = await answer(appcastPath(id), apiKey);
        expect(sparkle, `${id} ${apiKey}`).to.deep.equal(await answer(`/v1/updates/${id}/electron/latest-mac.yml`, apiKey));
        expect(sparkle[0]).to.be.oneOf([401, 403, 404]);
      }
      expect((await app.http.get(appcastPath(applicationId, 'nightly'), { key: customer.apiKey })).status).to.equal(400);
      expect((await app.http.get(appcastPath(applicationId, 'stable', '?os=linux'), { key: customer.apiKey })).status).to.equal(400);
      const ok = await app.http.get(appcastPath(applicationId), { key: customer.apiKey });
      expect(ok.headers.get('ratelimit-policy'), 'rate-limited per key as the feeds are').to.be.a('string');
    });

    it('keeps offering releases signed under a replaced key, beside those signed under the new one', async () => {
      const { applicationId, customer } = await sparkleApplication();
      await publishSigned(applicationId, '1.0.0');
      const versions = async () => (await appcast(applicationId, customer.apiKey)).map((item) => item['sparkle:shortVersionString']);
      expect(await versions()).to.deep.equal(['1.0.0']);
      const problems = (settled: (problem: string | null) => boolean) => pollUntil(async () => {
        const res = await app.http.get(`/v1/management/applications/${applicationId}`);
        const first = res.body.data.versions.find((v: { version: string }) => v.version === '1.0.0');
        const [signature] = first.files.filter((f: { fileType: string }) => f.fileType === 'SIGNATURE');
        return settled(signature.signatureProblem) ? signature.signatureProblem ?? 'none' : undefined;
      }, 20_000, 'the signatures checked again');

      // The old key is retired: the signature under it still verifies (Sparkle installs built with it take that release).
      const changed = await app.http.patch(`/v1/management/applications/${applicationId}`, { sparklePublicKey: otherKey.publicKey });
      expect(changed.body.data.retiredSigningKeys.map((k: { kind: string; key: string }) => [k.kind, k.key])).to.deep.equal([['sparkle', key.publicKey]]);
      expect(await problems((problem) => problem === null)).to.equal('none');
      expect(await versions()).to.deep.equal(['1.0.0']);
      await publishSigned(applicationId, '1.1.0', { signingKey: otherKey });
      // An appcast read without Sparkle's User-Agent names no running version: every signed release.
      expect(await versions()).to.deep.equal(['1.1.0', '1.0.0']);
      const listed = (await app.http.get(`/v1/management/applications/${applicationId}`)).body.data.versions;
      expect(listed.map((v: { version: string; signedUnder: { sparkle: string } }) => [v.version, v.signedUnder.sparkle]))
        .to.deep.equal([['1.1.0', otherKey.publicKey], ['1.0.0', key.publicKey]]);
    });
  });
});
