import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { createApplication, smallUploadForm, SmallUpload, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { startTestApp, TestApp } from '../support/test-app';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

/** Uploads that say where their file runs (platform, arch) and what their version is (channel, status), with both digests. */
describe('uploads with platforms, architectures, channels and draft versions', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { CHANNELS: 'stable,beta,nightly' } });
  });
  after(() => app.close());

  const smallUpload = (upload: SmallUpload) => app.http.request('POST', '/v1/management/upload', { body: smallUploadForm(upload) });
  const version = (applicationId: string, name: string) => app.core.store.versions.getVersion(applicationId, name);

  /** Issues, sends and completes a large upload of `content`; resolves with the settled upload status. */
  async function largeUpload(fields: Record<string, unknown>, content = randomBytes(5000)) {
    const issued = await app.http.post('/v1/management/upload/large-url', { fileName: 'big.bin', fileSize: content.length, ...fields });
    expect(issued.status, issued.raw.toString()).to.equal(201);
    const { uploadId, uploadUrl } = issued.body.data;
    const put = await fetch(uploadUrl, { method: 'PUT', body: content, headers: { 'content-type': 'application/octet-stream' } });
    await put.arrayBuffer();
    expect(put.status).to.equal(200);
    const completion = { uploadId, applicationId: fields.applicationId, version: fields.version, fileName: fields.fileName ?? 'big.bin', fileSize: content.length };
    const verifying = await app.http.post('/v1/management/upload/large-complete', completion);
    expect(verifying.status, verifying.raw.toString()).to.equal(202);
    return pollUntil(async () => {
      const upload = (await app.http.get(`/v1/management/uploads/${uploadId}`)).body.data;
      return ['completed', 'failed'].includes(upload.status) ? upload : undefined;
    }, 30_000, 'the verification');
  }

  describe("the application's defaultVersionStatus", () => {
    it('is published for a new application unless it names draft, is validated, and can be changed', async () => {
      const created = await app.http.post('/v1/management/applications', { applicationId: `publishing-${randomBytes(3).toString('hex')}`, name: 'Publishing' });
      expect(created.status, created.raw.toString()).to.equal(201);
      expect(created.body.data).to.include({ defaultVersionStatus: 'published' });
      const drafts = await app.http.post('/v1/management/applications', { applicationId: `drafts-${randomBytes(3).toString('hex')}`, name: 'Drafts', defaultVersionStatus: 'draft' });
      expect(drafts.status, drafts.raw.toString()).to.equal(201);
      expect(drafts.body.data).to.include({ defaultVersionStatus: 'draft' });
      const { applicationId } = drafts.body.data;
      for (const value of ['yanked', 'Published', '', null, 1]) {
        const refused = await app.http.patch(`/v1/management/applications/${applicationId}`, { defaultVersionStatus: value });
        expect(refused.status, String(value)).to.equal(400);
        expect(refused.body.error.details.map((d: { field: string }) => d.field)).to.deep.equal(['defaultVersionStatus']);
      }
      const refusedAtCreation = await app.http.post('/v1/management/applications', { applicationId: 'never-made', name: 'x', defaultVersionStatus: 'yanked' });
      expect(refusedAtCreation.status).to.equal(400);
      const changed = await app.http.patch(`/v1/management/applications/${applicationId}`, { defaultVersionStatus: 'published' });
      expect(changed.status).to.equal(200);
      expect(changed.body.data).to.include({ defaultVersionStatus: 'published' });
      expect((await app.http.get(`/v1/management/applications/${applicationId}`)).body.data).to.include({ defaultVersionStatus: 'published' });
    });

    it('is the status of the version a small or large upload naming none creates; a named status wins, and an existing version takes either', async () => {
      const { applicationId } = await createApplication(app, { defaultVersionStatus: 'draft' });
      const small = await smallUpload({ applicationId, version: '1.0.0' });
      expect(small.status, small.raw.toString()).to.equal(201);
      expect(small.body.data).to.include({ versionStatus: 'draft' });
      expect(await version(applicationId, '1.0.0')).to.include({ status: 'draft', publishedAt: null });

      const large = await largeUpload({ applicationId, version: '2.0.0' });
      expect(large).to.include({ status: 'completed', versionStatus: null });
      expect(large.file).to.include({ versionStatus: 'draft' });

      const named = await smallUpload({ applicationId, version: '3.0.0', status: 'published' });
      expect(named.body.data).to.include({ versionStatus: 'published' });
      // Adding a file to the published version without naming a status is not a mismatch with the draft default.
      const added = await smallUpload({ applicationId, version: '3.0.0', fileName: 'notes.txt', fileType: 'DOCUMENTATION' });
      expect(added.status, added.raw.toString()).to.equal(201);
      expect(added.body.data).to.include({ versionStatus: 'published' });
    });
  });

  it('a small upload naming nothing is published in the first channel, for any platform and arch, with both digests', async () => {
    const { applicationId } = await createApplication(app);
    const content = randomBytes(70_000);
    const res = await smallUpload({ applicationId, version: '1.0.0', content });
    expect(res.status, res.raw.toString()).to.equal(201);
    expect(res.body.data).to.include({
      checksum: `sha256:${sha256(content)}`, sha512: sha512(content), platform: 'any', arch: 'any', channel: 'stable', versionStatus: 'published',
    });
    expect(await version(applicationId, '1.0.0')).to.include({ channel: 'stable', status: 'published' });
  });

  it('a small upload creates its version in the channel and status it names, its file for its platform and arch', async () => {
    const { applicationId } = await createApplication(app);
    const content = randomBytes(2048);
    const res = await smallUpload({ applicationId, version: '2.0.0-beta.1', content, fileName: 'App.dmg', platform: 'macos', arch: 'universal', channel: 'beta', status: 'draft' });
    expect(res.status, res.raw.toString()).to.equal(201);
    expect(res.body.data).to.include({ platform: 'macos', arch: 'universal', channel: 'beta', versionStatus: 'draft', sha512: sha512(content) });
    const stored = await version(applicationId, '2.0.0-beta.1');
    expect(stored).to.include({ channel: 'beta', status: 'draft', publishedAt: null });
    expect(await app.core.store.versions.getFile(res.body.data.fileId)).to.include({ platform: 'macos', arch: 'universal', sha512: sha512(content) });
    // Fields after the file part are read too.
    const later = await smallUpload({ applicationId, version: '2.0.0-beta.1', fileName: 'App.exe', platform: 'windows', arch: 'x64', channel: 'beta', status: 'draft', releaseFieldsAfterFile: true });
    expect(later.status, later.raw.toString()).to.equal(201);
    expect(later.body.data).to.include({ platform: 'windows', arch: 'x64', channel: 'beta', versionStatus: 'draft' });
  });

  it('a version holds one MAIN file per platform and arch; file names stay unique in it', async () => {
    const { applicationId } = await createApplication(app);
    const targets = [['windows', 'x64'], ['windows', 'arm64'], ['macos', 'universal'], ['linux', 'arm64'], ['any', 'any']];
    for (const [platform, arch] of targets) {
      const res = await smallUpload({ applicationId, version: '3.0.0', fileName: `app-${platform}-${arch}`, platform, arch });
      expect(res.status, `${platform} ${arch}: ${res.raw}`).to.equal(201);
    }
    const again = await smallUpload({ applicationId, version: '3.0.0', fileName: 'app-again.exe', platform: 'windows', arch: 'x64' });
    expect(again.status).to.equal(409);
    expect(again.body.error.message).to.contain('platform windows and arch x64');
    const sameName = await smallUpload({ applicationId, version: '3.0.0', fileName: 'app-windows-x64', platform: 'linux', arch: 'x64' });
    expect(sameName.status).to.equal(409);
    expect(sameName.body.error.message).to.contain('named app-windows-x64');
    const large = await app.http.post('/v1/management/upload/large-url', { applicationId, version: '3.0.0', fileName: 'big.iso', fileSize: 10, platform: 'linux', arch: 'arm64' });
    expect(large.status).to.equal(409);
    const listed = (await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions[0].files;
    expect(listed.map((f: { platform: string; arch: string }) => [f.platform, f.arch])).to.deep.equal(targets);
  });

  it('refuses an unknown platform, arch, channel or status, and a universal build that is not for macOS, with 400', async () => {
    const { applicationId } = await createApplication(app);
    const cases: [Partial<SmallUpload>, string][] = [
      [{ platform: 'win32' }, 'platform'],
      [{ arch: 'x86_64' }, 'arch'],
      [{ channel: 'rc' }, 'channel'],
      [{ channel: 'Stable' }, 'channel'],
      [{ status: 'yanked' }, 'status'],
      [{ status: 'PUBLISHED' }, 'status'],
      [{ platform: 'windows', arch: 'universal' }, 'arch'],
      [{ arch: 'universal' }, 'arch'],
    ];
    for (const [fields, field] of cases) {
      for (const releaseFieldsAfterFile of [false, true]) {
        const res = await smallUpload({ applicationId, version: '1', ...fields, releaseFieldsAfterFile });
        expect(res.status, JSON.stringify(fields)).to.equal(400);
        expect(res.body.error.details.map((d: { field: string }) => d.field), JSON.stringify(fields)).to.include(field);
      }
      const large = await app.http.post('/v1/management/upload/large-url', { applicationId, version: '1', fileName: 'a.bin', fileSize: 10, ...fields });
      expect(large.status, JSON.stringify(fields)).to.equal(400);
      expect(large.body.error.details.map((d: { field: string }) => d.field), JSON.stringify(fields)).to.include(field);
    }
    expect(await version(applicationId, '1')).to.equal(null);
  });

  it('a large upload carries its fields to verification, which computes both digests', async () => {
    const { applicationId } = await createApplication(app);
    const content = randomBytes(3 * 1024 * 1024 + 17);
    const fields = { applicationId, version: '4.0.0', fileName: 'app-arm64.AppImage', platform: 'linux', arch: 'arm64', channel: 'nightly', status: 'draft', releaseNotes: 'Nightly' };
    const issued = await app.http.post('/v1/management/upload/large-url', { ...fields, fileSize: content.length });
    expect(issued.status).to.equal(201);
    const status = (await app.http.get(`/v1/management/uploads/${issued.body.data.uploadId}`)).body.data;
    expect(status).to.include({ platform: 'linux', arch: 'arm64', channel: 'nightly', versionStatus: 'draft', file: null });
    expect(await version(applicationId, '4.0.0')).to.equal(null);

    const completed = await largeUpload({ ...fields, version: '4.0.1' }, content);
    expect(completed.status).to.equal('completed');
    expect(completed.file).to.include({
      platform: 'linux', arch: 'arm64', channel: 'nightly', versionStatus: 'draft', releaseNotes: 'Nightly',
      checksum: `sha256:${sha256(content)}`, sha512: sha512(content),
    });
    expect(await version(applicationId, '4.0.1')).to.include({ channel: 'nightly', status: 'draft', releaseNotes: 'Nightly' });
  });

  it('a large upload naming nothing behaves as before: the first channel, published, any platform and arch', async () => {
    const { applicationId } = await createApplication(app);
    const completed = await largeUpload({ applicationId, version: '5.0.0' });
    expect(completed).to.include({ platform: 'any', arch: 'any', channel: null, versionStatus: null });
    expect(completed.file).to.include({ platform: 'any', arch: 'any', channel: 'stable', versionStatus: 'published' });
    expect(completed.file.sha512).to.be.a('string');
  });

  it('adds files to an existing version whatever its channel and status when the upload names neither', async () => {
    const { applicationId } = await createApplication(app);
    await uploadSmallFile(app, { applicationId, version: '6.0.0', channel: 'beta', status: 'draft' });
    const res = await smallUpload({ applicationId, version: '6.0.0', fileName: 'notes.txt', fileType: 'DOCUMENTATION' });
    expect(res.status, res.raw.toString()).to.equal(201);
    expect(res.body.data).to.include({ channel: 'beta', versionStatus: 'draft' });
    expect((await largeUpload({ applicationId, version: '6.0.0', fileType: 'OTHER' })).status).to.equal('completed');
    expect(await version(applicationId, '6.0.0')).to.include({ channel: 'beta', status: 'draft' });
  });
});
