import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { rolloutBucket } from '../../shared/releases/rollout';
import { createApplication, createCustomer, releaseFileId, ReleaseSpec, sha256, storeRelease, uploadSmallFile } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

type Customer = { customerId: string; apiKey: string };

/**
 * `version=latest` and the platform, arch and channel selectors of GET /v1/downloads/url and
 * POST /v1/downloads/share, over HTTP. Each application's versions are written through the store
 * before it is first asked for (the gateway caches them from then on), or uploaded through the API.
 */
describe('latest downloads and selectors', () => {
  let app: TestApp;
  let alice: Customer;
  let premium: Customer;

  before(async () => {
    app = await startTestApp({ workers: false });
    alice = await createCustomer(app, { tier: 'standard' });
    premium = await createCustomer(app, { tier: 'premium' });
  });
  after(() => app.close());

  /** An application listing `customers`, with `versions` written through the store. */
  async function applicationWith(versions: Record<string, ReleaseSpec>, customers: Customer[] = [alice, premium]): Promise<string> {
    const { applicationId } = await createApplication(app, { customerIds: customers.map((c) => c.customerId) });
    for (const [version, spec] of Object.entries(versions)) await storeRelease(app.core.store, applicationId, version, spec);
    return applicationId;
  }

  const url = (customer: Customer, query: string) => app.http.get(`/v1/downloads/url?${query}`, { key: customer.apiKey });
  const share = (customer: Customer, body: Record<string, unknown>) => app.http.post('/v1/downloads/share', body, { key: customer.apiKey });

  describe('GET /v1/downloads/url?version=latest', () => {
    it('answers the newest published version in the channel and every more stable one, naming it', async () => {
      const applicationId = await applicationWith({
        '1.0.0': { channel: 'stable', createdAt: 1 },
        '0.9.0': { channel: 'stable', createdAt: 2 },
        '1.1.0-rc.1': { channel: 'rc', createdAt: 3 },
        '1.2.0-beta.1': { channel: 'beta', createdAt: 4 },
      });
      const latest = async (query = '') => {
        const res = await url(alice, `applicationId=${applicationId}&version=latest${query}`);
        expect(res.status, query).to.equal(200);
        return res.body.data;
      };
      const stable = await latest();
      expect(stable).to.include({ version: '1.0.0', fileId: releaseFileId(applicationId, '1.0.0', 0), fileName: '1.0.0-any-any-0.bin' });
      expect(Object.keys(stable)).to.deep.equal(['downloadUrl', 'expiresAt', 'fileName', 'fileSize', 'checksum', 'fileId', 'version']);
      expect((await latest('&channel=stable')).version).to.equal('1.0.0');
      expect((await latest('&channel=rc')).version).to.equal('1.1.0-rc.1');
      expect((await latest('&channel=beta')).version).to.equal('1.2.0-beta.1');
      expect((await latest('&channel=dev')).version).to.equal('1.2.0-beta.1');

      const [event] = await app.core.store.activity.listEvents({ applicationId, type: 'download', limit: 1 });
      expect(event).to.include({ version: '1.2.0-beta.1', customerId: alice.customerId });
    });

    it('picks the MAIN file by platform and arch, skipping versions without one, and answers 400 naming the choices when they do not decide', async () => {
      const applicationId = await applicationWith({
        '1.0.0': { createdAt: 1, files: [{ platform: 'linux', arch: 'x64', fileName: 'app-1.0.0.AppImage' }] },
        '2.0.0': {
          createdAt: 2,
          files: [
            { platform: 'windows', arch: 'x64', fileName: 'Setup-x64.exe' },
            { platform: 'windows', arch: 'arm64', fileName: 'Setup-arm64.exe' },
            { platform: 'macos', arch: 'universal', fileName: 'App-2.0.0.zip' },
          ],
        },
      });
      const pick = async (query: string) => {
        const res = await url(alice, `applicationId=${applicationId}&version=latest${query}`);
        return res.status === 200 ? `${res.body.data.version} ${res.body.data.fileName}` : res.status;
      };
      expect(await pick('&platform=windows&arch=x64')).to.equal('2.0.0 Setup-x64.exe');
      expect(await pick('&platform=windows&arch=arm64')).to.equal('2.0.0 Setup-arm64.exe');
      expect(await pick('&platform=macos&arch=arm64')).to.equal('2.0.0 App-2.0.0.zip');
      expect(await pick('&platform=macos')).to.equal('2.0.0 App-2.0.0.zip');
      expect(await pick('&platform=linux')).to.equal('1.0.0 app-1.0.0.AppImage');
      expect(await pick('&platform=linux&arch=arm64')).to.equal(404);
      // An exact version with several MAIN files takes the same selectors.
      const exact = await url(alice, `applicationId=${applicationId}&version=2.0.0&platform=windows&arch=arm64`);
      expect(exact.body.data).to.include({ version: '2.0.0', fileName: 'Setup-arm64.exe' });

      const ambiguous = await url(alice, `applicationId=${applicationId}&version=latest&platform=windows`);
      expect(ambiguous.status).to.equal(400);
      expect(ambiguous.body.error).to.deep.equal({
        code: 'BAD_REQUEST',
        message: 'version 2.0.0 has several MAIN files for this request; select one with platform and arch: windows/x64 (Setup-x64.exe), windows/arm64 (Setup-arm64.exe)',
        details: [{ field: 'arch', message: 'one of: x64, arm64' }],
      });
      const exactAmbiguous = await url(alice, `applicationId=${applicationId}&version=2.0.0`);
      expect(exactAmbiguous.status).to.equal(400);
      expect(exactAmbiguous.body.error.details).to.deep.equal([
        { field: 'platform', message: 'one of: windows, macos' },
        { field: 'arch', message: 'one of: x64, arm64, universal' },
      ]);
      const none = await url(alice, `applicationId=${applicationId}&version=latest&platform=linux&arch=arm64`);
      expect(none.body.error).to.deep.equal({ code: 'NOT_FOUND', message: `no version of ${applicationId} is available for channel stable, platform linux, arch arm64` });
    });

    it('offers only what the customer may download: tier and staged rollout; an exact version inside a rollout or not still downloads', async () => {
      const { applicationId } = await createApplication(app, {});
      const version = '3.0.0';
      const candidates = await Promise.all(Array.from({ length: 40 }, () => createCustomer(app, { tier: 'premium' })));
      const inside = candidates.find((c) => rolloutBucket(c.customerId, applicationId, version) < 30) as Customer;
      const outside = candidates.find((c) => rolloutBucket(c.customerId, applicationId, version) >= 30) as Customer;
      await app.http.patch(`/v1/management/applications/${applicationId}`, { customerIds: [alice, premium, inside, outside].map((c) => c.customerId) });
      for (const [name, spec] of Object.entries<ReleaseSpec>({
        '1.0.0': {},
        '2.0.0': { requiredTier: 'premium' },
        [version]: { rolloutPercentage: 30 },
      })) await storeRelease(app.core.store, applicationId, name, spec);

      const latestOf = async (customer: Customer) => (await url(customer, `applicationId=${applicationId}&version=latest`)).body.data.version;
      // Below the tier of 2.0.0, and inside the rollout of 3.0.0 or not by her own bucket.
      expect(await latestOf(alice)).to.equal(rolloutBucket(alice.customerId, applicationId, version) < 30 ? version : '1.0.0');
      expect(await latestOf(inside)).to.equal(version);
      expect(await latestOf(outside)).to.equal('2.0.0');
      expect((await url(outside, `applicationId=${applicationId}&version=${version}`)).status).to.equal(200);
      expect((await url(alice, `applicationId=${applicationId}&version=2.0.0`)).status).to.equal(403);
    });

    it('hides drafts as absent and answers a yanked version with 410; neither is ever latest', async () => {
      const applicationId = await applicationWith({
        '1.0.0': { createdAt: 1 },
        '1.1.0': { createdAt: 2, status: 'yanked' },
        '1.2.0': { createdAt: 3, status: 'draft' },
      });
      expect((await url(alice, `applicationId=${applicationId}&version=latest`)).body.data.version).to.equal('1.0.0');
      const draft = await url(alice, `applicationId=${applicationId}&version=1.2.0`);
      expect([draft.status, draft.body.error.message]).to.deep.equal([404, 'version not found']);
      const yanked = await url(alice, `applicationId=${applicationId}&version=1.1.0`);
      expect(yanked.status).to.equal(410);
      expect(yanked.body.error).to.deep.equal({ code: 'GONE', message: 'version 1.1.0 has been withdrawn' });
      expect((await url(alice, `applicationId=${applicationId}&version=1.1.0&fileId=${releaseFileId(applicationId, '1.1.0', 0)}`)).status).to.equal(410);
    });

    it('follows a new upload at once', async () => {
      const { applicationId } = await createApplication(app, { customerIds: [alice.customerId] });
      await uploadSmallFile(app, { applicationId, version: '1.0.0' });
      const latest = () => url(alice, `applicationId=${applicationId}&version=latest`);
      expect((await latest()).body.data.version).to.equal('1.0.0');
      expect((await latest()).body.data.version).to.equal('1.0.0');
      const content = randomBytes(2048);
      await uploadSmallFile(app, { applicationId, version: '1.0.1', content });
      const res = await latest();
      expect(res.body.data).to.include({ version: '1.0.1', checksum: `sha256:${sha256(content)}` });
      const bytes = Buffer.from(await (await fetch(res.body.data.downloadUrl)).arrayBuffer());
      expect(sha256(bytes)).to.equal(sha256(content));
    });

    it('offers uploaded builds as their uploads describe them: platform, arch, channel, draft', async () => {
      const { applicationId } = await createApplication(app, { customerIds: [alice.customerId] });
      const windows = randomBytes(1500);
      await uploadSmallFile(app, { applicationId, version: '1.0.0', platform: 'windows', arch: 'x64', fileName: 'Setup-1.0.0.exe', content: windows });
      await uploadSmallFile(app, { applicationId, version: '1.0.0', platform: 'macos', arch: 'universal', fileName: 'App-1.0.0.zip' });
      await uploadSmallFile(app, { applicationId, version: '1.1.0-beta.1', channel: 'beta', platform: 'windows', arch: 'x64', fileName: 'Setup-beta.exe' });
      await uploadSmallFile(app, { applicationId, version: '2.0.0', status: 'draft', platform: 'windows', arch: 'x64', fileName: 'Setup-2.0.0.exe' });
      const pick = async (query: string) => {
        const res = await url(alice, `applicationId=${applicationId}&version=latest${query}`);
        return res.status === 200 ? `${res.body.data.version} ${res.body.data.fileName}` : res.status;
      };
      expect(await pick('&platform=windows&arch=x64')).to.equal('1.0.0 Setup-1.0.0.exe');
      expect(await pick('&platform=macos&arch=arm64')).to.equal('1.0.0 App-1.0.0.zip');
      expect(await pick('&platform=windows&channel=beta')).to.equal('1.1.0-beta.1 Setup-beta.exe');
      expect(await pick('')).to.equal(400);
      const res = await url(alice, `applicationId=${applicationId}&version=latest&platform=windows`);
      expect(sha256(Buffer.from(await (await fetch(res.body.data.downloadUrl)).arrayBuffer()))).to.equal(sha256(windows));

      expect((await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0`, { status: 'published' })).status).to.equal(200);
      expect(await pick('&platform=windows')).to.equal('2.0.0 Setup-2.0.0.exe');
      expect(await pick('&platform=macos')).to.equal('1.0.0 App-1.0.0.zip');
    });

    it('keeps the access rules of exact versions: no access, deleted applications and unknown ones are 404 alike', async () => {
      const outsider = await createCustomer(app);
      const applicationId = await applicationWith({ '1.0.0': {} });
      const refused = await url(outsider, `applicationId=${applicationId}&version=latest`);
      expect(refused.body.error).to.deep.equal({ code: 'NOT_FOUND', message: `application ${applicationId} not found` });
      await app.http.delete(`/v1/management/applications/${applicationId}`);
      expect((await url(alice, `applicationId=${applicationId}&version=latest`)).status).to.equal(404);
      expect((await url(alice, 'applicationId=no-such-app&version=latest')).status).to.equal(404);
    });

    it('refuses selectors that do not fit the request', async () => {
      const applicationId = await applicationWith({ '1.0.0': {} });
      const refusals: Array<[string, string]> = [
        ['version=latest&channel=nightly', 'channel'],
        ['version=1.0.0&channel=beta', 'channel'],
        ['version=latest&fileId=fil_x', 'fileId'],
        ['version=1.0.0&fileId=fil_x&platform=windows', 'platform'],
        ['version=1.0.0&fileId=fil_x&arch=x64', 'arch'],
        ['version=latest&platform=any', 'platform'],
        ['version=latest&platform=darwin', 'platform'],
        ['version=latest&arch=any', 'arch'],
        ['version=latest&arch=x86_64', 'arch'],
        ['version=latest&platform=windows&platform=macos', 'platform'],
      ];
      for (const [query, field] of refusals) {
        const res = await url(alice, `applicationId=${applicationId}&${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.error.details.map((d: { field: string }) => d.field), query).to.deep.equal([field]);
      }
    });
  });

  describe('POST /v1/downloads/share with version=latest', () => {
    it('makes a link to the version latest resolves to now, naming it', async () => {
      const applicationId = await applicationWith({
        '1.0.0': { createdAt: 1, files: [{ platform: 'windows', arch: 'x64' }, { platform: 'macos', arch: 'universal' }] },
        '1.1.0-beta.1': { createdAt: 2, channel: 'beta', files: [{ platform: 'windows', arch: 'x64' }] },
      });
      const created = await share(alice, { applicationId, version: 'latest', channel: 'beta', platform: 'windows', arch: 'x64' });
      expect(created.status).to.equal(201);
      expect(created.body.data).to.include({ version: '1.1.0-beta.1', fileId: releaseFileId(applicationId, '1.1.0-beta.1', 0) });
      const link = await app.http.get(`/v1/downloads/share/${created.body.data.token}`, { key: null });
      expect(link.status).to.equal(302);

      const mac = await share(alice, { applicationId, version: 'latest', platform: 'macos' });
      expect(mac.body.data).to.include({ version: '1.0.0', fileId: releaseFileId(applicationId, '1.0.0', 1) });
      const ambiguous = await share(alice, { applicationId, version: 'latest' });
      expect(ambiguous.status).to.equal(400);
      expect(ambiguous.body.error.message).to.match(/^version 1\.0\.0 has several MAIN files/);
      expect((await share(alice, { applicationId, version: 'latest', platform: 'linux' })).status).to.equal(404);
      expect((await share(alice, { applicationId, version: '1.0.0', channel: 'beta' })).status).to.equal(400);
      expect((await share(alice, { applicationId, version: 'latest', platform: 'any' })).status).to.equal(400);
    });

    it('refuses to share a yanked version (410) or a draft (404)', async () => {
      const applicationId = await applicationWith({ '1.0.0': { status: 'yanked' }, '1.1.0': { status: 'draft' } });
      expect((await share(alice, { applicationId, version: '1.0.0' })).status).to.equal(410);
      expect((await share(alice, { applicationId, version: '1.1.0' })).status).to.equal(404);
      expect((await share(alice, { applicationId, version: 'latest' })).status).to.equal(404);
    });
  });
});
