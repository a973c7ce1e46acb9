import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { HttpClient } from '../support/http-client';
import { pollUntil } from '../support/poll';
import { startTestApp, TestApp } from '../support/test-app';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const MINUTE = 60_000;

/** The stores a fresh service runs on here: SQLite always, MongoDB when MONGODB_URI names a server. */
const STORES = [{ name: 'SQLite', sqliteOnly: true }, ...(process.env.MONGODB_URI ? [{ name: 'MongoDB', sqliteOnly: false }] : [])];

/**
 * A client written against the original interface alone, on a fresh service started with no option
 * set: it creates an application, uploads a version (small, and large in three steps), asks for a
 * download URL and fetches its bytes, shares a version and fetches it through the link, and reads
 * the statistics and the activity. It names no status anywhere: what it uploads is published.
 */
for (const store of STORES) {
  describe(`the original interface's flow on a fresh service (${store.name})`, function () {
    this.timeout(90_000);
    let app: TestApp;
    let admin: HttpClient;

    before(async () => {
      app = await startTestApp({ sqliteOnly: store.sqliteOnly });
      admin = app.http;
      expect(Boolean(app.config.mongodbUri)).to.equal(!store.sqliteOnly);
    });
    after(() => app?.close());

    it('create, upload, download URL, download, share link, statistics and activity', async () => {
      // A customer (its creation is the service's own) and a key for it, as 4.9 issues one.
      const customer = await admin.post('/v1/management/customers', { name: 'Acme', tier: 'standard' });
      expect(customer.status, customer.raw.toString()).to.equal(201);
      const customerId = customer.body.data.customerId as string;
      const issued = await admin.post(`/v1/management/customers/${customerId}/apikeys`);
      expect(issued.status, issued.raw.toString()).to.equal(201);
      expect(issued.body.data).to.include({ customerId });
      const apiKey = issued.body.data.apiKey as string;
      expect(apiKey.startsWith(`${customerId}.`)).to.equal(true);
      const asCustomer = { key: apiKey };

      // 4.1: create the application.
      const applicationId = `spec-${randomBytes(4).toString('hex')}`;
      const created = await admin.post('/v1/management/applications', {
        applicationId, name: 'Spec client', description: 'Written against the document', tags: ['desktop'], customerIds: [customerId],
      });
      expect(created.status, created.raw.toString()).to.equal(201);
      expect(created.body.success).to.equal(true);
      expect(created.body.data).to.include({ applicationId, name: 'Spec client', description: 'Written against the document', isActive: true });
      expect(created.body.data.tags).to.deep.equal(['desktop']);
      expect(Date.parse(created.body.data.createdAt)).to.be.closeTo(Date.now(), MINUTE);

      // 4.3: a small upload naming only what the document names.
      const small = randomBytes(50_000);
      const form = new FormData();
      form.set('applicationId', applicationId);
      form.set('version', '1.0.0');
      form.set('releaseNotes', 'First release');
      form.set('fileType', 'MAIN');
      form.set('file', new Blob([small], { type: 'application/octet-stream' }), 'Setup-1.0.0.exe');
      const uploaded = await admin.request('POST', '/v1/management/upload', { body: form });
      expect(uploaded.status, uploaded.raw.toString()).to.equal(201);
      expect(uploaded.body.success).to.equal(true);

      // 4.12: the download URL, then its bytes with a plain GET (redirects followed, no key).
      const info = await admin.get(`/v1/downloads/url?applicationId=${applicationId}&version=1.0.0`, asCustomer);
      expect(info.status, info.raw.toString()).to.equal(200);
      expect(info.body.data).to.include({ fileName: 'Setup-1.0.0.exe', fileSize: small.length, checksum: `sha256:${sha256(small)}` });
      expect(Date.parse(info.body.data.expiresAt) - Date.now()).to.be.closeTo(30 * MINUTE, MINUTE);
      const fetched = await fetch(info.body.data.downloadUrl as string);
      expect(fetched.status).to.equal(200);
      expect(Buffer.from(await fetched.arrayBuffer()).equals(small)).to.equal(true);

      // 4.4 to 4.6: a large upload in three steps, the bytes PUT to the pre-signed URL.
      const large = randomBytes(300_000);
      const session = await admin.post('/v1/management/upload/large-url', {
        applicationId, version: '1.1.0', fileName: 'Setup-1.1.0.exe', fileSize: large.length, contentType: 'application/octet-stream',
      });
      expect(session.status, session.raw.toString()).to.equal(201);
      expect(session.body.data).to.include.keys(['uploadUrl', 'uploadId', 'expiresAt']);
      const put = await fetch(session.body.data.uploadUrl as string, { method: 'PUT', body: large, headers: { 'content-type': 'application/octet-stream' } });
      await put.arrayBuffer();
      expect(put.status).to.equal(200);
      const completed = await admin.post('/v1/management/upload/large-complete', {
        uploadId: session.body.data.uploadId, applicationId, version: '1.1.0', fileName: 'Setup-1.1.0.exe', fileSize: large.length,
        checksum: sha256(large), releaseNotes: 'Second release',
      });
      expect(completed.status, completed.raw.toString()).to.be.oneOf([200, 201, 202]);
      expect(completed.body.success).to.equal(true);
      // The large file is verified after the answer: the client asks until its URL is there.
      const largeInfo = await pollUntil(async () => {
        const answer = await admin.get(`/v1/downloads/url?applicationId=${applicationId}&version=1.1.0`, asCustomer);
        return answer.status === 200 ? answer.body.data : undefined;
      }, 30_000, 'the large upload offered');
      expect(largeInfo).to.include({ fileName: 'Setup-1.1.0.exe', fileSize: large.length, checksum: `sha256:${sha256(large)}` });

      // 4.13: a share link, used without a key.
      const share = await admin.post('/v1/downloads/share', { applicationId, version: '1.1.0', expiresInMinutes: 60 }, asCustomer);
      expect(share.status, share.raw.toString()).to.equal(201);
      const { shareUrl, token, expiresAt } = share.body.data as { shareUrl: string; token: string; expiresAt: string };
      expect(shareUrl).to.equal(`${app.config.publicBaseUrl}/v1/downloads/share/${token}`);
      expect(Date.parse(expiresAt) - Date.now()).to.be.closeTo(60 * MINUTE, MINUTE);
      const shared = await fetch(`${app.baseUrl}/v1/downloads/share/${token}`);
      expect(shared.status).to.equal(200);
      expect(Buffer.from(await shared.arrayBuffer()).equals(large)).to.equal(true);

      // 4.10: the statistics count the three downloads (two URLs issued, one share link used), by version and by day.
      const today = new Date().toISOString().slice(0, 10);
      const stats = await pollUntil(async () => {
        const answer = await admin.get(`/v1/applications/${applicationId}/stats`);
        return answer.body.data.totalDownloads === 3 ? answer.body.data : undefined;
      }, 20_000, 'the downloads counted');
      expect(stats).to.deep.include({ applicationId, totalDownloads: 3, downloadsByVersion: { '1.0.0': 1, '1.1.0': 2 }, downloadsByDay: [{ date: today, count: 3 }] });
      const oneVersion = await admin.get(`/v1/applications/${applicationId}/stats?version=1.0.0`);
      expect(oneVersion.body.data).to.deep.include({ totalDownloads: 1, downloadsByVersion: { '1.0.0': 1 } });

      // 4.11: the activity, uploads and downloads alike.
      const activity = await admin.get(`/v1/activity?applicationId=${applicationId}&limit=10`);
      expect(activity.status).to.equal(200);
      const items = activity.body.data.activities as Array<{ type: string; version: string; customerId: string | null }>;
      expect(items.filter((item) => item.type === 'upload').map((item) => item.version)).to.have.members(['1.0.0', '1.1.0']);
      const downloads = items.filter((item) => item.type === 'download');
      expect(downloads.map((item) => item.version)).to.have.members(['1.0.0', '1.1.0', '1.1.0']);
      expect(downloads.every((item) => item.customerId === customerId)).to.equal(true);
      expect(activity.body.data.pagination).to.include({ hasMore: false });
      const onlyDownloads = await admin.get(`/v1/activity?applicationId=${applicationId}&type=download`);
      expect(onlyDownloads.body.data.activities.map((item: { type: string }) => item.type)).to.deep.equal(['download', 'download', 'download']);

      // 4.2: deleting it hides it from listings and answers when.
      const deleted = await admin.delete(`/v1/management/applications/${applicationId}`);
      expect(deleted.status).to.equal(200);
      expect(deleted.body.data).to.include({ applicationId });
      expect(Date.parse(deleted.body.data.deletedAt)).to.be.closeTo(Date.now(), MINUTE);
    });
  });
}
