import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import { Readable } from 'node:stream';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { createApplication, sha256, smallUploadForm, uploadSmallFile, storageKeyOf } from '../support/factories';
import { pollUntil } from '../support/poll';
import { statusForHeadersOnly } from '../support/headers-only';
import { startTestApp, TestApp } from '../support/test-app';

const MB10 = 10 * 1024 * 1024;

/** Every file under the embedded object store, skipping its temporary directory. */
function storedObjects(app: TestApp): string[] {
  const root = path.join(app.config.dataDir, 'objects');
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : [path.relative(root, path.join(dir, e.name))]);
  return walk(root).filter((f) => !f.startsWith('.partial'));
}

/** A deterministic pseudo-random stream of `size` bytes, generated chunk by chunk, and its SHA-256. */
function generatedBody(size: number, seed: number): { stream: () => Readable; sha256: string } {
  const chunk = (i: number) => createHash('sha512').update(`${seed}:${i}`).digest();
  const blockSize = 1024 * 1024;
  const block = Buffer.concat(Array.from({ length: blockSize / 64 }, (_, i) => chunk(i)));
  const hash = createHash('sha256');
  for (let sent = 0; sent < size; sent += blockSize) hash.update(block.subarray(0, Math.min(blockSize, size - sent)));
  return {
    sha256: hash.digest('hex'),
    stream: () => Readable.from((function* () {
      for (let sent = 0; sent < size; sent += blockSize) yield block.subarray(0, Math.min(blockSize, size - sent));
    })()),
  };
}

