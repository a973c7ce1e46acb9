import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileStorageKey } from '../../shared/uploads/storage-keys';
import { createApplication, storageKeyOf, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { createBucket } from '../support/s3-bucket';
import { s3Environment, S3rverProcess, startS3rver } from '../support/s3rver';
import { startTestApp, TestApp } from '../support/test-app';

const APPLICATIONS = '/v1/management/applications';
const hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function readObject(app: TestApp, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await app.core.storage.getStream(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A large upload (one PUT to its pre-signed URL) followed to the end of its verification. */
async function uploadLarge(app: TestApp, applicationId: string, version: string, fileName: string, content: Buffer, checksum?: string) {
  const issued = await app.http.post('/v1/management/upload/large-url', { applicationId, version, fileName, fileSize: content.length });
  expect(issued.status, issued.raw.toString()).to.equal(201);
  const { uploadId, uploadUrl, fileId } = issued.body.data as { uploadId: string; uploadUrl: string; fileId: string };
  expect((await app.http.request('PUT', uploadUrl, { key: null, body: content })).status).to.be.within(200, 299);
  const completed = await app.http.post('/v1/management/upload/large-complete', { uploadId, applicationId, version, fileName, fileSize: content.length, ...(checksum ? { checksum } : {}) });
  expect(completed.status, completed.raw.toString()).to.equal(202);
  const settled = await settle(app, uploadId);
  return { fileId, uploadId, status: settled.status as string, failureReason: settled.failureReason as string | null };
}

/** A multipart upload of one part, followed to the end of its verification. */
async function uploadMultipart(app: TestApp, applicationId: string, version: string, fileName: string, content: Buffer) {
  const opened = await app.http.post('/v1/management/uploads/multipart', { applicationId, version, fileName, fileSize: content.length });
  expect(opened.status, opened.raw.toString()).to.equal(201);
  const { uploadId, fileId } = opened.body.data as { uploadId: string; fileId: string };
  const urls = await app.http.post(`/v1/management/uploads/${uploadId}/parts`, { partNumbers: [1] });
  expect(urls.status, urls.raw.toString()).to.equal(200);
  expect((await app.http.request('PUT', urls.body.data.parts[0].uploadUrl, { key: null, body: content })).status).to.be.within(200, 299);
  expect((await app.http.post(`/v1/management/uploads/${uploadId}/complete`)).status).to.equal(202);
  const settled = await settle(app, uploadId);
  return { fileId, uploadId, status: settled.status as string, failureReason: settled.failureReason as string | null };
}

const settle = (app: TestApp, uploadId: string) => pollUntil(async () => {
  const current = (await app.http.get(`/v1/management/uploads/${uploadId}`)).body.data;
  return current.status === 'verifying' ? undefined : current;
}, 30_000, 'verification');

const deleteFile = (app: TestApp, applicationId: string, version: string, fileId: string) =>
  app.http.request('DELETE', `${APPLICATIONS}/${applicationId}/versions/${version}/files/${fileId}`);

/** Files' bytes are stored once per application and content, and deleted with the last file that points at them. */
for (const storage of ['embedded store', 'S3'] as const) describe(`content-addressed objects (${storage})`, function () {
  this.timeout(120_000);
  let app: TestApp;
  let s3: S3rverProcess | undefined;
  before(async () => {
    s3 = storage === 'S3' ? await startS3rver() : undefined;
    app = await startTestApp({ env: { ...(s3 ? s3Environment(s3, 'content-addressed') : {}), RELEASE_PURGE_AFTER_DAYS: '0' } });
    if (app.config.s3) await createBucket(app.config.s3);
  });
  after(async () => {
    await app?.close();
    await s3?.stop();
  });

  it('stores a small and a large upload of the same bytes as one object under files/{applicationId}/sha256/{hex}, and nothing under the upload\'s own key', async () => {
    const { applicationId } = await createApplication(app, { defaultVersionStatus: 'draft' });
    const content = randomBytes(64 * 1024);
    const object = `files/${applicationId}/sha256/${hex(content)}`;
    const small = await uploadSmallFile(app, { applicationId, version: '1.0.0', content, fileName: 'small.bin', fileType: 'DOCUMENTATION' });
    expect(await storageKeyOf(app, small.fileId)).to.equal(object);
    expect((await readObject(app, object)).equals(content)).to.equal(true);
    const large = await uploadLarge(app, applicationId, '1.0.0', 'large.bin', content);
    expect([large.status, large.failureReason]).to.deep.equal(['completed', null]);
    expect(await storageKeyOf(app, large.fileId)).to.equal(object);
    expect(await app.core.storage.head(fileStorageKey(applicationId, large.fileId))).to.equal(null);
    expect(await app.core.storage.listKeys(`files/${applicationId}/sha256`, 10)).to.deep.equal([object]);
    expect(await app.core.storage.listKeys(`files/${applicationId}`, 10)).to.deep.equal([]);

    // The same bytes in another application are that application's own object.
    const other = await createApplication(app);
    const elsewhere = await uploadSmallFile(app, { applicationId: other.applicationId, version: '1.0.0', content, fileName: 'small.bin', fileType: 'DOCUMENTATION' });
    expect(await storageKeyOf(app, elsewhere.fileId)).to.equal(`files/${other.applicationId}/sha256/${hex(content)}`);

    // Deleting one file keeps the object the other points at; deleting the last deletes it.
    expect((await deleteFile(app, applicationId, '1.0.0', small.fileId)).status).to.equal(200);
    expect((await readObject(app, object)).equals(content)).to.equal(true);
    const download = await app.http.get(`${APPLICATIONS}/${applicationId}/versions/1.0.0/files/${large.fileId}/download`);
    expect(download.status, download.raw.toString()).to.equal(200);
    expect((await deleteFile(app, applicationId, '1.0.0', large.fileId)).status).to.equal(200);
    expect(await app.core.storage.head(object)).to.equal(null);
    expect(await app.core.storage.head(`files/${other.applicationId}/sha256/${hex(content)}`)).to.not.equal(null);
  });

  it('keeps a published object when another upload of the same bytes fails verification, before or after its placement', async () => {
    const { applicationId } = await createApplication(app);
    const content = randomBytes(32 * 1024);
    const object = `files/${applicationId}/sha256/${hex(content)}`;
    const published = await uploadSmallFile(app, { applicationId, version: '1.0.0', content, fileName: 'app.bin', fileType: 'DOCUMENTATION' });
    // Refused before its bytes are placed: a checksum that does not match.
    const mismatched = await uploadLarge(app, applicationId, '1.0.0', 'again.bin', content, `sha256:${'0'.repeat(64)}`);
    expect(mismatched.status).to.equal('failed');
    expect(mismatched.failureReason).to.match(/checksum mismatch/);
    expect(await app.core.storage.head(fileStorageKey(applicationId, mismatched.fileId))).to.equal(null);
    expect((await readObject(app, object)).equals(content)).to.equal(true);

    // Refused after: placed, then the version it names turned out to be in another channel.
    const issued = await app.http.post('/v1/management/upload/large-url', { applicationId, version: '3.0.0', channel: 'beta', fileName: 'late.bin', fileSize: content.length });
    expect(issued.status, issued.raw.toString()).to.equal(201);
    expect((await app.http.request('PUT', issued.body.data.uploadUrl, { key: null, body: content })).status).to.be.within(200, 299);
    await uploadSmallFile(app, { applicationId, version: '3.0.0', content: randomBytes(512), fileName: 'stable.bin', fileType: 'DOCUMENTATION' });
    const completion = { uploadId: issued.body.data.uploadId, applicationId, version: '3.0.0', fileName: 'late.bin', fileSize: content.length };
    expect((await app.http.post('/v1/management/upload/large-complete', completion)).status).to.equal(202);
    const late = await settle(app, issued.body.data.uploadId);
    expect(late.status).to.equal('failed');
    expect(late.failureReason).to.match(/channel/);
    expect(await storageKeyOf(app, issued.body.data.fileId)).to.equal(object);
    expect((await readObject(app, object)).equals(content)).to.equal(true);
    expect(await storageKeyOf(app, published.fileId)).to.equal(object);

    // Other bytes have their own address: nothing an upload sends reaches a published file's object.
    const different = randomBytes(32 * 1024);
    const next = await uploadSmallFile(app, { applicationId, version: '1.0.0', content: different, fileName: 'next.bin', fileType: 'DOCUMENTATION' });
    expect(await storageKeyOf(app, next.fileId)).to.equal(`files/${applicationId}/sha256/${hex(different)}`);
    expect((await readObject(app, object)).equals(content)).to.equal(true);
  });

  it('keeps the object while any record points at it when uploads of the same bytes and a deletion race', async () => {
    const { applicationId } = await createApplication(app, { defaultVersionStatus: 'draft' });
    for (let round = 0; round < 6; round += 1) {
      const content = randomBytes(16 * 1024);
      const object = `files/${applicationId}/sha256/${hex(content)}`;
      const first = await uploadSmallFile(app, { applicationId, version: `1.0.${round}`, content, fileName: 'a.bin', fileType: 'DOCUMENTATION' });
      // A second and a third upload of the same bytes complete while the first file is deleted.
      const [second, , third] = await Promise.all([
        uploadSmallFile(app, { applicationId, version: `1.0.${round}`, content, fileName: 'b.bin', fileType: 'DOCUMENTATION' }),
        deleteFile(app, applicationId, `1.0.${round}`, first.fileId),
        uploadLarge(app, applicationId, `1.0.${round}`, 'c.bin', content),
      ]);
      expect(third.status, third.failureReason ?? '').to.equal('completed');
      for (const fileId of [second.fileId, third.fileId]) expect(await storageKeyOf(app, fileId)).to.equal(object);
      expect((await readObject(app, object)).equals(content), `round ${round}`).to.equal(true);
      // The two remaining files deleted at once: the object goes with the last of them.
      await Promise.all([second.fileId, third.fileId].map((fileId) => deleteFile(app, applicationId, `1.0.${round}`, fileId)));
      expect(await app.core.storage.head(object), `round ${round}`).to.equal(null);
    }
  });

  it('purges each object once however many files share it, and a draft version\'s deletion deletes shared bytes once', async () => {
    const { applicationId } = await createApplication(app);
    const content = randomBytes(8 * 1024);
    const object = `files/${applicationId}/sha256/${hex(content)}`;
    await uploadSmallFile(app, { applicationId, version: '1.0.0', content, fileName: 'a.bin', fileType: 'DOCUMENTATION' });
    await uploadSmallFile(app, { applicationId, version: '1.1.0', content, fileName: 'a.bin', fileType: 'DOCUMENTATION' });
    // A file stored before content addressing keeps its own key, and is purged with the rest.
    const legacy = randomBytes(1024);
    const legacyKey = fileStorageKey(applicationId, 'fil_legacy');
    await app.core.storage.put(legacyKey, Readable.from([legacy]));
    const now = new Date();
    await app.core.store.versions.insertFile({
      fileId: 'fil_legacy', applicationId, version: '1.1.0', fileName: 'legacy.bin', fileSize: legacy.length, contentType: 'application/octet-stream',
      checksum: `sha256:${hex(legacy)}`, fileType: 'DOCUMENTATION', platform: 'any', arch: 'any', status: 'available', storageKey: legacyKey, createdAt: now, updatedAt: now,
    });
    expect((await app.http.request('DELETE', `${APPLICATIONS}/${applicationId}`)).status).to.equal(200);
    expect((await app.http.post(`${APPLICATIONS}/${applicationId}/purge`, {})).status).to.equal(202);
    await pollUntil(async () => ((await app.core.store.versions.listVersions(applicationId)).length === 0 ? true : undefined), 30_000, 'the purge');
    expect(await app.core.storage.head(object)).to.equal(null);
    expect(await app.core.storage.head(legacyKey)).to.equal(null);

    const draft = await createApplication(app, { defaultVersionStatus: 'draft' });
    const shared = randomBytes(8 * 1024);
    await uploadSmallFile(app, { applicationId: draft.applicationId, version: '1.0.0', content: shared, fileName: 'a.bin', fileType: 'DOCUMENTATION' });
    await uploadSmallFile(app, { applicationId: draft.applicationId, version: '1.0.0', content: shared, fileName: 'b.bin', fileType: 'DOCUMENTATION' });
    expect((await app.http.request('DELETE', `${APPLICATIONS}/${draft.applicationId}/versions/1.0.0`)).status).to.equal(200);
    expect(await app.core.storage.head(`files/${draft.applicationId}/sha256/${hex(shared)}`)).to.equal(null);
  });

  it('keeps every record, audited failed, when the object store refuses to delete an object, and a later purge finishes', async function () {
    // A refusal the local store gives for real: the object's path is a directory, which it does not
    // delete. (S3's AccessDenied, under a bucket policy or Object Lock, is no failure s3rver can give.)
    if (storage === 'S3') this.skip();
    const { applicationId } = await createApplication(app);
    const held = randomBytes(4096);
    const freed = randomBytes(4096);
    await uploadSmallFile(app, { applicationId, version: '1.0.0', content: held, fileName: 'held.bin', fileType: 'DOCUMENTATION' });
    await uploadSmallFile(app, { applicationId, version: '1.0.0', content: freed, fileName: 'freed.bin', fileType: 'DOCUMENTATION' });
    const heldPath = path.join(app.config.dataDir, 'objects', 'files', applicationId, 'sha256', hex(held));
    fs.rmSync(heldPath);
    fs.mkdirSync(path.join(heldPath, 'retained'), { recursive: true });
    expect((await app.http.request('DELETE', `${APPLICATIONS}/${applicationId}`)).status).to.equal(200);
    expect((await app.http.post(`${APPLICATIONS}/${applicationId}/purge`, {})).status).to.equal(202);
    const audit = async () => (await app.http.get(`/v1/management/audit?action=application.releasesPurged&applicationId=${applicationId}`)).body.data.entries
      .map((entry: { outcome: string }) => entry.outcome);
    expect(await pollUntil(async () => ((await audit()).length === 1 ? audit() : undefined), 30_000, 'the purge\'s audit entry')).to.deep.equal(['failed']);
    // The records stay, so nothing is lost track of; what could be deleted is.
    expect((await app.core.store.versions.listVersions(applicationId)).flatMap((version) => version.files)).to.have.length(2);
    expect(await app.core.storage.head(`files/${applicationId}/sha256/${hex(freed)}`)).to.equal(null);

    fs.rmSync(heldPath, { recursive: true });
    expect((await app.http.post(`${APPLICATIONS}/${applicationId}/purge`, {})).status).to.equal(202);
    await pollUntil(async () => ((await app.core.store.versions.listVersions(applicationId)).length === 0 ? true : undefined), 30_000, 'the purge started again');
    expect((await pollUntil(async () => ((await audit()).length === 2 ? audit() : undefined), 30_000, 'the second audit entry')).sort()).to.deep.equal(['failed', 'succeeded']);
  });

  it('places a multipart upload\'s assembled bytes at their content address', async function () {
    // s3rver 3.7 cannot list parts, which completing a multipart upload checks (multipart-uploads.test.ts).
    if (storage === 'S3') this.skip();
    const { applicationId } = await createApplication(app);
    const content = randomBytes(200 * 1024);
    const earlier = await uploadSmallFile(app, { applicationId, version: '1.0.0', content, fileName: 'small.bin', fileType: 'DOCUMENTATION' });
    const multipart = await uploadMultipart(app, applicationId, '1.0.0', 'big.bin', content);
    expect([multipart.status, multipart.failureReason]).to.deep.equal(['completed', null]);
    const object = `files/${applicationId}/sha256/${hex(content)}`;
    expect([await storageKeyOf(app, earlier.fileId), await storageKeyOf(app, multipart.fileId)]).to.deep.equal([object, object]);
    expect(await app.core.storage.head(fileStorageKey(applicationId, multipart.fileId))).to.equal(null);
    expect((await readObject(app, object)).equals(content)).to.equal(true);
  });
});
