import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startDedicatedRedis } from '../support/dedicated-redis';
import { createApplication, createCustomer, sha256, smallUploadForm, SmallUpload, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { startTestApp, TestApp } from '../support/test-app';

/** Objects under the embedded store's staging directory, finished or still being written. */
function stagedObjects(app: TestApp): string[] {
  const root = path.join(app.config.dataDir, 'objects');
  const list = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  return [...list(path.join(root, 'staging')), ...list(path.join(root, '.partial'))];
}

describe('a refused upload changes nothing', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const smallUpload = (upload: SmallUpload) => app.http.request('POST', '/v1/management/upload', { body: smallUploadForm(upload) });
  const version = (applicationId: string, name: string) => app.core.store.versions.getVersion(applicationId, name);

  async function issue(body: Record<string, unknown>) {
    return app.http.post('/v1/management/upload/large-url', { fileName: 'big.iso', fileSize: 1000, ...body });
  }

  async function put(url: string, content: Buffer) {
    const response = await app.http.request('PUT', url, { key: null, body: content, headers: { 'content-type': 'application/octet-stream' } });
    expect(response.status).to.equal(200);
  }

  /** Issues, sends and completes a large upload; resolves with the final session. */
  async function largeUpload(body: Record<string, unknown>, completion: Record<string, unknown> = {}) {
    const content = randomBytes(1000);
    const issued = await issue(body);
    expect(issued.status, JSON.stringify(issued.body)).to.equal(201);
    const { uploadId, uploadUrl } = issued.body.data;
    await put(uploadUrl, content);
    const done = await app.http.post('/v1/management/upload/large-complete', {
      uploadId, applicationId: body.applicationId, version: body.version, fileName: 'big.iso', fileSize: 1000, ...completion,
    });
    expect(done.status, JSON.stringify(done.body)).to.equal(202);
    return pollUntil(async () => {
      const res = await app.http.get(`/v1/management/uploads/${uploadId}`);
      return ['completed', 'failed'].includes(res.body.data.status) ? res.body.data : undefined;
    }, 30_000, 'verification');
  }

  /** An application whose version 1 holds a MAIN file and a dependency, with notes and a tier of its own. */
  async function publishedVersion() {
    const { applicationId } = await createApplication(app);
    await uploadSmallFile(app, { applicationId, version: '1', fileName: 'app.exe', releaseNotes: 'Original', requiredTier: 'standard' });
    await uploadSmallFile(app, { applicationId, version: '1', fileName: 'lib.dll', fileType: 'DEPENDENCY' });
    const before = await version(applicationId, '1');
    expect(before).to.include({ releaseNotes: 'Original', requiredTier: 'standard' });
    return { applicationId, before };
  }

  describe('small upload', () => {
    it('a second MAIN file, a taken name or a bad field leaves the version exactly as it was', async () => {
      const { applicationId, before } = await publishedVersion();
      const staged = stagedObjects(app);
      const refused = { applicationId, version: '1', releaseNotes: 'Refused', requiredTier: 'enterprise' };
      const secondMain = await smallUpload({ ...refused, fileName: 'other.exe' });
      expect(secondMain.status).to.equal(409);
      const takenName = await smallUpload({ ...refused, fileName: 'lib.dll', fileType: 'DEPENDENCY' });
      expect(takenName.status).to.equal(409);
      const badField = await smallUpload({ ...refused, fileName: 'x.bin', fileType: 'BINARY' });
      expect(badField.status).to.equal(400);
      expect(await version(applicationId, '1')).to.deep.equal(before);
      expect(stagedObjects(app)).to.deep.equal(staged);
    });

    it('naming another channel or status than its version has, or a bad release field, leaves the version exactly as it was', async () => {
      const { applicationId, before } = await publishedVersion();
      const staged = stagedObjects(app);
      const refused = { applicationId, version: '1', fileName: 'mac.dmg', platform: 'macos', arch: 'arm64', releaseNotes: 'Refused', requiredTier: 'enterprise' };
      for (const releaseFieldsAfterFile of [false, true]) {
        for (const named of [{ channel: 'beta' }, { status: 'draft' }, { channel: 'stable', status: 'draft' }]) {
          const answer = await smallUpload({ ...refused, ...named, releaseFieldsAfterFile });
          expect(answer.status, JSON.stringify(named)).to.equal(409);
          expect(answer.body.error.message).to.contain('never changes the channel or status');
        }
        for (const bad of [{ platform: 'solaris' }, { arch: 'universal', platform: 'linux' }, { channel: 'nightly' }, { status: 'yanked' }]) {
          expect((await smallUpload({ ...refused, ...bad, releaseFieldsAfterFile })).status, JSON.stringify(bad)).to.equal(400);
        }
      }
      expect(await version(applicationId, '1')).to.deep.equal(before);
      expect(stagedObjects(app)).to.deep.equal(staged);
      // Nothing was reserved: the same file for the same target goes in once it names what the version is.
      expect((await smallUpload({ ...refused, channel: 'stable', status: 'published' })).status).to.equal(201);
    });

    it('creates no version when refused', async () => {
      const { applicationId } = await createApplication(app);
      // A large upload still pending holds the MAIN slot of version 2, which no file has published yet.
      expect((await issue({ applicationId, version: '2' })).status).to.equal(201);
      expect((await smallUpload({ applicationId, version: '2', releaseNotes: 'Refused' })).status).to.equal(409);
      expect((await smallUpload({ applicationId, version: '3', fileType: 'BINARY', releaseNotes: 'Refused' })).status).to.equal(400);
      expect(await version(applicationId, '2')).to.equal(null);
      expect(await version(applicationId, '3')).to.equal(null);
    });

    it('of 20 uploads racing for one MAIN slot, the version ends with the winner\'s fields', async () => {
      const { applicationId } = await createApplication(app);
      const tiers = ['free', 'standard', 'premium', 'enterprise'];
      const racers = Array.from({ length: 20 }, (_, i) => ({ fileName: `racer-${i}.exe`, releaseNotes: `racer ${i}`, requiredTier: tiers[i % tiers.length] }));
      const answers = await Promise.all(racers.map((racer) => smallUpload({ applicationId, version: '1', ...racer })));
      const winners = answers.flatMap((answer, i) => (answer.status === 201 ? [racers[i]] : []));
      expect(winners).to.have.length(1);
      expect(answers.filter((answer) => answer.status === 409)).to.have.length(19);
      expect(await version(applicationId, '1')).to.include({ releaseNotes: winners[0].releaseNotes, requiredTier: winners[0].requiredTier });
    });
  });

  describe('large upload', () => {
    it('large-url refused for a taken MAIN slot or name leaves the version exactly as it was', async () => {
      const { applicationId, before } = await publishedVersion();
      const refused = { applicationId, version: '1', releaseNotes: 'Refused', requiredTier: 'enterprise' };
      expect((await issue({ ...refused, fileName: 'other.iso' })).status).to.equal(409);
      expect((await issue({ ...refused, fileName: 'lib.dll', fileType: 'DEPENDENCY' })).status).to.equal(409);
      expect((await issue({ ...refused, fileSize: 0 })).status).to.equal(400);
      expect(await version(applicationId, '1')).to.deep.equal(before);
    });

    it('large-url naming another channel or status than its version has refuses, reserving nothing', async () => {
      const { applicationId, before } = await publishedVersion();
      const refused = { applicationId, version: '1', fileName: 'linux.AppImage', platform: 'linux', arch: 'x64', releaseNotes: 'Refused', requiredTier: 'enterprise' };
      for (const named of [{ channel: 'rc' }, { status: 'draft' }]) {
        const answer = await issue({ ...refused, ...named });
        expect(answer.status, JSON.stringify(named)).to.equal(409);
      }
      expect((await issue({ ...refused, arch: 'universal' })).status).to.equal(400);
      expect(await version(applicationId, '1')).to.deep.equal(before);
      expect((await issue({ ...refused, channel: 'stable' })).status).to.equal(201);
    });

    it('a version that changes while its upload is verified fails the upload, and the version keeps what it had', async () => {
      const { applicationId } = await createApplication(app);
      const issued = await issue({ applicationId, version: '2', fileName: 'beta.iso', fileType: 'OTHER', channel: 'beta', status: 'draft', releaseNotes: 'Refused' });
      expect(issued.status).to.equal(201);
      // Meanwhile another upload creates the version, published in the first channel.
      await uploadSmallFile(app, { applicationId, version: '2', fileName: 'stable.exe', releaseNotes: 'Stable' });
      const before = await version(applicationId, '2');
      const { uploadId, uploadUrl } = issued.body.data;
      await put(uploadUrl, randomBytes(1000));
      expect((await app.http.post('/v1/management/upload/large-complete', { uploadId, applicationId, version: '2', fileName: 'beta.iso', fileSize: 1000 })).status).to.equal(202);
      const failed = await pollUntil(async () => {
        const res = await app.http.get(`/v1/management/uploads/${uploadId}`);
        return ['completed', 'failed'].includes(res.body.data.status) ? res.body.data : undefined;
      }, 30_000, 'verification');
      expect(failed.status).to.equal('failed');
      expect(failed.failureReason).to.contain('version 2 is in channel stable, not beta, and in status published, not draft');
      expect(await version(applicationId, '2')).to.deep.equal(before);
      // Its file released its name.
      await uploadSmallFile(app, { applicationId, version: '2', fileName: 'beta.iso', fileType: 'OTHER' });
    });

    it('large-url changes no version until verification publishes the file with its fields', async () => {
      const { applicationId, before } = await publishedVersion();
      const issued = await issue({ applicationId, version: '1', fileName: 'pending.iso', fileType: 'OTHER', releaseNotes: 'Pending', requiredTier: 'premium' });
      expect(issued.status).to.equal(201);
      expect(await version(applicationId, '1')).to.deep.equal(before);
      const { applicationId: fresh } = await createApplication(app);
      expect((await issue({ applicationId: fresh, version: '1' })).status).to.equal(201);
      expect(await version(fresh, '1')).to.equal(null);

      const completed = await largeUpload({ applicationId, version: '1', fileName: 'big.iso', fileType: 'SIGNATURE', releaseNotes: 'Large', requiredTier: 'premium' });
      expect(completed.status).to.equal('completed');
      const after = await version(applicationId, '1');
      expect(after).to.include({ releaseNotes: 'Large', requiredTier: 'premium' });
      expect(after?.createdAt).to.deep.equal(before?.createdAt);
    });

    it('a large upload that fails verification leaves the version exactly as it was, large-complete notes included', async () => {
      const { applicationId, before } = await publishedVersion();
      const failed = await largeUpload(
        { applicationId, version: '1', fileType: 'OTHER', releaseNotes: 'Refused', requiredTier: 'enterprise' },
        { checksum: 'ab'.repeat(32), releaseNotes: 'Refused at completion' },
      );
      expect(failed.status).to.equal('failed');
      expect(await version(applicationId, '1')).to.deep.equal(before);

      const { applicationId: fresh } = await createApplication(app);
      expect((await largeUpload({ applicationId: fresh, version: '1' }, { checksum: 'ab'.repeat(32) })).status).to.equal('failed');
      expect(await version(fresh, '1')).to.equal(null);
    });

    it('large-complete refused (no bytes yet) changes nothing; its notes land with the file', async () => {
      const { applicationId, before } = await publishedVersion();
      const issued = await issue({ applicationId, version: '1', fileType: 'OTHER', releaseNotes: 'From large-url' });
      const { uploadId, uploadUrl } = issued.body.data;
      const completion = { uploadId, applicationId, version: '1', fileName: 'big.iso', fileSize: 1000, releaseNotes: 'From large-complete' };
      expect((await app.http.post('/v1/management/upload/large-complete', completion)).status).to.equal(409);
      expect(await version(applicationId, '1')).to.deep.equal(before);

      await put(uploadUrl, randomBytes(1000));
      expect((await app.http.post('/v1/management/upload/large-complete', completion)).status).to.equal(202);
      await pollUntil(async () => ((await app.http.get(`/v1/management/uploads/${uploadId}`)).body.data.status === 'completed' ? true : undefined), 10_000, 'verification');
      expect(await version(applicationId, '1')).to.include({ releaseNotes: 'From large-complete', requiredTier: 'standard' });
    });

    it('a tier raised by a verified upload holds on the next download of the version\'s other files', async () => {
      const customer = await createCustomer(app, { tier: 'standard' });
      const { applicationId } = await createApplication(app, { customerIds: [customer.customerId] });
      const content = randomBytes(2000);
      await uploadSmallFile(app, { applicationId, version: '1', content, requiredTier: 'standard' });
      const download = () => app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=1`, { key: customer.apiKey });
      const allowed = await download();
      expect(allowed.status).to.equal(200);
      expect(allowed.body.data.checksum).to.equal(`sha256:${sha256(content)}`);

      const completed = await largeUpload({ applicationId, version: '1', fileType: 'OTHER', requiredTier: 'enterprise' });
      expect(completed.status).to.equal('completed');
      expect((await download()).status).to.equal(403);
    });
  });

  it('a small upload that cannot reach every gateway is refused with 503, and nothing is written', async () => {
    const redis = await startDedicatedRedis();
    const isolated = await startTestApp({ workers: false, env: { REDIS_URL: redis.url } });
    try {
      const { applicationId } = await createApplication(isolated);
      await uploadSmallFile(isolated, { applicationId, version: '1', fileName: 'lib.dll', fileType: 'DEPENDENCY', releaseNotes: 'Original' });
      const versionsBefore = await isolated.core.store.versions.listVersions(applicationId);
      const eventsBefore = await isolated.core.store.activity.listEvents({ applicationId, limit: 100 });
      await redis.stop();
      const refused = await isolated.http.request('POST', '/v1/management/upload', {
        body: smallUploadForm({ applicationId, version: '1', releaseNotes: 'Refused', requiredTier: 'enterprise' }),
      });
      expect(refused.status).to.equal(503);
      const refusedNew = await isolated.http.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '2' }) });
      expect(refusedNew.status).to.equal(503);
      expect(await isolated.core.store.versions.listVersions(applicationId)).to.deep.equal(versionsBefore);
      expect(await isolated.core.store.activity.listEvents({ applicationId, limit: 100 })).to.deep.equal(eventsBefore);
      expect(stagedObjects(isolated)).to.deep.equal([]);
    } finally {
      await isolated.close();
      await redis.dispose();
    }
  });
});