describe('uploads (management API)', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  describe('small upload (POST /v1/management/upload)', () => {
    it('stores the file, computes its checksum and records an upload event', async () => {
      const { applicationId } = await createApplication(app);
      const content = randomBytes(4096);
      const res = await app.http.request('POST', '/v1/management/upload', {
        body: smallUploadForm({ applicationId, version: '1.2.3', content, fileName: 'setup.msi', releaseNotes: 'First', contentType: 'application/x-msi' }),
        headers: { 'user-agent': 'uploader/1.0' },
      });
      expect(res.status).to.equal(201);
      expect(res.body.data).to.include({
        applicationId,
        version: '1.2.3',
        fileName: 'setup.msi',
        fileSize: 4096,
        contentType: 'application/x-msi',
        checksum: `sha256:${sha256(content)}`,
        fileType: 'MAIN',
        releaseNotes: 'First',
        requiredTier: null,
        status: 'available',
      });
      expect(res.body.data.fileId).to.be.a('string');
      const events = await app.core.store.activity.listEvents({ applicationId, limit: 10 });
      expect(events).to.have.length(1);
      expect(events[0]).to.include({ type: 'upload', version: '1.2.3', customerId: null, userAgent: 'uploader/1.0', fileId: res.body.data.fileId });
      const stream = await app.core.storage.getStream(await storageKeyOf(app, res.body.data.fileId));
      const chunks: Buffer[] = [];
      for await (const c of stream) chunks.push(c as Buffer);
      expect(sha256(Buffer.concat(chunks))).to.equal(sha256(content));
    });

    it('accepts exactly 10 MB and refuses one byte more, leaving no object behind', async () => {
      const { applicationId } = await createApplication(app);
      const before = storedObjects(app).length;
      const exact = await app.http.request('POST', '/v1/management/upload', {
        body: smallUploadForm({ applicationId, version: '1', content: Buffer.alloc(MB10, 7), fileName: 'exact.bin' }),
      });
      expect(exact.status).to.equal(201);
      expect(exact.body.data.fileSize).to.equal(MB10);
      expect(storedObjects(app)).to.have.length(before + 1);

      const over = await app.http.request('POST', '/v1/management/upload', {
        body: smallUploadForm({ applicationId, version: '2', content: Buffer.alloc(MB10 + 1, 7), fileName: 'over.bin' }),
      });
      expect(over.status).to.equal(413);
      expect(over.body.error.code).to.equal('PAYLOAD_TOO_LARGE');
      expect(over.body.error.message).to.contain('large-url');
      expect(storedObjects(app)).to.have.length(before + 1);
      expect((await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions.map((v: { version: string }) => v.version)).to.deep.equal(['1']);
    });

    it('refuses a declared length of 2^31 bytes or more at once, before any body arrives', async () => {
      for (const declared of [2 ** 31, 2 ** 32 + 10]) {
        const status = await statusForHeadersOnly(`${app.http.baseUrl}/v1/management/upload`, 'POST', {
          authorization: `Bearer ${app.http.adminKey}`,
          'content-type': 'multipart/form-data; boundary=b',
          'content-length': String(declared),
        });
        expect(status).to.equal(413);
      }
    });

    it('never keeps a malformed content type and refuses unusable file names', async () => {
      const { applicationId } = await createApplication(app);
      const boundary = 'x-boundary';
      const raw = [
        `--${boundary}\r\nContent-Disposition: form-data; name="applicationId"\r\n\r\n${applicationId}\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="version"\r\n\r\n1\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: not a type\r\n\r\nbytes\r\n`,
        `--${boundary}--\r\n`,
      ].join('');
      const odd = await app.http.request('POST', '/v1/management/upload', { body: raw, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
      expect(odd.status).to.equal(201);
      // An unreadable part type falls back to multipart's default for parts, never into a response header as sent.
      expect(odd.body.data.contentType).to.equal('text/plain');
      const before = storedObjects(app).length;
      const badName = await app.http.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '2', fileName: `${'n'.repeat(300)}.exe` }) });
      expect(badName.status).to.equal(400);
      expect(badName.body.error.details[0].field).to.equal('file');
      expect(storedObjects(app)).to.have.length(before);
    });

    it('enforces one MAIN file and unique file names per version', async () => {
      const { applicationId } = await createApplication(app);
      await uploadSmallFile(app, { applicationId, version: '1', fileName: 'app.exe' });
      const secondMain = await app.http.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '1', fileName: 'other.exe' }) });
      expect(secondMain.status).to.equal(409);
      const sameName = await app.http.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '1', fileName: 'app.exe', fileType: 'DEPENDENCY' }) });
      expect(sameName.status).to.equal(409);
      const dependency = await app.http.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '1', fileName: 'lib.dll', fileType: 'DEPENDENCY' }) });
      expect(dependency.status).to.equal(201);
      expect(storedObjects(app).filter((f) => f.includes(applicationId))).to.have.length(2);
    });

    it('refuses bad fields, a missing file, unknown or deleted applications and non-multipart bodies', async () => {
      const { applicationId } = await createApplication(app);
      const before = storedObjects(app).length;
      const badType = await app.http.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '1', fileType: 'BINARY' }) });
      expect(badType.status).to.equal(400);
      expect(badType.body.error.details[0].field).to.equal('fileType');
      const badTier = await app.http.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '1', requiredTier: 'gold' }) });
      expect(badTier.status).to.equal(400);
      const badVersion = await app.http.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: 'a/b' }) });
      expect(badVersion.status).to.equal(400);

      const noFile = new FormData();
      noFile.set('applicationId', applicationId);
      noFile.set('version', '1');
      const missing = await app.http.request('POST', '/v1/management/upload', { body: noFile });
      expect(missing.status).to.equal(400);
      expect(missing.body.error.details[0].field).to.equal('file');

      expect((await app.http.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId: 'no-such-app', version: '1' }) })).status).to.equal(404);
      const deleted = await createApplication(app);
      await app.http.delete(`/v1/management/applications/${deleted.applicationId}`);
      expect((await app.http.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId: deleted.applicationId, version: '1' }) })).status).to.equal(404);

      const json = await app.http.post('/v1/management/upload', { applicationId, version: '1' });
      expect(json.status).to.equal(415);
      const garbage = await app.http.request('POST', '/v1/management/upload', { body: 'not a form', headers: { 'content-type': 'multipart/form-data; boundary=xyz' } });
      expect(garbage.status).to.equal(400);
      expect(storedObjects(app)).to.have.length(before);
    });
  });

  describe('small upload hashed on threads', function () {
    // One core gets no hashing threads: digests are computed in process there.
    before(function () {
      if (os.availableParallelism() < 2) this.skip();
    });
    const partial = () => fs.readdirSync(path.join(app.config.dataDir, 'objects', '.partial'));

    it('answers 500 when a hashing thread stops mid-file, keeps nothing of the upload, and takes the next one', async () => {
      const { applicationId } = await createApplication(app);
      const before = storedObjects(app);
      const boundary = 'thread-boundary';
      const head = [
        `--${boundary}\r\nContent-Disposition: form-data; name="applicationId"\r\n\r\n${applicationId}\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="version"\r\n\r\n1\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ].join('');
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${app.baseUrl}/v1/management/upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${app.adminKey}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.write(head);
        req.write(randomBytes(512 * 1024));
        // Bytes are being stored, so hashed: the threads stop under the upload, then the rest of the file comes.
        pollUntil(() => (partial().length > 0 && app.core.hashing.running().length > 0 ? true : undefined), 10_000, 'the file being stored')
          .then(async () => {
            for (const worker of app.core.hashing.running()) await worker.terminate();
            req.end(Buffer.concat([randomBytes(512 * 1024), Buffer.from(`\r\n--${boundary}--\r\n`)]));
          })
          .catch(reject);
      });
      const failed = await answer;
      expect(failed.status, failed.body).to.equal(500);
      expect(JSON.parse(failed.body).error.code).to.equal('INTERNAL_ERROR');
      expect(partial()).to.deep.equal([]);
      expect(storedObjects(app)).to.deep.equal(before);
      expect((await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions).to.deep.equal([]);

      const content = randomBytes(100_000);
      const next = await app.http.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '1', content }) });
      expect(next.status).to.equal(201);
      expect(next.body.data.checksum).to.equal(`sha256:${sha256(content)}`);
    });

    it('stops its hashing threads when the process shuts down', async () => {
      const own = await startTestApp();
      const { applicationId } = await createApplication(own);
      await uploadSmallFile(own, { applicationId, version: '1' });
      const running = own.core.hashing.running();
      expect(running, 'threads started by the upload').to.have.length.greaterThan(0);
      const exited = running.map((worker) => new Promise((resolve) => worker.once('exit', resolve)));
      await own.close();
      await Promise.all(exited);
      expect(own.core.hashing.running()).to.deep.equal([]);
    });
  });

  describe('large upload', () => {
    async function issue(applicationId: string, fileSize: number, extra: Record<string, unknown> = {}) {
      const res = await app.http.post('/v1/management/upload/large-url', { applicationId, version: '5.0', fileName: 'big.iso', fileSize, ...extra });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.data as { uploadUrl: string; uploadId: string; expiresAt: string };
    }

    async function put(url: string, body: Readable | Buffer, length: number) {
      const response = await app.http.request('PUT', url, {
        key: null,
        body: body instanceof Buffer ? body : (Readable.toWeb(body as Readable) as ReadableStream),
        // fetch counts a buffer itself; a second content-length beside its own is refused by undici's newer dispatcher.
        headers: { 'content-type': 'application/octet-stream', ...(body instanceof Buffer ? {} : { 'content-length': String(length) }) },
      });
      return response.status;
    }

    it('publishes a 64 MB upload sent through the pre-signed URL once its checksum matches', async function () {
      this.timeout(120_000);
      const { applicationId } = await createApplication(app);
      const size = 64 * 1024 * 1024;
      const body = generatedBody(size, 1);
      const session = await issue(applicationId, size, { contentType: 'application/x-iso9660-image', releaseNotes: 'Big' });
      expect(Date.parse(session.expiresAt)).to.be.closeTo(Date.now() + 3_600_000, 5_000);
      expect(session.uploadUrl).not.to.contain(app.adminKey);
      expect(await put(session.uploadUrl, body.stream(), size)).to.equal(200);

      const done = await app.http.post('/v1/management/upload/large-complete', {
        uploadId: session.uploadId, applicationId, version: '5.0', fileName: 'big.iso', fileSize: size, checksum: `SHA256:${body.sha256.toUpperCase()}`.replace('SHA256', 'sha256'),
      });
      expect(done.status).to.equal(202);
      expect(done.body.data).to.include({ uploadId: session.uploadId, status: 'verifying' });

      const completed = await pollUntil(async () => {
        const res = await app.http.get(`/v1/management/uploads/${session.uploadId}`);
        return res.body.data.status === 'completed' ? res.body.data : undefined;
      }, 60_000, 'verification');
      expect(completed.file).to.include({ status: 'available', checksum: `sha256:${body.sha256}`, fileSize: size, contentType: 'application/x-iso9660-image', releaseNotes: 'Big' });
      const events = await app.core.store.activity.listEvents({ applicationId, type: 'upload', limit: 10 });
      expect(events).to.have.length(1);

      const again = await app.http.post('/v1/management/upload/large-complete', {
        uploadId: session.uploadId, applicationId, version: '5.0', fileName: 'big.iso', fileSize: size,
      });
      expect(again.status).to.equal(200);
      expect(again.body.data.status).to.equal('completed');
      // The upload URL can no longer change the published bytes.
      expect(await put(session.uploadUrl, Buffer.alloc(size, 1), size)).to.equal(200);
      const file = completed.file as { fileId: string };
      const stream = await app.core.storage.getStream(await storageKeyOf(app, file.fileId));
      const hash = createHash('sha256');
      for await (const c of stream) hash.update(c as Buffer);
      expect(hash.digest('hex')).to.equal(body.sha256);
    });

    it('fails an upload whose checksum does not match and deletes its bytes', async function () {
      this.timeout(60_000);
      const { applicationId } = await createApplication(app);
      const content = randomBytes(3 * 1024 * 1024);
      const session = await issue(applicationId, content.length);
      expect(await put(session.uploadUrl, content, content.length)).to.equal(200);
      const done = await app.http.post('/v1/management/upload/large-complete', {
        uploadId: session.uploadId, applicationId, version: '5.0', fileName: 'big.iso', fileSize: content.length, checksum: 'ab'.repeat(32),
      });
      expect(done.status).to.equal(202);
      const failed = await pollUntil(async () => {
        const res = await app.http.get(`/v1/management/uploads/${session.uploadId}`);
        return res.body.data.status === 'failed' ? res.body.data : undefined;
      }, 30_000, 'failure');
      expect(failed.failureReason).to.contain('checksum mismatch');
      expect(failed.file).to.equal(null);
      expect(storedObjects(app).filter((f) => f.includes(applicationId) || f.includes(session.uploadId))).to.deep.equal([]);
      // The failed file released its name: the same name can be uploaded again.
      await uploadSmallFile(app, { applicationId, version: '5.0', fileName: 'big.iso' });
    });

    it('queues nothing new when completion is repeated', async () => {
      const { applicationId } = await createApplication(app);
      const content = randomBytes(1000);
      const session = await issue(applicationId, content.length);
      await put(session.uploadUrl, content, content.length);
      const body = { uploadId: session.uploadId, applicationId, version: '5.0', fileName: 'big.iso', fileSize: content.length };
      const first = await app.http.post('/v1/management/upload/large-complete', body);
      const second = await app.http.post('/v1/management/upload/large-complete', body);
      expect(first.status).to.be.oneOf([200, 202]);
      expect(second.status).to.be.oneOf([200, 202]);
      await pollUntil(async () => ((await app.http.get(`/v1/management/uploads/${session.uploadId}`)).body.data.status === 'completed' ? true : undefined), 10_000, 'verification');
      const connection = new IORedis(app.config.redisUrl as string, { maxRetriesPerRequest: null });
      const queue = new Queue('uploads', { connection, prefix: app.config.redisPrefix });
      try {
        const jobs = await queue.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed']);
        expect(jobs.filter((j) => j.name === 'verify-upload' && j.data.uploadId === session.uploadId)).to.have.length(1);
      } finally {
        await queue.close();
        connection.disconnect();
      }
    });

    it('checks the completion against the session and the uploaded object', async () => {
      const { applicationId } = await createApplication(app);
      const session = await issue(applicationId, 2048);
      const base = { uploadId: session.uploadId, applicationId, version: '5.0', fileName: 'big.iso', fileSize: 2048 };
      expect((await app.http.post('/v1/management/upload/large-complete', { ...base, uploadId: 'upl_unknown' })).status).to.equal(404);
      const mismatch = await app.http.post('/v1/management/upload/large-complete', { ...base, fileName: 'other.iso', version: '6.0' });
      expect(mismatch.status).to.equal(400);
      expect(mismatch.body.error.details.map((d: { field: string }) => d.field).sort()).to.deep.equal(['fileName', 'version']);
      const notYet = await app.http.post('/v1/management/upload/large-complete', base);
      expect(notYet.status).to.equal(409);
      expect(notYet.body.error.message).to.contain('PUT');
      await app.core.storage.put(`staging/${session.uploadId}`, Readable.from([Buffer.alloc(100)]));
      const wrongSize = await app.http.post('/v1/management/upload/large-complete', base);
      expect(wrongSize.status).to.equal(409);
      expect(wrongSize.body.error.message).to.contain('100 bytes');
      expect((await app.http.post('/v1/management/upload/large-complete', { ...base, checksum: 'xyz' })).status).to.equal(400);
      expect((await app.http.get(`/v1/management/uploads/${session.uploadId}`)).body.data.status).to.equal('issued');
    });

    it('refuses the same file name or a second MAIN file while an upload is pending', async () => {
      const { applicationId } = await createApplication(app);
      await issue(applicationId, 10);
      const again = await app.http.post('/v1/management/upload/large-url', { applicationId, version: '5.0', fileName: 'big.iso', fileSize: 10, fileType: 'OTHER' });
      expect(again.status).to.equal(409);
      const main = await app.http.post('/v1/management/upload/large-url', { applicationId, version: '5.0', fileName: 'other.iso', fileSize: 10 });
      expect(main.status).to.equal(409);
    });

    it('validates the upload request', async () => {
      const { applicationId } = await createApplication(app);
      const base = { applicationId, version: '1', fileName: 'f.bin', fileSize: 10 };
      for (const [patch, field] of [
        [{ fileSize: 0 }, 'fileSize'],
        [{ fileSize: 5 * 1024 ** 3 + 1 }, 'fileSize'],
        [{ fileSize: 1.5 }, 'fileSize'],
        [{ fileSize: '10' }, 'fileSize'],
        [{ fileName: '../etc/passwd' }, 'fileName'],
        [{ contentType: 'not a type' }, 'contentType'],
        [{ fileType: 'main' }, 'fileType'],
        [{ extra: true }, 'extra'],
      ] as [Record<string, unknown>, string][]) {
        const res = await app.http.post('/v1/management/upload/large-url', { ...base, ...patch });
        expect(res.status, JSON.stringify(patch)).to.equal(400);
        expect(res.body.error.details.map((d: { field: string }) => d.field)).to.include(field);
      }
      expect((await app.http.post('/v1/management/upload/large-url', { ...base, fileSize: 5 * 1024 ** 3 })).status).to.equal(201);
      expect((await app.http.post('/v1/management/upload/large-url', { ...base, applicationId: 'missing-app' })).status).to.equal(404);
    });

    describe('expiry', () => {
      let shortLived: TestApp;
      before(async () => {
        // Two seconds: an upload URL's expiry counts from the whole second it was signed in, so a
        // one-second URL signed late in its second can expire before the test's first PUT.
        shortLived = await startTestApp({ env: { UPLOAD_URL_TTL_SECONDS: '2' } });
      });
      after(() => shortLived.close());

      async function issueShortLived() {
        const { applicationId } = await createApplication(shortLived);
        const res = await shortLived.http.post('/v1/management/upload/large-url', { applicationId, version: '1', fileName: 'f.bin', fileSize: 10 });
        const session = res.body.data as { uploadUrl: string; uploadId: string };
        expect(await put(session.uploadUrl, Buffer.alloc(10, 1), 10)).to.equal(200);
        const stored = (await shortLived.core.store.uploads.getUploadSession(session.uploadId))!;
        // Past the session's expiry, which is never earlier than its URL's.
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, stored.expiresAt.getTime() - Date.now()) + 100));
        return { applicationId, ...session, stored };
      }

      it('answers 410 to a completion after expiry and releases the file', async () => {
        const { applicationId, uploadId, uploadUrl, stored } = await issueShortLived();
        expect((await shortLived.http.get(`/v1/management/uploads/${uploadId}`)).body.data.status).to.equal('expired');
        expect(await put(uploadUrl, Buffer.alloc(10, 1), 10)).to.equal(403);
        const done = await shortLived.http.post('/v1/management/upload/large-complete', { uploadId, applicationId, version: '1', fileName: 'f.bin', fileSize: 10 });
        expect(done.status).to.equal(410);
        expect(done.body.error.code).to.equal('GONE');
        expect(await shortLived.core.storage.head(stored.storageKey)).to.equal(null);
        expect((await shortLived.core.store.versions.getFile(stored.fileId))!.status).to.equal('failed');
      });

      it('the scheduled sweep expires forgotten sessions and deletes their bytes', async () => {
        const { uploadId } = await issueShortLived();
        const connection = new IORedis(shortLived.config.redisUrl as string, { maxRetriesPerRequest: null });
        const jobs = new Queue('uploads', { connection, prefix: shortLived.config.redisPrefix });
        try {
          await jobs.add('expire-upload-sessions', {});
          // The sweep claims the session first, then releases the file and deletes the bytes.
          const stored = await pollUntil(async () => {
            const s = await shortLived.core.store.uploads.getUploadSession(uploadId);
            const released = s && (await shortLived.core.store.versions.getFile(s.fileId))?.status === 'failed';
            return s?.status === 'expired' && released ? s : undefined;
          }, 10_000, 'sweep');
          expect(await shortLived.core.storage.head(stored.storageKey)).to.equal(null);
        } finally {
          await jobs.close();
          connection.disconnect();
        }
      });
    });
  });
});
