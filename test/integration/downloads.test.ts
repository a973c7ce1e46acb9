import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../../shared/secrets';
import { createApplication, createCustomer, sha256, uploadSmallFile, storageKeyOf } from '../support/factories';
import { shareLink } from '../support/records';
import { startTestApp, TestApp } from '../support/test-app';
import { pollUntil } from '../support/poll';

type Customer = { customerId: string; apiKey: string };

describe('customer downloads', () => {
  let app: TestApp;
  let alice: Customer;
  let bob: Customer;
  let applicationId: string;
  const content = randomBytes(256 * 1024);
  const dependency = randomBytes(1000);
  let dependencyFileId: string;

  before(async () => {
    app = await startTestApp();
    alice = await createCustomer(app, { tier: 'standard' });
    bob = await createCustomer(app, { tier: 'enterprise' });
    ({ applicationId } = await createApplication(app, { customerIds: [alice.customerId] }));
    await uploadSmallFile(app, { applicationId, version: '1.0.0', content, fileName: 'Setup Tool é.exe', contentType: 'application/vnd.microsoft.portable-executable' });
    ({ fileId: dependencyFileId } = await uploadSmallFile(app, { applicationId, version: '1.0.0', content: dependency, fileName: 'runtime.dll', fileType: 'DEPENDENCY' }));
    await uploadSmallFile(app, { applicationId, version: '2.0.0', requiredTier: 'premium' });
  });
  after(() => app.close());

  const downloadUrl = (customer: Customer, query: string) => app.http.get(`/v1/downloads/url?${query}`, { key: customer.apiKey });
  const fetchBytes = async (url: string) => {
    const response = await app.http.request('GET', url, { key: null, redirect: 'follow' });
    return { response, bytes: response.raw };
  };

  describe('GET /v1/downloads/url', () => {
    it('returns a 30-minute URL whose plain GET yields exactly the uploaded bytes, and records the download', async () => {
      const issuedAt = Date.now();
      const res = await app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=1.0.0`, {
        key: alice.apiKey,
        headers: { 'user-agent': 'installer/2.1' },
      });
      expect(res.status).to.equal(200);
      const info = res.body.data;
      expect(info).to.include({ fileName: 'Setup Tool é.exe', fileSize: content.length, checksum: `sha256:${sha256(content)}` });
      expect(Date.parse(info.expiresAt)).to.be.closeTo(issuedAt + 30 * 60_000, 1_500);
      // The answer states the expiry the URL itself carries, to the second.
      expect(Date.parse(info.expiresAt) / 1000).to.equal(Number(new URL(info.downloadUrl).searchParams.get('X-Expires')));
      const { response, bytes } = await fetchBytes(info.downloadUrl);
      expect(response.status).to.equal(200);
      expect(sha256(bytes)).to.equal(sha256(content));
      expect(response.headers.get('content-disposition')).to.match(/^attachment; filename="Setup Tool _.exe"; filename\*=UTF-8''Setup%20Tool%20%C3%A9\.exe$/);
      expect(response.headers.get('content-type')).to.equal('application/vnd.microsoft.portable-executable');

      const [event] = await app.core.store.activity.listEvents({ applicationId, type: 'download', limit: 1 });
      expect(event).to.include({ customerId: alice.customerId, version: '1.0.0', clientIp: '127.0.0.1', userAgent: 'installer/2.1' });
      expect(Math.abs(event.timestamp.getTime() - issuedAt)).to.be.lessThan(5_000);
    });

    it('answers every request of a burst, each in the envelope, and counts the customer\'s download once', async () => {
      const carol = await createCustomer(app);
      const own = await createApplication(app, { customerIds: [carol.customerId] });
      await uploadSmallFile(app, { applicationId: own.applicationId, version: '1.0.0', content, fileName: 'Setup Tool é.exe' });
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => app.http.get(`/v1/downloads/url?applicationId=${own.applicationId}&version=1.0.0`, {
        key: carol.apiKey,
        headers: { 'user-agent': `burst/${i}` },
      })));
      for (const res of answers) {
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
        expect(Object.keys(res.body)).to.deep.equal(['success', 'data']);
        expect(Object.keys(res.body.data)).to.deep.equal(['downloadUrl', 'expiresAt', 'fileName', 'fileSize', 'checksum', 'fileId', 'version']);
        expect(res.body.data).to.include({ fileName: 'Setup Tool é.exe', fileSize: content.length, checksum: `sha256:${sha256(content)}` });
      }
      const events = await app.core.store.activity.listEvents({ applicationId: own.applicationId, type: 'download', limit: 1000 });
      expect(events.map((event) => event.customerId)).to.deep.equal([carol.customerId]);
    });

    it('counts a customer\'s downloads of one file once within the repeat window, other customers\' and other files apart, and every share-link use', async () => {
      const [dave, erin] = [await createCustomer(app), await createCustomer(app)];
      const own = await createApplication(app, { customerIds: [dave.customerId, erin.customerId] });
      const main = await uploadSmallFile(app, { applicationId: own.applicationId, version: '1.0.0' });
      const extra = await uploadSmallFile(app, { applicationId: own.applicationId, version: '1.0.0', fileName: 'extra.dll', fileType: 'DEPENDENCY' });
      const counted = async () => (await app.core.store.activity.listEvents({ applicationId: own.applicationId, type: 'download', limit: 1000 }))
        .map((event) => `${event.customerId === dave.customerId ? 'dave' : 'erin'} ${event.fileId === main.fileId ? 'main' : 'extra'}`).sort();
      const download = async (customer: Customer, fileId: string) => {
        const res = await downloadUrl(customer, `applicationId=${own.applicationId}&version=1.0.0&fileId=${fileId}`);
        expect(res.status, res.raw.toString()).to.equal(200);
      };
      // A client resuming: one after the other, each answered once the first is stored.
      for (let i = 0; i < 3; i += 1) await download(dave, main.fileId);
      expect(await counted()).to.deep.equal(['dave main']);
      await download(dave, extra.fileId);
      await download(erin, main.fileId);
      await download(dave, main.fileId);
      expect(await counted()).to.deep.equal(['dave extra', 'dave main', 'erin main']);

      // Share links have their own counts: every use of Dave's link is a download by someone else.
      const { token } = (await app.http.post('/v1/downloads/share', { applicationId: own.applicationId, version: '1.0.0', fileId: main.fileId }, { key: dave.apiKey })).body.data;
      for (let i = 0; i < 2; i += 1) expect((await app.http.get(`/v1/downloads/share/${token}`, { key: null })).status).to.equal(302);
      expect(await counted()).to.deep.equal(['dave extra', 'dave main', 'dave main', 'dave main', 'erin main']);
    });

    it('selects a file of the version by fileId', async () => {
      const res = await downloadUrl(alice, `applicationId=${applicationId}&version=1.0.0&fileId=${dependencyFileId}`);
      expect(res.status).to.equal(200);
      expect(res.body.data.fileName).to.equal('runtime.dll');
      expect(sha256((await fetchBytes(res.body.data.downloadUrl)).bytes)).to.equal(sha256(dependency));
      const elsewhere = await downloadUrl(alice, `applicationId=${applicationId}&version=2.0.0&fileId=${dependencyFileId}`);
      expect(elsewhere.status).to.equal(404);
    });

    it('refuses a tampered or expired signed URL', async () => {
      const res = await downloadUrl(alice, `applicationId=${applicationId}&version=1.0.0`);
      const url = new URL(res.body.data.downloadUrl);
      const signature = url.searchParams.get('X-Signature') as string;
      url.searchParams.set('X-Signature', `${signature[0] === 'a' ? 'b' : 'a'}${signature.slice(1)}`);
      const tampered = await app.http.get(url.toString(), { key: null });
      expect(tampered.status).to.equal(403);
      const otherExpiry = new URL(res.body.data.downloadUrl);
      otherExpiry.searchParams.set('X-Expires', String(Number(otherExpiry.searchParams.get('X-Expires')) + 3600));
      expect((await app.http.get(otherExpiry.toString(), { key: null })).status).to.equal(403);

      const shortLived = await app.core.storage.presignGet(await storageKeyOf(app, dependencyFileId), { expiresInSeconds: 1, fileName: 'x' });
      const expired = await pollUntil(async () => {
        const answer = await app.http.get(shortLived, { key: null });
        return answer.status === 403 ? answer : undefined;
      }, 5_000, 'the expired URL refused');
      expect(expired.body.error.message).to.contain('expired');
    });

    it('answers 404 for a missing version and 403 below the required tier', async () => {
      const missing = await downloadUrl(alice, `applicationId=${applicationId}&version=9.9.9`);
      expect(missing.status).to.equal(404);
      expect(missing.body.error).to.deep.equal({ code: 'NOT_FOUND', message: 'version not found' });
      const tier = await downloadUrl(alice, `applicationId=${applicationId}&version=2.0.0`);
      expect(tier.status).to.equal(403);
      expect(tier.body.error).to.deep.equal({ code: 'FORBIDDEN', message: 'tier access required' });
    });

    it('never reveals an application to a customer without access, whatever its tier', async () => {
      const res = await downloadUrl(bob, `applicationId=${applicationId}&version=1.0.0`);
      expect(res.status).to.equal(404);
      expect(res.body.error.message).not.to.contain('version');
      const unknown = await downloadUrl(bob, 'applicationId=no-such-app&version=1.0.0');
      expect(unknown.status).to.equal(404);
      expect(unknown.body.error.message).to.equal(res.body.error.message.replace(applicationId, 'no-such-app'));
    });

    it('validates the query and refuses the wrong kind of key', async () => {
      expect((await downloadUrl(alice, `applicationId=${applicationId}`)).status).to.equal(400);
      expect((await downloadUrl(alice, `applicationId=BAD&version=1`)).status).to.equal(400);
      expect((await downloadUrl(alice, `applicationId=${applicationId}&version=1.0.0&version=2.0.0`)).status).to.equal(400);
      expect((await downloadUrl(alice, `applicationId=${applicationId}&version=1.0.0&extra=1`)).status).to.equal(400);
      expect((await app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=1.0.0`)).status).to.equal(403);
      expect((await app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=1.0.0`, { key: null })).status).to.equal(401);
      expect((await app.http.get('/v1/management/applications', { key: alice.apiKey })).status).to.equal(403);
    });

    it('answers the spellings of the path that the router also accepts alike', async () => {
      const query = `applicationId=${applicationId}&version=1.0.0`;
      for (const path of ['/v1/downloads/url', '/v1/downloads/url/', '/V1/Downloads/URL']) {
        const res = await app.http.get(`${path}?${query}`, { key: alice.apiKey });
        expect(res.status, path).to.equal(200);
        expect(res.body.data.fileName, path).to.equal('Setup Tool é.exe');
        expect((await app.http.get(`${path}?${query}`, { key: null })).status, path).to.equal(401);
        expect((await app.http.get(`${path}?${query}`)).status, path).to.equal(403);
      }
      const head = await app.http.request('HEAD', `/v1/downloads/url?${query}`, { key: alice.apiKey });
      expect(head.status).to.equal(200);
    });

    it('hides soft-deleted applications and refuses inactive customers', async () => {
      const carol = await createCustomer(app);
      const { applicationId: other } = await createApplication(app, { customerIds: [carol.customerId] });
      await uploadSmallFile(app, { applicationId: other, version: '1' });
      expect((await downloadUrl(carol, `applicationId=${other}&version=1`)).status).to.equal(200);
      await app.http.delete(`/v1/management/applications/${other}`);
      expect((await downloadUrl(carol, `applicationId=${other}&version=1`)).status).to.equal(404);
      await app.http.post(`/v1/management/applications/${other}/restore`);
      expect((await downloadUrl(carol, `applicationId=${other}&version=1`)).status).to.equal(200);
      expect((await app.http.patch(`/v1/management/customers/${carol.customerId}`, { isActive: false })).status).to.equal(200);
      const inactive = await downloadUrl(carol, `applicationId=${other}&version=1`);
      expect(inactive.status).to.equal(403);
    });
  });

  describe('share links', () => {
    const share = (customer: Customer, body: Record<string, unknown>) => app.http.post('/v1/downloads/share', body, { key: customer.apiKey });

    it('creates a link that redirects without a key to the same bytes, recording the use for its creator', async () => {
      const created = await share(alice, { applicationId, version: '1.0.0', expiresInMinutes: 10 });
      expect(created.status).to.equal(201);
      const { shareUrl, token, expiresAt } = created.body.data;
      expect(token).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(shareUrl).to.equal(`${app.config.publicBaseUrl}/v1/downloads/share/${token}`);
      expect(Date.parse(expiresAt)).to.be.closeTo(Date.now() + 10 * 60_000, 2_000);
      expect(await app.core.store.shareLinks.getShareLink(token)).to.equal(null);
      expect(await app.core.store.shareLinks.getShareLink(hashSecret(token))).not.to.equal(null);

      const linkPath = `/v1/downloads/share/${token}`;
      const redirect = await app.http.get(linkPath, { key: null, headers: { 'user-agent': 'browser/1', 'x-forwarded-for': '203.0.113.9' } });
      expect(redirect.status).to.equal(302);
      expect(redirect.headers.get('cache-control')).to.equal('no-store');
      expect(redirect.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      expect(redirect.body).to.deep.equal({ success: true, data: { downloadUrl: redirect.headers.get('location'), expiresAt: redirect.body.data.expiresAt } });
      expect(Date.parse(redirect.body.data.expiresAt) / 1000).to.equal(Number(new URL(redirect.body.data.downloadUrl).searchParams.get('X-Expires')));
      const location = new URL(redirect.headers.get('location') as string);
      const lifetime = Number(location.searchParams.get('X-Expires')) - Date.now() / 1000;
      expect(lifetime).to.be.within(290, 301);
      const { bytes } = await fetchBytes(location.toString());
      expect(sha256(bytes)).to.equal(sha256(content));

      const followed = await fetchBytes(`${app.baseUrl}${linkPath}`);
      expect(sha256(followed.bytes)).to.equal(sha256(content));

      const [event] = await app.core.store.activity.listEvents({ applicationId, type: 'download', limit: 1 });
      expect(event.customerId).to.equal(alice.customerId);
      const downloadsBefore = (await app.core.store.activity.listEvents({ applicationId, type: 'download', limit: 100 })).length;
      const head = await app.http.request('HEAD', linkPath, { key: null });
      expect(head.status).to.equal(302);
      expect(head.headers.get('location')).to.contain('/v1/objects/');
      // A HEAD, uncounted, is sent where it can look only: the bytes stay behind a counted GET.
      expect((await fetch(head.headers.get('location') as string, { method: 'HEAD' })).status).to.equal(200);
      expect((await fetch(head.headers.get('location') as string)).status).to.equal(403);
      expect((await app.core.store.activity.listEvents({ applicationId, type: 'download', limit: 100 })).length).to.equal(downloadsBefore);
    });

    it('records the requester\'s user agent and IP (X-Forwarded-For ignored unless TRUST_PROXY)', async () => {
      const { token } = (await share(alice, { applicationId, version: '1.0.0' })).body.data;
      await app.http.get(`/v1/downloads/share/${token}`, { key: null, headers: { 'user-agent': 'wget/1.21', 'x-forwarded-for': '203.0.113.9' } });
      const [event] = await app.core.store.activity.listEvents({ applicationId, type: 'download', limit: 1 });
      expect(event).to.include({ customerId: alice.customerId, userAgent: 'wget/1.21', clientIp: '127.0.0.1' });
    });

    it('never redirects past the link\'s own expiry', async () => {
      const token = randomBytes(32).toString('base64url');
      const file = (await app.core.store.versions.listVersions(applicationId)).find((v) => v.version === '1.0.0')?.files.find((f) => f.fileType === 'MAIN');
      const expiresAt = new Date(Date.now() + 60_000);
      await app.core.store.shareLinks.createShareLink(shareLink(hashSecret(token), { customerId: alice.customerId, applicationId, fileId: file!.fileId, expiresAt, createdAt: new Date() }));
      const redirect = await app.http.get(`/v1/downloads/share/${token}`, { key: null });
      const expires = Number(new URL(redirect.headers.get('location') as string).searchParams.get('X-Expires'));
      expect(expires).to.be.at.most(Math.ceil(expiresAt.getTime() / 1000));
    });

    it('answers 410 after expiry or revocation and 404 for unknown tokens', async () => {
      const token = randomBytes(32).toString('base64url');
      const file = (await app.core.store.versions.listVersions(applicationId)).find((v) => v.version === '1.0.0')?.files.find((f) => f.fileType === 'MAIN');
      await app.core.store.shareLinks.createShareLink(shareLink(hashSecret(token), {
        customerId: alice.customerId, applicationId, fileId: file!.fileId, expiresAt: new Date(Date.now() - 1_000), createdAt: new Date(Date.now() - 60_000),
      }));
      const expired = await app.http.get(`/v1/downloads/share/${token}`, { key: null });
      expect(expired.status).to.equal(410);
      expect(expired.body.error.code).to.equal('GONE');

      const { token: live } = (await share(alice, { applicationId, version: '1.0.0' })).body.data;
      expect((await app.http.delete(`/v1/downloads/share/${live}`, { key: bob.apiKey })).status).to.equal(404);
      expect((await app.http.get(`/v1/downloads/share/${live}`, { key: null })).status).to.equal(302);
      const revoked = await app.http.delete(`/v1/downloads/share/${live}`, { key: alice.apiKey });
      expect(revoked.status).to.equal(200);
      expect((await app.http.get(`/v1/downloads/share/${live}`, { key: null })).status).to.equal(410);
      expect((await app.http.delete(`/v1/downloads/share/${live}`, { key: alice.apiKey })).status).to.equal(404);

      expect((await app.http.get(`/v1/downloads/share/${randomBytes(32).toString('base64url')}`, { key: null })).status).to.equal(404);
      expect((await app.http.get('/v1/downloads/share/short', { key: null })).status).to.equal(404);
    });

    it('resolves a token however its path is spelled, and only through GET and HEAD', async () => {
      const { token } = (await share(alice, { applicationId, version: '1.0.0' })).body.data;
      const escaped = `%${token.charCodeAt(0).toString(16).toUpperCase()}${token.slice(1)}`;
      for (const path of [`/v1/downloads/share/${token}`, `/v1/downloads/share/${token}/`, `/v1/downloads/share/${escaped}`]) {
        expect((await app.http.get(path, { key: null })).status, path).to.equal(302);
        expect((await app.http.request('HEAD', path, { key: null })).status, path).to.equal(302);
      }
      expect((await app.http.request('PUT', `/v1/downloads/share/${token}`, { key: null })).status).to.equal(405);
    });

    it('re-checks access at use: application deleted, access removed, tier raised, customer deactivated', async () => {
      const dave = await createCustomer(app, { tier: 'premium' });
      const { applicationId: appId } = await createApplication(app, { customerIds: [dave.customerId] });
      await uploadSmallFile(app, { applicationId: appId, version: '1' });
      const link = async () => `/v1/downloads/share/${(await share(dave, { applicationId: appId, version: '1' })).body.data.token}`;
      const use = (path: string) => app.http.get(path, { key: null });

      const deletedLink = await link();
      await app.http.delete(`/v1/management/applications/${appId}`);
      expect((await use(deletedLink)).status).to.equal(404);
      await app.http.post(`/v1/management/applications/${appId}/restore`);
      expect((await use(deletedLink)).status).to.equal(302);

      await app.http.patch(`/v1/management/applications/${appId}`, { customerIds: [] });
      expect((await use(deletedLink)).status).to.equal(404);
      await app.http.patch(`/v1/management/applications/${appId}`, { customerIds: [dave.customerId] });

      await app.http.patch(`/v1/management/applications/${appId}/versions/1`, { requiredTier: 'enterprise' });
      const tier = await use(deletedLink);
      expect(tier.status).to.equal(403);
      expect(tier.body.error.message).to.equal('tier access required');
      await app.http.patch(`/v1/management/applications/${appId}/versions/1`, { requiredTier: null });

      await app.http.patch(`/v1/management/customers/${dave.customerId}`, { isActive: false });
      expect((await use(deletedLink)).status).to.be.oneOf([403, 404]);
    });

    it('applies the download checks at creation and validates expiresInMinutes', async () => {
      expect((await share(bob, { applicationId, version: '1.0.0' })).status).to.equal(404);
      expect((await share(alice, { applicationId, version: '2.0.0' })).status).to.equal(403);
      expect((await share(alice, { applicationId, version: '3.0.0' })).status).to.equal(404);
      for (const expiresInMinutes of [0, 1441, 1.5, '30', -5, null]) {
        const res = await share(alice, { applicationId, version: '1.0.0', expiresInMinutes });
        expect(res.status, String(expiresInMinutes)).to.equal(400);
        expect(res.body.error.details[0].field).to.equal('expiresInMinutes');
      }
      const longest = await share(alice, { applicationId, version: '1.0.0', expiresInMinutes: 1440 });
      expect(Date.parse(longest.body.data.expiresAt)).to.be.closeTo(Date.now() + 1440 * 60_000, 2_000);
      const byDefault = await share(alice, { applicationId, version: '1.0.0' });
      expect(Date.parse(byDefault.body.data.expiresAt)).to.be.closeTo(Date.now() + 30 * 60_000, 2_000);
    });
  });
});
