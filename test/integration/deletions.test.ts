import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { contentObjectOf, createApplication, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { startSecondGateway, startTestApp, TestApp } from '../support/test-app';

/** Undoing mistakes: draft versions and their files, failed uploads' files, customers. */
describe('deleting drafts, files and customers', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const versionPath = (applicationId: string, version: string) => `/v1/management/applications/${applicationId}/versions/${version}`;
  const filePath = (applicationId: string, version: string, fileId: string) => `${versionPath(applicationId, version)}/files/${fileId}`;
  const listed = async (applicationId: string) =>
    ((await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions as { version: string; files: { fileId: string; status: string }[] }[])
      .map((v) => [v.version, v.files.map((file) => file.fileId)]);
  /** Whether a file's bytes are stored: its content-addressed object, named by the checksum its upload answered. */
  const stored = async (applicationId: string, file: { checksum: string | null }) =>
    (await app.core.storage.head(contentObjectOf(applicationId, file))) !== null;

  describe('versions', () => {
    it('deletes a draft with its files and their bytes, audited; the version can be uploaded afresh', async () => {
      const { applicationId } = await createApplication(app, { defaultVersionStatus: 'draft' });
      const main = await uploadSmallFile(app, { applicationId, version: '1.0.0' });
      const notes = await uploadSmallFile(app, { applicationId, version: '1.0.0', fileName: 'notes.txt', fileType: 'DOCUMENTATION' });
      expect(await stored(applicationId, main)).to.equal(true);

      const deleted = await app.http.request('DELETE', versionPath(applicationId, '1.0.0'));
      expect(deleted.status, deleted.raw.toString()).to.equal(200);
      expect(deleted.body.data).to.deep.include({ applicationId, version: '1.0.0', deletedFileIds: [main.fileId, notes.fileId] });
      expect(await listed(applicationId)).to.deep.equal([]);
      expect([await stored(applicationId, main), await stored(applicationId, notes)]).to.deep.equal([false, false]);
      const audit = await app.http.get(`/v1/management/audit?action=version.delete&applicationId=${applicationId}`);
      expect(audit.body.data.entries.map((e: { target: string; outcome: string }) => [e.target, e.outcome])).to.deep.equal([[`${applicationId}/1.0.0`, 'succeeded']]);

      expect((await app.http.request('DELETE', versionPath(applicationId, '1.0.0'))).status).to.equal(404);
      const again = await uploadSmallFile(app, { applicationId, version: '1.0.0' });
      expect(await listed(applicationId)).to.deep.equal([['1.0.0', [again.fileId]]]);
    });

    it('refuses a published version (409 VERSION_PUBLISHED) and a yanked one (409 VERSION_YANKED), changing nothing', async () => {
      const { applicationId } = await createApplication(app);
      const file = await uploadSmallFile(app, { applicationId, version: '2.0.0' });
      const published = await app.http.request('DELETE', versionPath(applicationId, '2.0.0'));
      expect([published.status, published.body.error.code]).to.deep.equal([409, 'VERSION_PUBLISHED']);
      expect(published.body.error.message).to.match(/yank/);
      expect((await app.http.patch(versionPath(applicationId, '2.0.0'), { status: 'yanked' })).status).to.equal(200);
      const yanked = await app.http.request('DELETE', versionPath(applicationId, '2.0.0'));
      expect([yanked.status, yanked.body.error.code]).to.deep.equal([409, 'VERSION_YANKED']);
      expect(await listed(applicationId)).to.deep.equal([['2.0.0', [file.fileId]]]);
      expect(await stored(applicationId, file)).to.equal(true);
    });
  });

  describe('files', () => {
    it("deletes a draft's file and its bytes; a shipped version's file is refused with the version's state", async () => {
      const { applicationId } = await createApplication(app, { defaultVersionStatus: 'draft' });
      const kept = await uploadSmallFile(app, { applicationId, version: '1.0.0' });
      const mistaken = await uploadSmallFile(app, { applicationId, version: '1.0.0', fileName: 'wrong.exe', platform: 'windows', arch: 'x64' });
      const deleted = await app.http.request('DELETE', filePath(applicationId, '1.0.0', mistaken.fileId));
      expect(deleted.status, deleted.raw.toString()).to.equal(200);
      expect(deleted.body.data).to.deep.include({ fileId: mistaken.fileId, fileName: 'wrong.exe', status: 'available' });
      expect(await listed(applicationId)).to.deep.equal([['1.0.0', [kept.fileId]]]);
      expect(await stored(applicationId, mistaken)).to.equal(false);
      // Named under another version, or unknown: 404.
      expect((await app.http.request('DELETE', filePath(applicationId, '9.9.9', kept.fileId))).status).to.equal(404);
      expect((await app.http.request('DELETE', filePath(applicationId, '1.0.0', mistaken.fileId))).status).to.equal(404);

      expect((await app.http.patch(versionPath(applicationId, '1.0.0'), { status: 'published' })).status).to.equal(200);
      const refused = await app.http.request('DELETE', filePath(applicationId, '1.0.0', kept.fileId));
      expect([refused.status, refused.body.error.code]).to.deep.equal([409, 'VERSION_PUBLISHED']);
      expect(refused.body.error.message).to.match(/yank the version/);
      expect(await stored(applicationId, kept)).to.equal(true);
    });

    it("removes a failed upload's file from a published version's listing; a file being uploaded is refused", async () => {
      const { applicationId } = await createApplication(app);
      const shipped = await uploadSmallFile(app, { applicationId, version: '3.0.0' });
      const content = randomBytes(4096);
      const issued = await app.http.post('/v1/management/upload/large-url', { applicationId, version: '3.0.0', fileName: 'big.iso', fileSize: content.length, fileType: 'OTHER' });
      expect(issued.status, issued.raw.toString()).to.equal(201);
      const { uploadId, uploadUrl } = issued.body.data;
      const pendingFileId = (await app.core.store.uploads.getUploadSession(uploadId))!.fileId;
      const underWay = await app.http.request('DELETE', filePath(applicationId, '3.0.0', pendingFileId));
      expect([underWay.status, underWay.body.error.code]).to.deep.equal([409, 'CONFLICT']);

      const put = await fetch(uploadUrl, { method: 'PUT', body: content, headers: { 'content-type': 'application/octet-stream' } });
      await put.arrayBuffer();
      const completion = { uploadId, applicationId, version: '3.0.0', fileName: 'big.iso', fileSize: content.length, checksum: 'ab'.repeat(32) };
      expect((await app.http.post('/v1/management/upload/large-complete', completion)).status).to.equal(202);
      await pollUntil(async () => ((await app.http.get(`/v1/management/uploads/${uploadId}`)).body.data.status === 'failed' ? true : undefined), 30_000, 'the failed verification');
      expect(await listed(applicationId)).to.deep.equal([['3.0.0', [shipped.fileId, pendingFileId]]]);

      const removed = await app.http.request('DELETE', filePath(applicationId, '3.0.0', pendingFileId));
      expect(removed.status, removed.raw.toString()).to.equal(200);
      expect(removed.body.data).to.deep.include({ fileId: pendingFileId, status: 'failed' });
      expect(await listed(applicationId)).to.deep.equal([['3.0.0', [shipped.fileId]]]);
    });
  });

  describe('customers', () => {
    it('revokes keys (refused at once), share links and access, anonymises activity and keeps the statistics', async () => {
      const created = await app.http.post('/v1/management/customers', { name: 'Jane Doe', tier: 'standard', notes: 'jane@example.com' });
      expect(created.status).to.equal(201);
      const { customerId, apiKey } = created.body.data;
      const { applicationId } = await createApplication(app, { customerIds: [customerId] });
      const other = await createApplication(app, { customerIds: [customerId] });
      await uploadSmallFile(app, { applicationId, version: '1.0.0' });
      const headers = { 'x-forwarded-for': '198.51.100.23', 'user-agent': 'JanesLaptop/1.0' };
      const download = await app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=1.0.0`, { key: apiKey, headers });
      expect(download.status, download.raw.toString()).to.equal(200);
      const share = await app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0' }, { key: apiKey });
      expect(share.status).to.equal(201);
      await pollUntil(async () => ((await app.http.get(`/v1/applications/${applicationId}/stats`)).body.data.totalDownloads === 1 ? true : undefined), 30_000, 'the download counted');

      const deleted = await app.http.request('DELETE', `/v1/management/customers/${customerId}`);
      expect(deleted.status, deleted.raw.toString()).to.equal(200);
      expect(deleted.body.data).to.deep.include({ customerId, revokedKeys: 1, revokedShareLinks: 1, anonymisedEvents: 1 });

      // The key was cached in process by the download: it is refused on the very next request.
      expect((await app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=1.0.0`, { key: apiKey })).status).to.equal(401);
      expect((await app.http.request('GET', `/v1/downloads/share/${share.body.data.token}`, { key: null })).status).to.be.oneOf([404, 410]);
      expect((await app.http.get(`/v1/management/customers/${customerId}`)).status).to.equal(404);
      expect((await app.http.request('DELETE', `/v1/management/customers/${customerId}`)).status).to.equal(404);
      for (const id of [applicationId, other.applicationId]) {
        expect((await app.http.get(`/v1/management/applications/${id}`)).body.data.customerIds).to.deep.equal([]);
      }
      const activity = await app.http.get(`/v1/activity?applicationId=${applicationId}&type=download`);
      expect(activity.body.data.activities.map((a: Record<string, unknown>) => [a.customerId, a.clientIp, a.userAgent])).to.deep.equal([[null, null, null]]);
      expect(JSON.stringify(activity.body.data)).to.not.include('198.51.100.23').and.not.include('JanesLaptop');
      expect((await app.http.get(`/v1/applications/${applicationId}/stats`)).body.data.totalDownloads).to.equal(1);
    });

    it("keeps a deleted customer's access tokens and share links revoked on every gateway when one with the same id is created", async () => {
      const second = await startSecondGateway(app);
      try {
        const created = await app.http.post('/v1/management/customers', { name: 'Returning', tier: 'standard' });
        const { customerId, apiKey } = created.body.data;
        const { applicationId } = await createApplication(app, { customerIds: [customerId] });
        await uploadSmallFile(app, { applicationId, version: '1.0.0', status: 'published' });
        const { token } = (await app.http.post(`/v1/management/customers/${customerId}/tokens`, {})).body.data;
        const share = (await app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0' }, { key: apiKey })).body.data.token;
        const gateways = [app.baseUrl, `http://127.0.0.1:${second.gateway.gateway.port}`];
        const tokenUse = (base: string) => fetch(`${base}/t/${token}/v1/downloads/url?applicationId=${applicationId}&version=1.0.0`).then((res) => res.status);
        const shareUse = (base: string) => fetch(`${base}/v1/downloads/share/${share}`, { redirect: 'manual' }).then((res) => res.status);
        // Both are used, so both are cached in process on both gateways.
        for (const base of gateways) expect([await tokenUse(base), await shareUse(base)]).to.deep.equal([200, 302]);

        expect((await app.http.request('DELETE', `/v1/management/customers/${customerId}`)).status).to.equal(200);
        const again = await app.http.post('/v1/management/customers', { customerId, name: 'Returning', tier: 'standard' });
        expect(again.status, again.raw.toString()).to.equal(201);
        expect((await app.http.request('PUT', `/v1/management/customers/${customerId}/applications/${applicationId}`, { json: {} })).status).to.equal(200);
        for (const base of gateways) {
          expect(await tokenUse(base), `the token on ${base}`).to.equal(401);
          expect(await shareUse(base), `the share link on ${base}`).to.be.oneOf([404, 410]);
        }
      } finally {
        await second.close();
      }
    });
  });
});
