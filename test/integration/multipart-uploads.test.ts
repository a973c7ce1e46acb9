import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { loadConfig } from '../../shared/config';
import { MULTIPART_MIN_PART_BYTES } from '../../shared/policy';
import { createApplication } from '../support/factories';
import { pollUntil } from '../support/poll';
import { createBucket } from '../support/s3-bucket';
import { s3Environment, S3rverProcess, startS3rver } from '../support/s3rver';
import { startTestApp, TestApp } from '../support/test-app';

const MIB = 1024 * 1024;
const PART = MULTIPART_MIN_PART_BYTES;
const MULTIPART = '/v1/management/uploads/multipart';

/** Where s3rver 3.7 departs from S3 in multipart uploads; the cases that need what it lacks are left pending. */
interface StoreGaps {
  /** ListParts answers 405: listing, resuming and completing (which checks the parts) cannot run. */
  noListParts?: boolean;
  /** AbortMultipartUpload answers 405. */
  noAbort?: boolean;
  /** No signature is checked: a part of the wrong length is stored. */
  partLengthUnchecked?: boolean;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A file of two whole parts and a short third one. */
function threePartFile(): Buffer {
  return randomBytes(2 * PART + 12_345);
}

function partOf(file: Buffer, partNumber: number): Buffer {
  return file.subarray((partNumber - 1) * PART, partNumber * PART);
}

interface OpenedUpload {
  uploadId: string;
  fileId: string;
  partSize: number;
  partCount: number;
  expiresAt: string;
}

function multipartSuite(storeName: string, environment: () => Record<string, string>, gaps: StoreGaps): void {
  describe(`multipart uploads (${storeName})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ env: environment() });
    });
    after(() => app?.close());

    const requireStore = (context: Mocha.Context, ...lacking: (keyof StoreGaps)[]) => {
      if (lacking.some((gap) => gaps[gap])) context.skip();
    };

    async function open(target: TestApp, body: Record<string, unknown>): Promise<OpenedUpload> {
      const response = await target.http.post(MULTIPART, body);
      expect(response.status, response.raw.toString()).to.equal(201);
      return response.body.data as OpenedUpload;
    }

    async function partUrls(target: TestApp, uploadId: string, partNumbers: number[]) {
      const response = await target.http.post(`/v1/management/uploads/${uploadId}/parts`, { partNumbers });
      expect(response.status, response.raw.toString()).to.equal(200);
      return response.body.data as { uploadId: string; expiresAt: string; parts: { partNumber: number; size: number; uploadUrl: string; method: string }[] };
    }

    /** PUTs parts as a client does, without a bearer key; resolves with each response's status. */
    async function sendParts(target: TestApp, uploadId: string, file: Buffer, partNumbers: number[]): Promise<number[]> {
      const { parts } = await partUrls(target, uploadId, partNumbers);
      return Promise.all(parts.map(async (part) =>
        (await target.http.request('PUT', part.uploadUrl, { key: null, body: partOf(file, part.partNumber) })).status));
    }

    async function openThreePartUpload(target: TestApp, extra: Record<string, unknown> = {}) {
      const { applicationId } = await createApplication(target);
      const file = threePartFile();
      const opened = await open(target, { applicationId, version: '2.0.0', fileName: 'model.bin', fileSize: file.length, ...extra });
      return { applicationId, file, ...opened };
    }

    const status = async (target: TestApp, uploadId: string) => (await target.http.get(`/v1/management/uploads/${uploadId}`)).body.data;

    const settled = (target: TestApp, uploadId: string) => pollUntil(async () => {
      const current = await status(target, uploadId);
      return current.status === 'verifying' ? undefined : current;
    }, 20_000, 'verification');

    it('opens an upload: the part size, part count and expiry, the file reserved, the object store upload created', async () => {
      const { applicationId, file, uploadId, partSize, partCount, expiresAt, fileId } = await openThreePartUpload(app);
      expect({ partSize, partCount }).to.deep.equal({ partSize: PART, partCount: 3 });
      const hours = (Date.parse(expiresAt) - Date.now()) / 3_600_000;
      expect(hours).to.be.within(23.9, 24);
      expect((await app.core.store.versions.getFile(fileId))?.status).to.equal('pending');
      const taken = await app.http.post(MULTIPART, { applicationId, version: '2.0.0', fileName: 'model.bin', fileSize: 10 });
      expect(taken.status).to.equal(409);
      const session = await app.core.store.uploads.getUploadSession(uploadId);
      expect(session?.multipart?.partSize).to.equal(PART);
      // Reading the upload lists its parts, which s3rver cannot.
      if (!gaps.noListParts) expect(await status(app, uploadId)).to.deep.include({ status: 'issued', fileSize: file.length, failureReason: null, file: null });
    });

    it('hands out part URLs holding each part to its exact size, for the parts named', async () => {
      const { file, uploadId } = await openThreePartUpload(app);
      const { parts, expiresAt } = await partUrls(app, uploadId, [3, 1]);
      expect(parts.map(({ partNumber, size, method }) => ({ partNumber, size, method }))).to.deep.equal([
        { partNumber: 3, size: file.length - 2 * PART, method: 'PUT' },
        { partNumber: 1, size: PART, method: 'PUT' },
      ]);
      // Part URLs live as long as a large upload's URL (an hour), not the whole session.
      expect((Date.parse(expiresAt) - Date.now()) / 60_000).to.be.within(58, 60);
      for (const part of parts) {
        const query = new URL(part.uploadUrl).searchParams;
        const length = query.get('X-Length') ?? (query.get('X-Amz-SignedHeaders')?.split(';').includes('content-length') ? String(part.size) : null);
        expect(length, part.uploadUrl).to.equal(String(part.size));
      }
    });

    it('refuses part numbers beyond the part count, repeated, or more than 100 at once, and the parts of an unknown upload', async () => {
      const { uploadId } = await openThreePartUpload(app);
      for (const partNumbers of [[4], [1, 1], [], Array.from({ length: 101 }, (_, i) => i + 1), [0], [1.5], ['1']]) {
        const response = await app.http.post(`/v1/management/uploads/${uploadId}/parts`, { partNumbers });
        expect(response.status, JSON.stringify(partNumbers)).to.equal(400);
        expect(response.body.error.code).to.equal('VALIDATION_ERROR');
      }
      expect((await app.http.post('/v1/management/uploads/upl_unknown/parts', { partNumbers: [1] })).status).to.equal(404);
    });

    it('takes up to 5 TiB in 9,987 parts of 525 MiB, and refuses one byte more; the single PUT keeps its 5 GiB', async () => {
      const { applicationId } = await createApplication(app);
      const largest = await open(app, { applicationId, version: '1.0.0', fileName: 'disk.img', fileSize: 5 * 1024 ** 4 });
      expect({ partSize: largest.partSize, partCount: largest.partCount }).to.deep.equal({ partSize: 525 * MIB, partCount: 9987 });
      const { parts } = await partUrls(app, largest.uploadId, [9987]);
      expect(parts[0].size).to.equal(5 * 1024 ** 4 - 9986 * 525 * MIB);
      const over = await app.http.post(MULTIPART, { applicationId, version: '1.0.0', fileName: 'over.img', fileSize: 5 * 1024 ** 4 + 1 });
      expect(over.status).to.equal(400);
      expect(over.body.error.details[0].field).to.equal('fileSize');
      const single = await app.http.post('/v1/management/upload/large-url', { applicationId, version: '1.0.0', fileName: 'one.img', fileSize: 5 * 1024 ** 3 + 1 });
      expect(single.status).to.equal(400);
    });

    it('uploads a file larger than two parts sent in any order, then verifies and publishes it with its release fields', async function () {
      requireStore(this, 'noListParts');
      const file = threePartFile();
      const { applicationId } = await createApplication(app);
      const opened = await open(app, {
        applicationId, version: '3.1.0', fileName: 'game.pak', fileSize: file.length, contentType: 'application/x-pak',
        platform: 'linux', arch: 'arm64', channel: 'beta', status: 'draft', releaseNotes: 'Big build', requiredTier: 'premium',
        checksum: `sha256:${sha256(file)}`,
      });
      expect(await sendParts(app, opened.uploadId, file, [3, 1, 2])).to.deep.equal([200, 200, 200]);
      const listed = (await status(app, opened.uploadId)).multipart;
      expect(listed.parts.map(({ partNumber, size }: { partNumber: number; size: number }) => ({ partNumber, size }))).to.deep.equal([
        { partNumber: 1, size: PART }, { partNumber: 2, size: PART }, { partNumber: 3, size: 12_345 },
      ]);
      const completion = await app.http.post(`/v1/management/uploads/${opened.uploadId}/complete`);
      expect(completion.status, completion.raw.toString()).to.be.oneOf([202, 200]);
      const done = await settled(app, opened.uploadId);
      expect(done.status, done.failureReason).to.equal('completed');
      expect(done.multipart).to.deep.equal({ partSize: PART, partCount: 3, parts: null });
      expect(done.file).to.include({ fileId: opened.fileId, fileSize: file.length, checksum: `sha256:${sha256(file)}`, status: 'available' });
      const stored = (await app.core.store.versions.getFile(opened.fileId))!;
      expect(stored).to.include({ platform: 'linux', arch: 'arm64', contentType: 'application/x-pak' });
      expect(stored.sha512, 'SHA-512 computed in the same pass').to.equal(createHash('sha512').update(file).digest('base64'));
      expect(stored.sha1, 'SHA-1 computed in the same pass').to.equal(createHash('sha1').update(file).digest('hex'));
      expect((await app.core.storage.digests(stored.storageKey, app.core.hashing)).sha256).to.equal(sha256(file));
      expect(await app.core.store.versions.getVersion(applicationId, '3.1.0')).to.include({ channel: 'beta', status: 'draft', releaseNotes: 'Big build', requiredTier: 'premium' });
      // Completed: a repeat answers with the upload as it is, and its part URLs take nothing more.
      const repeat = await app.http.post(`/v1/management/uploads/${opened.uploadId}/complete`);
      expect(repeat.status).to.equal(200);
      expect(repeat.body.data.status).to.equal('completed');
      expect((await app.http.post(`/v1/management/uploads/${opened.uploadId}/parts`, { partNumbers: [1] })).status).to.equal(409);
    });

    it('resumes: the upload lists the parts already stored, and sending only the missing ones completes it', async function () {
      requireStore(this, 'noListParts');
      const { file, uploadId } = await openThreePartUpload(app);
      expect((await status(app, uploadId)).multipart).to.deep.equal({ partSize: PART, partCount: 3, parts: [] });
      await sendParts(app, uploadId, file, [2]);
      const early = await app.http.post(`/v1/management/uploads/${uploadId}/complete`);
      expect(early.status).to.equal(409);
      expect(early.body.error.message).to.include('2 part(s) missing (1, 3)');
      // The client was interrupted; it asks what the store holds and sends the rest.
      const held = (await status(app, uploadId)).multipart.parts as { partNumber: number; size: number; etag: string }[];
      expect(held.map((part) => part.partNumber)).to.deep.equal([2]);
      expect(held[0].size).to.equal(PART);
      expect(held[0].etag).to.be.a('string').and.not.equal('');
      const missing = [1, 2, 3].filter((n) => !held.some((part) => part.partNumber === n));
      await sendParts(app, uploadId, file, missing);
      expect((await app.http.post(`/v1/management/uploads/${uploadId}/complete`)).status).to.be.oneOf([202, 200]);
      const done = await settled(app, uploadId);
      expect(done.status, done.failureReason).to.equal('completed');
      expect(done.file.checksum).to.equal(`sha256:${sha256(file)}`);
    });

    it('fails an upload whose checksum does not match: the bytes are deleted and the name freed', async function () {
      requireStore(this, 'noListParts');
      const { applicationId, file, uploadId, fileId } = await openThreePartUpload(app, { checksum: '0'.repeat(64) });
      await sendParts(app, uploadId, file, [1, 2, 3]);
      expect((await app.http.post(`/v1/management/uploads/${uploadId}/complete`)).status).to.be.oneOf([202, 200]);
      const done = await settled(app, uploadId);
      expect(done.status).to.equal('failed');
      expect(done.failureReason).to.include('checksum mismatch');
      const stored = (await app.core.store.versions.getFile(fileId))!;
      expect(stored.status).to.equal('failed');
      expect(await app.core.storage.head(stored.storageKey)).to.equal(null);
      expect(await app.core.store.versions.getVersion(applicationId, '2.0.0')).to.equal(null);
      await open(app, { applicationId, version: '2.0.0', fileName: 'model.bin', fileSize: 10 });
    });

    it('refuses a part of the wrong size and keeps nothing of it', async function () {
      requireStore(this, 'partLengthUnchecked', 'noListParts');
      const { file, uploadId } = await openThreePartUpload(app);
      const { parts } = await partUrls(app, uploadId, [1]);
      const shorter = await app.http.request('PUT', parts[0].uploadUrl, { key: null, body: partOf(file, 1).subarray(1) });
      const longer = await app.http.request('PUT', parts[0].uploadUrl, { key: null, body: Buffer.concat([partOf(file, 1), Buffer.from('x')]) });
      expect(shorter.status, shorter.raw.toString()).to.be.within(400, 499);
      expect(longer.status, longer.raw.toString()).to.be.within(400, 499);
      expect((await status(app, uploadId)).multipart.parts).to.deep.equal([]);
    });

    it('refuses a part PUT once the upload has completed', async function () {
      requireStore(this, 'noListParts');
      const { file, uploadId, fileId } = await openThreePartUpload(app);
      const { parts } = await partUrls(app, uploadId, [1, 2, 3]);
      for (const part of parts) await app.http.request('PUT', part.uploadUrl, { key: null, body: partOf(file, part.partNumber) });
      await app.http.post(`/v1/management/uploads/${uploadId}/complete`);
      expect((await settled(app, uploadId)).status).to.equal('completed');
      const late = await app.http.request('PUT', parts[0].uploadUrl, { key: null, body: randomBytes(PART) });
      expect(late.status).to.equal(404);
      const stored = (await app.core.store.versions.getFile(fileId))!;
      expect((await app.core.storage.digests(stored.storageKey, app.core.hashing)).sha256).to.equal(sha256(file));
    });

    it('aborts: DELETE discards the parts, frees the name, and the part URLs take nothing more', async function () {
      requireStore(this, 'noAbort');
      const { applicationId, file, uploadId, fileId } = await openThreePartUpload(app);
      const { parts } = await partUrls(app, uploadId, [1, 2]);
      await app.http.request('PUT', parts[0].uploadUrl, { key: null, body: partOf(file, 1) });
      const aborted = await app.http.delete(`/v1/management/uploads/${uploadId}`);
      expect(aborted.status, aborted.raw.toString()).to.equal(200);
      expect(aborted.body.data).to.include({ uploadId, status: 'aborted' });
      expect((await app.core.store.versions.getFile(fileId))?.status).to.equal('failed');
      if (!gaps.noListParts) {
        const late = await app.http.request('PUT', parts[1].uploadUrl, { key: null, body: partOf(file, 2) });
        expect(late.status).to.equal(404);
      }
      expect((await app.http.delete(`/v1/management/uploads/${uploadId}`)).status, 'aborting again').to.equal(200);
      const completed = await app.http.post(`/v1/management/uploads/${uploadId}/complete`);
      expect(completed.status).to.equal(409);
      expect(completed.body.error).to.deep.equal({ code: 'CONFLICT', message: `upload ${uploadId} is aborted and takes no more changes` });
      expect((await app.http.post(`/v1/management/uploads/${uploadId}/parts`, { partNumbers: [1] })).status).to.equal(409);
      await open(app, { applicationId, version: '2.0.0', fileName: 'model.bin', fileSize: 10 });
    });

    it('aborts a single-PUT large upload too, and refuses to complete one as multipart', async () => {
      const { applicationId } = await createApplication(app);
      const issued = await app.http.post('/v1/management/upload/large-url', { applicationId, version: '1', fileName: 'one.bin', fileSize: 10 });
      const { uploadId, fileId } = issued.body.data;
      const complete = await app.http.post(`/v1/management/uploads/${uploadId}/complete`);
      expect(complete.status).to.equal(409);
      expect(complete.body.error.message).to.include('large-complete');
      const aborted = await app.http.delete(`/v1/management/uploads/${uploadId}`);
      expect(aborted.status).to.equal(200);
      expect(aborted.body.data).to.include({ status: 'aborted', multipart: null });
      expect((await app.core.store.versions.getFile(fileId))?.status).to.equal('failed');
      // Completing it answers its state, not the aborted record.
      const completed = await app.http.post('/v1/management/upload/large-complete', { uploadId, applicationId, version: '1', fileName: 'one.bin', fileSize: 10 });
      expect(completed.status, completed.raw.toString()).to.equal(409);
      expect(completed.body.error).to.deep.equal({ code: 'CONFLICT', message: `upload ${uploadId} is aborted; request a new upload URL` });
      expect((await app.http.get(`/v1/management/uploads/${uploadId}`)).body.data.status).to.equal('aborted');
      expect((await app.http.delete('/v1/management/uploads/upl_unknown')).status).to.equal(404);
    });

    describe('expiry', () => {
      let shortLived: TestApp;
      before(async () => {
        shortLived = await startTestApp({ env: { ...environment(), MULTIPART_UPLOAD_TTL_SECONDS: '2' } });
      });
      after(() => shortLived?.close());

      it('the sweep aborts a session past its expiry and frees its name; the upload then answers 410', async function () {
        requireStore(this, 'noAbort');
        const { applicationId, file, uploadId, fileId } = await openThreePartUpload(shortLived);
        const { parts } = await partUrls(shortLived, uploadId, [1]);
        await shortLived.http.request('PUT', parts[0].uploadUrl, { key: null, body: partOf(file, 1) });
        const session = (await shortLived.core.store.uploads.getUploadSession(uploadId))!;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, session.expiresAt.getTime() - Date.now()) + 100));
        const connection = new IORedis(shortLived.config.redisUrl as string, { maxRetriesPerRequest: null });
        const jobs = new Queue('uploads', { connection, prefix: shortLived.config.redisPrefix });
        try {
          await jobs.add('expire-upload-sessions', {});
          await pollUntil(async () => (await shortLived.core.store.uploads.getUploadSession(uploadId))?.status === 'expired' || undefined, 10_000, 'sweep');
        } finally {
          await jobs.close();
          connection.disconnect();
        }
        expect((await shortLived.core.store.versions.getFile(fileId))?.status).to.equal('failed');
        if (!gaps.noListParts) {
          const error = await shortLived.core.storage.listParts(session.storageKey, session.multipart!.storageUploadId).then(() => null, (e: Error) => e);
          expect(error?.name).to.equal('MultipartUploadNotFoundError');
        }
        expect((await shortLived.http.post(`/v1/management/uploads/${uploadId}/complete`)).status).to.equal(410);
        expect((await shortLived.http.post(`/v1/management/uploads/${uploadId}/parts`, { partNumbers: [2] })).status).to.equal(410);
        expect((await status(shortLived, uploadId)).status).to.equal('expired');
        await open(shortLived, { applicationId, version: '2.0.0', fileName: 'model.bin', fileSize: 10 });
      });
    });
  });
}

multipartSuite('embedded store', () => ({}), {});

describe('on S3', () => {
  let s3: S3rverProcess | undefined;
  const bucket = `multipart-${randomBytes(4).toString('hex')}`;
  const environment = () => s3Environment(s3 as S3rverProcess, bucket);
  before(async () => {
    s3 = await startS3rver();
    await createBucket(loadConfig(environment()).s3!);
  });
  after(() => s3?.stop());

  multipartSuite('S3 (s3rver)', environment, {
    noListParts: true,
    noAbort: true,
    partLengthUnchecked: true,
  });

  describe('what s3rver can show of the S3 protocol', () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ workers: false, env: environment() });
    });
    after(() => app?.close());

    it("hands out S3's own UploadPart URLs, each signing its part's length; the parts PUT through them make the file", async () => {
      const { applicationId } = await createApplication(app);
      const file = threePartFile();
      const opened = (await app.http.post(MULTIPART, { applicationId, version: '1.0.0', fileName: 'big.bin', fileSize: file.length })).body.data;
      const { parts } = (await app.http.post(`/v1/management/uploads/${opened.uploadId}/parts`, { partNumbers: [1, 2, 3] })).body.data as {
        parts: { partNumber: number; size: number; uploadUrl: string }[];
      };
      const session = (await app.core.store.uploads.getUploadSession(opened.uploadId))!;
      const etags: { partNumber: number; etag: string }[] = [];
      for (const part of parts) {
        const url = new URL(part.uploadUrl);
        expect(part.uploadUrl.startsWith(`${(s3 as S3rverProcess).endpoint}/${bucket}/`), part.uploadUrl).to.equal(true);
        expect(url.searchParams.get('partNumber')).to.equal(String(part.partNumber));
        expect(url.searchParams.get('uploadId')).to.equal(session.multipart?.storageUploadId);
        expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).to.include('content-length');
        const response = await fetch(part.uploadUrl, { method: 'PUT', body: partOf(file, part.partNumber) });
        expect(response.status).to.equal(200);
        etags.push({ partNumber: part.partNumber, etag: response.headers.get('etag') as string });
      }
      // What the verification does once ListParts has named the parts.
      await app.core.storage.completeMultipartUpload(session.storageKey, session.multipart!.storageUploadId, etags);
      expect((await app.core.storage.digests(session.storageKey, app.core.hashing)).sha256).to.equal(sha256(file));
    });
  });
});
