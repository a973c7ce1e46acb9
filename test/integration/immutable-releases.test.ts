import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { contentObjectOf, createApplication, storageKeyOf, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { createBucket } from '../support/s3-bucket';
import { s3Environment, S3rverProcess, startS3rver } from '../support/s3rver';
import { startTestApp, TestApp, TestAppOptions } from '../support/test-app';

const APPLICATIONS = '/v1/management/applications';

interface FileFields { fileId: string; fileName: string; fileSize: number; checksum: string; sha512: string | null; status: string }

/** What a customer's trust rests on: the stored bytes' SHA-256 and the file record's size and digests. */
async function published(app: TestApp, applicationId: string, fileId: string) {
  const read = await app.http.get(`${APPLICATIONS}/${applicationId}?includeDeleted=true`);
  const file = (read.body.data.versions as { files: FileFields[] }[]).flatMap((version) => version.files).find((f) => f.fileId === fileId);
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = await app.core.storage.getStream(await storageKeyOf(app, fileId));
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { record: file && { fileSize: file.fileSize, checksum: file.checksum, sha512: file.sha512, status: file.status }, stored: { bytes, sha256: hash.digest('hex') } };
}

/** An app on the embedded store or on S3 (s3rver), closed with its S3. */
async function startOn(storage: 'embedded store' | 'S3', options: TestAppOptions = {}): Promise<{ app: TestApp; close(): Promise<void> }> {
  const s3: S3rverProcess | undefined = storage === 'S3' ? await startS3rver() : undefined;
  const app = await startTestApp({ ...options, env: { ...(s3 ? s3Environment(s3, 'immutable-releases') : {}), ...options.env } });
  if (app.config.s3) await createBucket(app.config.s3);
  return { app, close: async () => { await app.close(); await s3?.stop(); } };
}

/** A published file's bytes and digests never change; only a purge after the retention period removes them. */
for (const storage of ['embedded store', 'S3'] as const) describe(`immutable releases (${storage})`, function () {
  this.timeout(120_000);

  describe('a published file under every route that could reach it', () => {
    let app: TestApp;
    let close: () => Promise<void>;
    before(async () => {
      ({ app, close } = await startOn(storage));
    });
    after(() => close());

    it('keeps its bytes and digests through uploads of its name, deletions, yanks, key changes and the application\'s deletion', async () => {
      const { applicationId } = await createApplication(app);
      const content = randomBytes(4096);
      const file = await uploadSmallFile(app, { applicationId, version: '1.0.0', content, fileName: 'setup.exe', fileType: 'MAIN', platform: 'windows', arch: 'x64' });
      const before = await published(app, applicationId, file.fileId);
      expect(before.stored).to.deep.equal({ bytes: content.length, sha256: createHash('sha256').update(content).digest('hex') });
      expect(before.record).to.deep.equal({ fileSize: content.length, checksum: `sha256:${before.stored.sha256}`, sha512: createHash('sha512').update(content).digest('base64'), status: 'available' });

      const versionPath = `${APPLICATIONS}/${applicationId}/versions/1.0.0`;
      const attempts: [string, () => Promise<{ status: number }>, number[]][] = [
        ['a small upload of the same name', () => app.http.request('POST', '/v1/management/upload', {
          body: formOf(applicationId, '1.0.0', 'setup.exe', randomBytes(4096)),
        }), [409]],
        ['a small upload of the same platform and arch', () => app.http.request('POST', '/v1/management/upload', {
          body: formOf(applicationId, '1.0.0', 'other.exe', randomBytes(4096), { fileType: 'MAIN', platform: 'windows', arch: 'x64' }),
        }), [409]],
        ['a large upload of the same name', () => app.http.post('/v1/management/upload/large-url', { applicationId, version: '1.0.0', fileName: 'setup.exe', fileSize: 4096 }), [409]],
        ['a multipart upload of the same name', () => app.http.post('/v1/management/uploads/multipart', { applicationId, version: '1.0.0', fileName: 'setup.exe', fileSize: 4096 }), [409]],
        ['the deletion of the file', () => app.http.request('DELETE', `${versionPath}/files/${file.fileId}`), [409]],
        ['the deletion of the version', () => app.http.request('DELETE', versionPath), [409]],
        ['release notes and rollout', () => app.http.patch(versionPath, { releaseNotes: 'changed', rolloutPercentage: 50 }), [200]],
        ['a yank', () => app.http.patch(versionPath, { status: 'yanked', yankReason: 'bad build' }), [200]],
        ['an upload to the yanked version', () => app.http.request('POST', '/v1/management/upload', { body: formOf(applicationId, '1.0.0', 'setup.exe', randomBytes(4096)) }), [409]],
        ['the deletion of the yanked file', () => app.http.request('DELETE', `${versionPath}/files/${file.fileId}`), [409]],
        ['an un-yank', () => app.http.patch(versionPath, { status: 'published' }), [200]],
        ['a new update-signing key (the signatures are checked again)', () => app.http.patch(`${APPLICATIONS}/${applicationId}`, { updateSigningKey: null }), [200]],
        ['the application\'s deletion', () => app.http.request('DELETE', `${APPLICATIONS}/${applicationId}`), [200]],
        ['a purge before the retention period', () => app.http.post(`${APPLICATIONS}/${applicationId}/purge`, {}), [409]],
        ['its restoration', () => app.http.post(`${APPLICATIONS}/${applicationId}/restore`, {}), [200]],
      ];
      for (const [what, attempt, statuses] of attempts) {
        const response = await attempt();
        expect(statuses, `${what}: ${response.status}`).to.include(response.status);
        const now = await published(app, applicationId, file.fileId);
        expect(now.stored, what).to.deep.equal(before.stored);
        expect(now.record?.checksum, what).to.equal(before.record?.checksum);
        expect(now.record?.sha512, what).to.equal(before.record?.sha512);
        expect(now.record?.fileSize, what).to.equal(before.record?.fileSize);
      }
      // The digest backfill fills in only what a file lacks: it leaves a published file as it is.
      await app.core.store.versions.setFileDigests(file.fileId, { sha512: 'c3dhcHBlZA==', sha1: 'ff'.repeat(20) });
      expect((await published(app, applicationId, file.fileId)).record).to.deep.equal(before.record);
    });

    it('refuses a purge of an application that is live or unknown, changing nothing', async () => {
      const { applicationId } = await createApplication(app);
      const file = await uploadSmallFile(app, { applicationId, version: '1.0.0' });
      const live = await app.http.post(`${APPLICATIONS}/${applicationId}/purge`, {});
      expect([live.status, live.body.error.code]).to.deep.equal([409, 'CONFLICT']);
      expect(live.body.error.message).to.match(/not deleted/);
      expect((await app.http.post(`${APPLICATIONS}/app-unknown-${randomBytes(4).toString('hex')}/purge`, {})).status).to.equal(404);
      await app.http.request('DELETE', `${APPLICATIONS}/${applicationId}`);
      const early = await app.http.post(`${APPLICATIONS}/${applicationId}/purge`, {});
      expect(early.status).to.equal(409);
      expect(early.body.error.message).to.match(/less than 90 days ago: its releases may be purged from \d{4}-/);
      expect(await app.core.store.applications.releasePurgeStartedAt(applicationId)).to.equal(null);
      expect((await published(app, applicationId, file.fileId)).record?.status).to.equal('available');
    });
  });

  describe('the purge after the retention period', () => {
    let app: TestApp;
    let close: () => Promise<void>;
    before(async () => {
      ({ app, close } = await startOn(storage, { env: { RELEASE_PURGE_AFTER_DAYS: '0' } }));
    });
    after(() => close());

    it('deletes every release\'s bytes and records of a deleted application, audited, and it is never restored', async () => {
      const { applicationId } = await createApplication(app);
      const shipped = await uploadSmallFile(app, { applicationId, version: '1.0.0' });
      const withdrawn = await uploadSmallFile(app, { applicationId, version: '1.1.0' });
      await app.http.patch(`${APPLICATIONS}/${applicationId}/versions/1.1.0`, { status: 'yanked' });
      const other = await createApplication(app);
      const kept = await uploadSmallFile(app, { applicationId: other.applicationId, version: '1.0.0' });
      expect((await app.http.request('DELETE', `${APPLICATIONS}/${applicationId}`)).status).to.equal(200);
      // Deleted, its bytes stay until the purge.
      expect(await app.core.storage.head(contentObjectOf(applicationId, shipped))).to.not.equal(null);

      const purge = await app.http.post(`${APPLICATIONS}/${applicationId}/purge`, {});
      expect(purge.status, purge.raw.toString()).to.equal(202);
      expect(purge.body.data).to.include({ applicationId });
      expect(Date.parse(purge.body.data.purgeStartedAt)).to.be.at.least(Date.parse(purge.body.data.deletedAt));
      await pollUntil(async () => ((await app.core.store.versions.listVersions(applicationId)).length === 0 ? true : undefined), 30_000, 'the purge');
      for (const file of [shipped, withdrawn]) expect(await app.core.storage.head(contentObjectOf(applicationId, file))).to.equal(null);
      expect(await app.core.storage.head(contentObjectOf(other.applicationId, kept))).to.not.equal(null);

      const restore = await app.http.post(`${APPLICATIONS}/${applicationId}/restore`, {});
      expect([restore.status, restore.body.error.message]).to.deep.equal([409, `application ${applicationId} had its releases purged: it cannot be restored`]);
      const audit = async (action: string) => (await app.http.get(`/v1/management/audit?action=${action}&applicationId=${applicationId}`)).body.data.entries
        .map((e: { target: string; outcome: string; actor: string }) => [e.target, e.outcome, e.actor]);
      expect(await audit('application.purge')).to.deep.equal([[applicationId, 'succeeded', 'root']]);
      await pollUntil(async () => ((await audit('application.releasesPurged')).length === 1 ? true : undefined), 30_000, 'the purge\'s audit entry');
      expect(await audit('application.releasesPurged')).to.deep.equal([[applicationId, 'succeeded', 'root']]);
      // A repeat keeps the first start and finds nothing more to delete.
      const again = await app.http.post(`${APPLICATIONS}/${applicationId}/purge`, {});
      expect([again.status, again.body.data.purgeStartedAt]).to.deep.equal([202, purge.body.data.purgeStartedAt]);
    });
  });
});

function formOf(applicationId: string, version: string, fileName: string, content: Buffer, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.set('applicationId', applicationId);
  form.set('version', version);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('file', new Blob([content], { type: 'application/octet-stream' }), fileName);
  return form;
}
