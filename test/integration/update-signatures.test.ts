import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApplication, createCustomer, smallUploadForm, SmallUpload, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { createBucket } from '../support/s3-bucket';
import { s3Environment, S3rverProcess, startS3rver } from '../support/s3rver';
import { generateTauriKey, tauriSign, TauriSigningKey } from '../support/tauri-signer';
import { startTestApp, TestApp } from '../support/test-app';

// Signatures are checked against the MAIN file's bytes as each object store reads them.
for (const storage of ['embedded store', 'S3'] as const) describe(`update-signing keys and signature uploads (${storage})`, function () {
  this.timeout(60_000);
  let app: TestApp;
  let s3: S3rverProcess | undefined;
  let directory: string;
  let key: TauriSigningKey;
  let otherKey: TauriSigningKey;

  before(async () => {
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-signatures-'));
    if (storage === 'S3') s3 = await startS3rver();
    const env = s3 ? s3Environment(s3, 'update-signatures') : {};
    [app, key, otherKey] = await Promise.all([startTestApp({ env }), generateTauriKey(directory, 'vendor'), generateTauriKey(directory, 'other')]);
    if (app.config.s3) await createBucket(app.config.s3);
  });
  after(async () => {
    await app?.close();
    await s3?.stop();
    await fsp.rm(directory, { recursive: true, force: true });
  });

  /** A build and its `.sig` file as `tauri signer sign` writes it with `signingKey`. */
  async function signedBuild(signingKey: TauriSigningKey, size = 50_000): Promise<{ bytes: Buffer; signature: string }> {
    const bytes = randomBytes(size);
    const file = path.join(directory, `build-${randomBytes(4).toString('hex')}.tar.gz`);
    await fsp.writeFile(file, bytes);
    return { bytes, signature: await tauriSign(signingKey, file) };
  }

  const upload = (fields: SmallUpload) => app.http.request('POST', '/v1/management/upload', { body: smallUploadForm(fields) });

  describe('the application key', () => {
    it('is taken at creation as `tauri signer generate` prints it, and shown in that form', async () => {
      const created = await app.http.post('/v1/management/applications', { applicationId: 'signed-app', name: 'Signed', updateSigningKey: key.publicKey, defaultVersionStatus: 'published' });
      expect(created.status).to.equal(201);
      expect(created.body.data.updateSigningKey).to.equal(key.publicKey);
      expect((await app.http.get('/v1/management/applications/signed-app')).body.data.updateSigningKey).to.equal(key.publicKey);
    });

    it('is null by default, set from the .pub text by PATCH (kept in the printed form), and removed with null', async () => {
      const { applicationId } = await createApplication(app);
      expect((await app.http.get(`/v1/management/applications/${applicationId}`)).body.data.updateSigningKey).to.equal(null);
      const text = Buffer.from(key.publicKey, 'base64').toString('utf8');
      const set = await app.http.patch(`/v1/management/applications/${applicationId}`, { updateSigningKey: text });
      expect(set.status).to.equal(200);
      expect(set.body.data.updateSigningKey).to.equal(key.publicKey);
      const cleared = await app.http.patch(`/v1/management/applications/${applicationId}`, { updateSigningKey: null });
      expect(cleared.body.data.updateSigningKey).to.equal(null);
    });

    it('refuses what is not a minisign public key, changing nothing', async () => {
      const { applicationId } = await createApplication(app, { updateSigningKey: key.publicKey });
      for (const updateSigningKey of ['', 'not a key', key.publicKey.slice(0, -8), 42, 'x'.repeat(2000)]) {
        const res = await app.http.patch(`/v1/management/applications/${applicationId}`, { updateSigningKey });
        expect(res.status, String(updateSigningKey)).to.equal(400);
        expect(res.body.error.details[0].field).to.equal('updateSigningKey');
      }
      const created = await app.http.post('/v1/management/applications', { applicationId: 'bad-key-app', name: 'x', updateSigningKey: 'nope' });
      expect(created.status).to.equal(400);
      expect((await app.http.get('/v1/management/applications/bad-key-app')).status).to.equal(404);
      expect((await app.http.get(`/v1/management/applications/${applicationId}`)).body.data.updateSigningKey).to.equal(key.publicKey);
    });
  });

  describe('small uploads', () => {
    it("publishes a signature made with the application's key over the version's MAIN file", async () => {
      const { applicationId } = await createApplication(app, { updateSigningKey: key.publicKey });
      const build = await signedBuild(key);
      await uploadSmallFile(app, { applicationId, version: '1.0.0', content: build.bytes, fileName: 'app.tar.gz' });
      const res = await upload({ applicationId, version: '1.0.0', content: Buffer.from(build.signature), fileName: 'app.tar.gz.sig', fileType: 'SIGNATURE' });
      expect(res.status, String(res.raw)).to.equal(201);
    });

    it('refuses a signature over other bytes, by another key, or that is no signature, storing nothing', async () => {
      const { applicationId } = await createApplication(app, { updateSigningKey: key.publicKey });
      const build = await signedBuild(key);
      const tampered = Buffer.from(build.bytes);
      tampered[1234] ^= 0xff;
      await uploadSmallFile(app, { applicationId, version: '1.0.0', content: tampered, fileName: 'app.tar.gz' });
      const foreign = await signedBuild(otherKey);
      const cases: [Buffer, RegExp][] = [
        [Buffer.from(build.signature), /does not verify against app\.tar\.gz: the signature does not match the file's bytes/],
        [Buffer.from(foreign.signature), /made with key [0-9A-F]{16}, not with the application's update-signing key/],
        [Buffer.from('hello'), /not a minisign signature/],
        [randomBytes(20_000), /not a minisign signature/],
      ];
      for (const [content, reason] of cases) {
        const res = await upload({ applicationId, version: '1.0.0', content, fileName: 'app.tar.gz.sig', fileType: 'SIGNATURE' });
        expect(res.status).to.equal(400);
        expect(res.body.error.details[0].field).to.equal('file');
        expect(res.body.error.details[0].message).to.match(reason);
      }
      const versions = (await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions;
      expect(versions[0].files.map((f: { fileName: string }) => f.fileName)).to.deep.equal(['app.tar.gz']);
    });

    it('refuses a signature before its MAIN file is published, and takes any signature for an application without a key', async () => {
      const signed = await createApplication(app, { updateSigningKey: key.publicKey });
      const build = await signedBuild(key);
      const early = await upload({ applicationId: signed.applicationId, version: '2.0.0', content: Buffer.from(build.signature), fileName: 'a.sig', fileType: 'SIGNATURE' });
      expect(early.status).to.equal(400);
      expect(early.body.error.details[0].message).to.match(/no available MAIN file for platform any and arch any; publish that first/);

      const unsigned = await createApplication(app);
      await uploadSmallFile(app, { applicationId: unsigned.applicationId, version: '2.0.0', content: Buffer.from('anything'), fileName: 'a.sig', fileType: 'SIGNATURE' });
    });
  });

  describe('a change of the application key', () => {
    interface PresentedFile { fileId: string; fileName: string; version: string; fileType: string; signatureProblem: string | null }
    const signatureFiles = async (applicationId: string) => {
      const res = await app.http.get(`/v1/management/applications/${applicationId}`);
      return (res.body.data.versions as { files: PresentedFile[] }[]).flatMap((v) => v.files).filter((f) => f.fileType === 'SIGNATURE');
    };
    /** The signature files' problems by version, once every one of them is as `settled` says (the worker's job ran). */
    const problemsWhen = (applicationId: string, settled: (problems: Record<string, string | null>) => boolean) =>
      pollUntil(async () => {
        const problems = Object.fromEntries((await signatureFiles(applicationId)).map((f) => [f.version, f.signatureProblem]));
        return settled(problems) ? problems : undefined;
      }, 20_000, 'the signatures checked again');
    const tauriCheck = async (applicationId: string, apiKey: string, current: string) => {
      const res = await fetch(`${app.baseUrl}/v1/updates/${applicationId}/tauri/linux/x86_64/${current}`, { headers: { authorization: `Bearer ${apiKey}` } });
      return res.status === 200 ? ((await res.json()) as { version: string }).version : res.status;
    };
    const publishSigned = async (applicationId: string, version: string, signingKey: TauriSigningKey) => {
      const build = await signedBuild(signingKey);
      await uploadSmallFile(app, { applicationId, version, content: build.bytes, fileName: 'app.tar.gz', platform: 'linux', arch: 'x64' });
      await uploadSmallFile(app, { applicationId, version, content: Buffer.from(build.signature), fileName: 'app.tar.gz.sig', fileType: 'SIGNATURE', platform: 'linux', arch: 'x64' });
    };

    it('keeps signatures under a replaced key verifying, offers each install only releases signed under the key it trusts, also after the key is set back or removed', async () => {
      const customer = await createCustomer(app);
      const { applicationId } = await createApplication(app, { updateSigningKey: key.publicKey, customerIds: [customer.customerId] });
      await publishSigned(applicationId, '1.0.0', key);
      await publishSigned(applicationId, '1.1.0', key);
      expect(await tauriCheck(applicationId, customer.apiKey, '1.0.0')).to.equal('1.1.0');
      expect((await signatureFiles(applicationId)).map((f) => f.signatureProblem)).to.deep.equal([null, null]);

      // The key changes: the first is retired, and signatures under it still verify (the recheck finds nothing to change).
      expect((await app.http.patch(`/v1/management/applications/${applicationId}`, { updateSigningKey: otherKey.publicKey })).status).to.equal(200);
      expect(await problemsWhen(applicationId, (problems) => problems['1.0.0'] === null && problems['1.1.0'] === null)).to.deep.equal({ '1.0.0': null, '1.1.0': null });
      expect(await tauriCheck(applicationId, customer.apiKey, '1.0.0')).to.equal('1.1.0');

      // A release signed with the new key only: installs built with the first key are never offered it.
      await publishSigned(applicationId, '1.2.0', otherKey);
      expect(await tauriCheck(applicationId, customer.apiKey, '1.0.0')).to.equal('1.1.0');
      expect(await tauriCheck(applicationId, customer.apiKey, '1.1.0')).to.equal(204);

      // Back to the first key: the other is retired; installs of the first are still not offered 1.2.0.
      expect((await app.http.patch(`/v1/management/applications/${applicationId}`, { updateSigningKey: key.publicKey })).status).to.equal(200);
      expect((await problemsWhen(applicationId, (problems) => problems['1.2.0'] === null))['1.2.0']).to.equal(null);
      expect(await tauriCheck(applicationId, customer.apiKey, '1.0.0')).to.equal('1.1.0');

      // No key: nothing is checked, every signature is offered; an install still trusts the key it was built with.
      expect((await app.http.patch(`/v1/management/applications/${applicationId}`, { updateSigningKey: null })).status).to.equal(200);
      await problemsWhen(applicationId, (problems) => Object.values(problems).every((problem) => problem === null));
      expect(await tauriCheck(applicationId, customer.apiKey, '1.0.0')).to.equal('1.1.0');
    });
  });

  describe('large uploads', () => {
    async function largeUpload(applicationId: string, fileName: string, content: Buffer, fileType: string) {
      const issued = await app.http.post('/v1/management/upload/large-url', { applicationId, version: '3.0.0', fileName, fileSize: content.length, fileType });
      expect(issued.status).to.equal(201);
      const put = await fetch(issued.body.data.uploadUrl, { method: 'PUT', body: content });
      expect(put.status).to.equal(200);
      const done = await app.http.post('/v1/management/upload/large-complete', {
        uploadId: issued.body.data.uploadId, applicationId, version: '3.0.0', fileName, fileSize: content.length,
      });
      expect(done.status).to.equal(202);
      return pollUntil(async () => {
        const res = await app.http.get(`/v1/management/uploads/${issued.body.data.uploadId}`);
        return ['completed', 'failed'].includes(res.body.data.status) ? res.body.data : undefined;
      }, 30_000, 'verification');
    }

    it('publishes a good signature and fails a bad one with the reason in its status', async () => {
      const { applicationId } = await createApplication(app, { updateSigningKey: key.publicKey });
      const build = await signedBuild(key, 200_000);
      expect((await largeUpload(applicationId, 'app.tar.gz', build.bytes, 'MAIN')).status).to.equal('completed');
      const foreign = await signedBuild(otherKey);
      const failed = await largeUpload(applicationId, 'app.tar.gz.sig', Buffer.from(foreign.signature), 'SIGNATURE');
      expect(failed.status).to.equal('failed');
      expect(failed.failureReason).to.match(/does not verify against app\.tar\.gz: the signature was made with key/);
      const good = await largeUpload(applicationId, 'app.tar.gz.sig', Buffer.from(build.signature), 'SIGNATURE');
      expect(good.status).to.equal('completed');
    });
  });
});
