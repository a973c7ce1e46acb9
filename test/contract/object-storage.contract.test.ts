import { expect } from 'chai';
import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { S3Config } from '../../shared/config';
import { DependencyUnavailableError, ObjectNotFoundError } from '../../shared/errors';
import { hashInProcess } from '../../shared/hashing';
import { HashingThreads } from '../../shared/hashing-threads/hashing-threads';
import { findFreePort } from '../../shared/net';
import { MAX_PUT_BYTES, MULTIPART_MIN_PART_BYTES } from '../../shared/policy';
import { LocalStorage } from '../../shared/storage/local/local-storage';
import { UrlSigner } from '../../shared/storage/local/url-signer';
import {
  attachmentDisposition,
  BodyLengthError,
  MultipartPartsError,
  MultipartUploadNotFoundError,
  ObjectStorage,
} from '../../shared/storage/object-storage';
import { S3Storage } from '../../shared/storage/s3/s3-storage';
import { S3RVER_CREDENTIALS, S3rverProcess, startS3rver } from '../support/s3rver';
import { createBucket } from '../support/s3-bucket';
import { rejectionOf } from '../support/rejection';
import { pollUntil } from '../support/poll';

interface StorageFixture {
  storage: ObjectStorage;
  /**
   * PUTs one part through its pre-signed URL as a client does, resolving with the part's tag, or
   * rejecting with why the store refused it. The embedded store's URLs are answered by the gateway,
   * whose PUT route hands a verified part grant to signedAccess().putPart: the fixture does the same.
   */
  sendPart(url: string, body: Buffer): Promise<string>;
  dispose(): Promise<void>;
}

/** Where a test server departs from S3: the contract leaves those cases out rather than bend the adapter. */
interface ServerGaps {
  /** s3rver reads `bytes=0-0` as `bytes=0-`. */
  rangeEndingAtZero?: boolean;
  /** s3rver decodes x-amz-copy-source with decodeURI, which keeps the %2B that S3 requires for '+'. */
  plusInCopySource?: boolean;
  /** s3rver stores the bytes of a PUT whose connection closed before its Content-Length was reached; S3 stores nothing. */
  keepsCutShortPut?: boolean;
  /** s3rver 3.7 answers ListParts with 405 MethodNotAllowed: it does not implement it. */
  noListParts?: boolean;
  /** s3rver 3.7 answers AbortMultipartUpload with 405 MethodNotAllowed: it does not implement it. */
  noAbortMultipartUpload?: boolean;
  /** s3rver checks no signature, so it stores a part of another length than the URL signs; S3 refuses it (403). */
  partLengthUnchecked?: boolean;
  /** s3rver stores a part PUT after its upload was completed and fails a repeated completion with a 500; S3 answers NoSuchUpload to both. */
  reopensCompletedUpload?: boolean;
  /** s3rver completes an upload from the part numbers alone; S3 refuses a part whose ETag is not the one named (InvalidPart). */
  partEtagsUnchecked?: boolean;
}

/** The smallest part size the service gives (S3 requires 5 MiB of every part but the last). */
const PART_BYTES = MULTIPART_MIN_PART_BYTES;

/** Large enough for several multipart parts, with an odd tail so no part boundary lines up. */
const LARGE_BODY_BYTES = 12 * 1024 * 1024 + 7;

/** Shapes our keys can take: nested paths, spaces, non-ASCII names, semantic-version build metadata. */
const AWKWARD_KEYS = [
  'apps/app_1/versions/1.0.0/files/installer.bin',
  'apps/app 1/My Installer (x64).exe',
  'apps/app_1/ünïcødé-файл-名前.bin',
  'apps/app_1/1.0.0+build.5/setup+extras.zip',
];

/** Deterministic pseudo-random bytes (an AES-CTR keystream), produced chunk by chunk, never held whole. */
function generatedBody(length: number, seed: string): Readable {
  const cipher = createCipheriv('aes-256-ctr', createHash('sha256').update(seed).digest(), Buffer.alloc(16));
  const zeros = Buffer.alloc(64 * 1024);
  function* chunks() {
    for (let left = length; left > 0; left -= zeros.length) yield cipher.update(zeros.subarray(0, Math.min(left, zeros.length)));
  }
  return Readable.from(chunks(), { objectMode: false });
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function sha512Of(stream: Readable): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('base64');
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function expectSignedUrlFor(url: string, key: string): void {
  const parsed = new URL(url);
  expect(parsed.protocol).to.match(/^https?:$/);
  expect(decodeURIComponent(parsed.pathname).endsWith(`/${key}`), parsed.pathname).to.equal(true);
  const expiry = [...parsed.searchParams].find(([name]) => /expires/i.test(name));
  expect(expiry, 'an expiry parameter').to.not.equal(undefined);
  expect(Number(expiry?.[1])).to.be.greaterThan(0);
}

/** The Unix second a pre-signed URL stops working: embedded URLs carry it, SigV4 ones carry start and lifetime. */
function expirySecondOf(url: string): number {
  const query = new URL(url).searchParams;
  if (query.has('X-Expires')) return Number(query.get('X-Expires'));
  const start = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(query.get('X-Amz-Date') ?? '');
  expect(start, 'X-Amz-Date').to.not.equal(null);
  const [, year, month, day, hour, minute, second] = start as RegExpExecArray;
  return Date.UTC(+year, +month - 1, +day, +hour, +minute, +second) / 1000 + Number(query.get('X-Amz-Expires'));
}

/**
 * What every ObjectStorage adapter must do; `createFixture` gives each test an empty store,
 * `createGone` a store that is not there (its directory removed, its bucket never created).
 */
function objectStorageContract(createFixture: () => Promise<StorageFixture>, createGone: () => Promise<StorageFixture>, gaps: ServerGaps = {}): void {
  describe('ObjectStorage contract', () => {
    let fixture: StorageFixture;
    let storage: ObjectStorage;
    // Digests as the service computes them: on hashing threads.
    const hashing = new HashingThreads({ threads: 2 });
    after(() => hashing.close());

    beforeEach(async () => {
      fixture = await createFixture();
      storage = fixture.storage;
    });

    afterEach(async () => {
      await fixture.dispose();
    });

    it('stores a small body and returns it byte for byte', async () => {
      const body = randomBytes(1000);
      const { size } = await storage.put('small.bin', Readable.from(body), { contentLength: body.length });
      expect(size).to.equal(body.length);
      expect((await storage.head('small.bin'))?.size).to.equal(body.length);
      expect((await readAll(await storage.getStream('small.bin'))).equals(body)).to.equal(true);
    });

    it('streams a multi-megabyte body of known length and returns the same bytes', async () => {
      const { size } = await storage.put('large-known.bin', generatedBody(LARGE_BODY_BYTES, 'known'), { contentLength: LARGE_BODY_BYTES });
      expect(size).to.equal(LARGE_BODY_BYTES);
      expect((await storage.head('large-known.bin'))?.size).to.equal(LARGE_BODY_BYTES);
      expect(await sha256Of(await storage.getStream('large-known.bin'))).to.equal(await sha256Of(generatedBody(LARGE_BODY_BYTES, 'known')));
    });

    it('streams a multi-megabyte body of unknown length and returns the same bytes', async () => {
      const { size } = await storage.put('large-unknown.bin', generatedBody(LARGE_BODY_BYTES, 'unknown'));
      expect(size).to.equal(LARGE_BODY_BYTES);
      expect((await storage.head('large-unknown.bin'))?.size).to.equal(LARGE_BODY_BYTES);
      expect(await sha256Of(await storage.getStream('large-unknown.bin'))).to.equal(await sha256Of(generatedBody(LARGE_BODY_BYTES, 'unknown')));
    });

    it('computes the SHA-256, SHA-512 and SHA-1 of an object of many chunks, of an empty one, and refuses a missing one', async () => {
      await storage.put('hashed.bin', generatedBody(LARGE_BODY_BYTES, 'hashed'), { contentLength: LARGE_BODY_BYTES });
      const sha1 = createHash('sha1');
      for await (const chunk of generatedBody(LARGE_BODY_BYTES, 'hashed')) sha1.update(chunk as Buffer);
      expect(await storage.digests('hashed.bin', hashing)).to.deep.equal({
        sha256: await sha256Of(generatedBody(LARGE_BODY_BYTES, 'hashed')),
        sha512: await sha512Of(generatedBody(LARGE_BODY_BYTES, 'hashed')),
        sha1: sha1.digest('hex'),
      });
      await storage.put('empty.bin', Readable.from([]), { contentLength: 0 });
      expect(await storage.digests('empty.bin', hashing)).to.deep.equal({
        sha256: createHash('sha256').digest('hex'),
        sha512: createHash('sha512').digest('base64'),
        sha1: createHash('sha1').digest('hex'),
      });
      const error = await rejectionOf(storage.digests('missing/hashed.bin', hashing));
      expect(error).to.be.instanceOf(ObjectNotFoundError);
    });

    it("computes other kinds of digest (an update signature's BLAKE2b-512 prehash) in the same pass, and refuses a missing object", async () => {
      const prehash = [{ name: 'prehash', algorithm: 'blake2b512', encoding: 'base64' }] as const;
      await storage.put('prehashed.bin', generatedBody(LARGE_BODY_BYTES, 'prehashed'), { contentLength: LARGE_BODY_BYTES });
      const blake2b512 = createHash('blake2b512');
      for await (const chunk of generatedBody(LARGE_BODY_BYTES, 'prehashed')) blake2b512.update(chunk as Buffer);
      expect(await storage.digests('prehashed.bin', hashing, prehash)).to.deep.equal({ prehash: blake2b512.digest('base64') });
      expect(await rejectionOf(storage.digests('missing/prehashed.bin', hashing, prehash))).to.be.instanceOf(ObjectNotFoundError);
    });

    it('lists the keys directly under a directory, up to a limit', async () => {
      for (const key of ['listed/a.bin', 'listed/b.bin', 'listed/nested/c.bin', 'listed-not/d.bin']) {
        await storage.put(key, Readable.from([Buffer.from(key)]));
      }
      expect((await storage.listKeys('listed', 10)).sort()).to.deep.equal(['listed/a.bin', 'listed/b.bin']);
      expect(await storage.listKeys('listed', 1)).to.have.length(1);
      expect(await storage.listKeys('never-written', 10)).to.deep.equal([]);
      await storage.delete('listed/a.bin');
      expect(await storage.listKeys('listed', 10)).to.deep.equal(['listed/b.bin']);
    });

    it('replaces an existing object', async () => {
      await storage.put('replaced.bin', Readable.from(Buffer.from('first version')));
      await storage.put('replaced.bin', Readable.from(Buffer.from('second')));
      expect((await readAll(await storage.getStream('replaced.bin'))).toString()).to.equal('second');
    });

    it('serves inclusive byte ranges', async () => {
      const body = randomBytes(1000);
      await storage.put('ranged.bin', Readable.from(body), { contentLength: body.length });
      const ranges = [
        { start: 0, end: 0 },
        { start: 0, end: 9 },
        { start: 100, end: 499 },
        { start: 999, end: 999 },
        { start: 0, end: 999 },
      ];
      for (const range of ranges.filter((r) => !(gaps.rangeEndingAtZero && r.end === 0))) {
        const bytes = await readAll(await storage.getStream('ranged.bin', range));
        expect(bytes.equals(body.subarray(range.start, range.end + 1)), `bytes ${range.start}-${range.end}`).to.equal(true);
      }
    });

    it('reports a missing object as null on head and ObjectNotFoundError on get', async () => {
      expect(await storage.head('missing/object.bin')).to.equal(null);
      const error = await rejectionOf(storage.getStream('missing/object.bin'));
      expect(error).to.be.instanceOf(ObjectNotFoundError);
      expect((error as ObjectNotFoundError).key).to.equal('missing/object.bin');
    });

    it('deletes idempotently', async () => {
      await storage.delete('never-stored.bin');
      await storage.put('deleted.bin', Readable.from(Buffer.from('bytes')));
      await storage.delete('deleted.bin');
      expect(await storage.head('deleted.bin')).to.equal(null);
      expect(await rejectionOf(storage.getStream('deleted.bin'))).to.be.instanceOf(ObjectNotFoundError);
      await storage.delete('deleted.bin');
    });

    it('keeps keys with nested paths, spaces, unicode and "+" apart', async () => {
      for (const key of AWKWARD_KEYS) await storage.put(key, Readable.from(Buffer.from(`content of ${key}`)));
      for (const key of AWKWARD_KEYS) {
        expect((await storage.head(key))?.size, key).to.equal(Buffer.byteLength(`content of ${key}`));
        expect((await readAll(await storage.getStream(key))).toString(), key).to.equal(`content of ${key}`);
      }
      for (const key of AWKWARD_KEYS) {
        await storage.delete(key);
        expect(await storage.head(key), key).to.equal(null);
      }
    });

    it('moves an object to another key, replacing what was there', async () => {
      await storage.put('staging/upload.bin', Readable.from(Buffer.from('new bytes')));
      await storage.put('files/file.bin', Readable.from(Buffer.from('old bytes')));
      await storage.move('staging/upload.bin', 'files/file.bin');
      expect(await storage.head('staging/upload.bin')).to.equal(null);
      expect((await readAll(await storage.getStream('files/file.bin'))).toString()).to.equal('new bytes');
    });

    it('throws ObjectNotFoundError when moving a missing object', async () => {
      const error = await rejectionOf(storage.move('staging/missing.bin', 'files/file.bin'));
      expect(error).to.be.instanceOf(ObjectNotFoundError);
      expect((error as ObjectNotFoundError).key).to.equal('staging/missing.bin');
      expect(await storage.head('files/file.bin')).to.equal(null);
    });

    it('leaves an object in place when moved onto its own key', async () => {
      await storage.put('files/same.bin', Readable.from(Buffer.from('bytes')));
      await storage.move('files/same.bin', 'files/same.bin');
      expect((await readAll(await storage.getStream('files/same.bin'))).toString()).to.equal('bytes');
    });

    it('moveUnlessPresent moves an object to a free key, and never replaces one that is there', async () => {
      await storage.put('staging/first.bin', Readable.from(Buffer.from('the bytes')));
      expect(await storage.moveUnlessPresent('staging/first.bin', 'files/app/sha256/aa')).to.equal('moved');
      expect(await storage.head('staging/first.bin')).to.equal(null);
      expect((await readAll(await storage.getStream('files/app/sha256/aa'))).toString()).to.equal('the bytes');
      // Other bytes sent to a key that holds an object are dropped; the object stays as it was.
      await storage.put('staging/second.bin', Readable.from(Buffer.from('other bytes')));
      expect(await storage.moveUnlessPresent('staging/second.bin', 'files/app/sha256/aa')).to.equal('present');
      expect(await storage.head('staging/second.bin')).to.equal(null);
      expect((await readAll(await storage.getStream('files/app/sha256/aa'))).toString()).to.equal('the bytes');
      // A repeat whose source is gone finds its object there; with neither, the source is missing.
      expect(await storage.moveUnlessPresent('staging/first.bin', 'files/app/sha256/aa')).to.equal('present');
      const error = await rejectionOf(storage.moveUnlessPresent('staging/missing.bin', 'files/app/sha256/bb'));
      expect(error).to.be.instanceOf(ObjectNotFoundError);
      expect(await storage.head('files/app/sha256/bb')).to.equal(null);
    });

    it('moveUnlessPresent run twice at once onto one key leaves one object and neither source', async () => {
      await storage.put('staging/one.bin', Readable.from(Buffer.from('same bytes')));
      await storage.put('staging/two.bin', Readable.from(Buffer.from('same bytes')));
      const outcomes = await Promise.all([
        storage.moveUnlessPresent('staging/one.bin', 'files/app/sha256/cc'),
        storage.moveUnlessPresent('staging/two.bin', 'files/app/sha256/cc'),
      ]);
      expect(outcomes).to.include('moved');
      expect(await storage.head('staging/one.bin')).to.equal(null);
      expect(await storage.head('staging/two.bin')).to.equal(null);
      expect((await readAll(await storage.getStream('files/app/sha256/cc'))).toString()).to.equal('same bytes');
    });

    it('moves objects between keys with nested paths, spaces, unicode and "+"', async () => {
      for (const key of AWKWARD_KEYS.filter((k) => !(gaps.plusInCopySource && k.includes('+')))) {
        await storage.put(`staging/${key}`, Readable.from(Buffer.from(`content of ${key}`)));
        await storage.move(`staging/${key}`, key);
        expect(await storage.head(`staging/${key}`), key).to.equal(null);
        expect((await readAll(await storage.getStream(key))).toString(), key).to.equal(`content of ${key}`);
      }
    });

    async function expectRefusedBody(put: Promise<unknown>, key: string, problem: BodyLengthError['problem'], limit: number, sentBytes = false) {
      const error = await rejectionOf(put);
      expect(error, String(error)).to.be.instanceOf(BodyLengthError);
      expect(error).to.include({ problem, limit });
      if (!(sentBytes && gaps.keepsCutShortPut)) expect(await storage.head(key), 'nothing stored').to.equal(null);
    }

    it('refuses a body longer than its declared length and stores nothing', async () => {
      await expectRefusedBody(storage.put('too-long.bin', Readable.from(randomBytes(2000)), { contentLength: 1000 }), 'too-long.bin', 'too-long', 1000);
    });

    it('refuses a body shorter than its declared length and stores nothing', async () => {
      // Found short only at its end, once its bytes have gone out: the store must drop them.
      await expectRefusedBody(storage.put('too-short.bin', Readable.from(randomBytes(999)), { contentLength: 1000 }), 'too-short.bin', 'too-short', 1000, true);
    });

    it('stores a body of unknown length up to maxBytes, and refuses one byte more', async () => {
      const { size } = await storage.put('capped.bin', Readable.from([randomBytes(600), randomBytes(400)]), { maxBytes: 1000 });
      expect(size).to.equal(1000);
      expect((await storage.head('capped.bin'))?.size).to.equal(1000);
      await expectRefusedBody(storage.put('over-cap.bin', Readable.from([randomBytes(600), randomBytes(401)]), { maxBytes: 1000 }), 'over-cap.bin', 'too-long', 1000);
    });

    it('refuses a multi-megabyte body of unknown length past maxBytes and stores nothing', async () => {
      await expectRefusedBody(storage.put('over-cap-large.bin', generatedBody(LARGE_BODY_BYTES, 'capped'), { maxBytes: LARGE_BODY_BYTES - 1 }),
        'over-cap-large.bin', 'too-long', LARGE_BODY_BYTES - 1);
    });

    it('refuses a declared length past maxBytes or past the largest put before reading the body', async () => {
      const unread = () => new Readable({
        read() {
          this.destroy(new Error('the body was read'));
        },
      });
      await expectRefusedBody(storage.put('declared-over-cap.bin', unread(), { contentLength: 1001, maxBytes: 1000 }), 'declared-over-cap.bin', 'too-long', 1000);
      await expectRefusedBody(storage.put('declared-huge.bin', unread(), { contentLength: MAX_PUT_BYTES + 1 }), 'declared-huge.bin', 'too-long', MAX_PUT_BYTES);
      await expectRefusedBody(storage.put('capped-huge.bin', unread(), { contentLength: MAX_PUT_BYTES + 1, maxBytes: MAX_PUT_BYTES * 2 }), 'capped-huge.bin', 'too-long', MAX_PUT_BYTES);
    });

    it('pre-signs absolute GET and PUT URLs that name the key and expire', async () => {
      for (const key of AWKWARD_KEYS) {
        expectSignedUrlFor(await storage.presignGet(key, { expiresInSeconds: 300, fileName: 'My Installer.exe' }), key);
        expectSignedUrlFor(await storage.presignPut(key, { expiresInSeconds: 300, contentLength: 10 }), key);
      }
    });

    it('signs a GET from the second it is given, so the caller knows the exact expiry', async () => {
      await storage.put('timed.bin', Readable.from(Buffer.from('timed bytes')));
      const signedAt = Math.floor(Date.now() / 1000);
      const url = await storage.presignGet('timed.bin', { expiresInSeconds: 300, fileName: 'timed.bin', signedAt });
      expect(expirySecondOf(url)).to.equal(signedAt + 300);
      const earlier = await storage.presignGet('timed.bin', { expiresInSeconds: 300, fileName: 'timed.bin', signedAt: signedAt - 3600 });
      expect(expirySecondOf(earlier)).to.equal(signedAt - 3300);
    });

    describe('multipart uploads', () => {
      const key = 'files/app 1/ünï+build.bin';
      /** Three parts, the last one short, each of its own bytes. */
      const partBodies = [randomBytes(PART_BYTES), randomBytes(PART_BYTES), randomBytes(1234)];
      const whole = Buffer.concat(partBodies);

      async function sendParts(uploadId: string, partNumbers: number[]): Promise<Map<number, string>> {
        const etags = new Map<number, string>();
        for (const partNumber of partNumbers) {
          const body = partBodies[partNumber - 1];
          const url = await storage.presignUploadPart(key, uploadId, partNumber, { expiresInSeconds: 300, contentLength: body.length });
          etags.set(partNumber, await fixture.sendPart(url, body));
        }
        return etags;
      }

      const named = (etags: Map<number, string>) => [...etags].sort(([a], [b]) => a - b).map(([partNumber, etag]) => ({ partNumber, etag }));

      it('assembles the parts in part order, whatever order they were sent in, and leaves the key untouched until then', async () => {
        const uploadId = await storage.createMultipartUpload(key, { contentType: 'application/x-test' });
        expect(uploadId).to.be.a('string').and.not.equal('');
        const etags = await sendParts(uploadId, [3, 1, 2]);
        expect(await storage.head(key), 'nothing at the key before completion').to.equal(null);
        const observer = hashing.digester();
        const observed = await storage.completeMultipartUpload(key, uploadId, named(etags), observer);
        expect((await storage.head(key))?.size).to.equal(whole.length);
        const sha256 = createHash('sha256').update(whole).digest('hex');
        expect((await storage.digests(key, hashing)).sha256).to.equal(sha256);
        // An adapter that says it showed the bytes showed all of them, in order.
        if (observed) expect((await observer.digest()).sha256).to.equal(sha256);
        else observer.abort();
      });

      it('pre-signs part URLs that name the key and expire', async () => {
        const uploadId = await storage.createMultipartUpload(key);
        expectSignedUrlFor(await storage.presignUploadPart(key, uploadId, 7, { expiresInSeconds: 300, contentLength: 10 }), key);
      });

      it('lists the parts it holds by number with their sizes and tags, a part sent again replaced by the last PUT', async function () {
        if (gaps.noListParts) this.skip();
        const uploadId = await storage.createMultipartUpload(key);
        expect(await storage.listParts(key, uploadId)).to.deep.equal([]);
        const first = await sendParts(uploadId, [2, 3]);
        const again = await sendParts(uploadId, [2]);
        const listed = await storage.listParts(key, uploadId);
        expect(listed.map(({ partNumber, size }) => ({ partNumber, size }))).to.deep.equal([
          { partNumber: 2, size: PART_BYTES },
          { partNumber: 3, size: 1234 },
        ]);
        expect(listed.map((part) => part.etag)).to.deep.equal([again.get(2), first.get(3)]);
      });

      it('refuses a part of another length than its URL signs', async function () {
        if (gaps.partLengthUnchecked) this.skip();
        const uploadId = await storage.createMultipartUpload(key);
        const url = await storage.presignUploadPart(key, uploadId, 1, { expiresInSeconds: 300, contentLength: 1000 });
        await rejectionOf(fixture.sendPart(url, randomBytes(999)));
        await rejectionOf(fixture.sendPart(url, randomBytes(1001)));
        if (!gaps.noListParts) expect(await storage.listParts(key, uploadId)).to.deep.equal([]);
      });

      it('takes no part and completes nothing more once completed', async function () {
        if (gaps.reopensCompletedUpload) this.skip();
        const uploadId = await storage.createMultipartUpload(key);
        const etags = await sendParts(uploadId, [1, 2, 3]);
        await storage.completeMultipartUpload(key, uploadId, named(etags));
        const url = await storage.presignUploadPart(key, uploadId, 1, { expiresInSeconds: 300, contentLength: PART_BYTES });
        await rejectionOf(fixture.sendPart(url, randomBytes(PART_BYTES)));
        expect(await rejectionOf(storage.completeMultipartUpload(key, uploadId, named(etags)))).to.be.instanceOf(MultipartUploadNotFoundError);
        if (!gaps.noListParts) expect(await rejectionOf(storage.listParts(key, uploadId))).to.be.instanceOf(MultipartUploadNotFoundError);
        expect((await storage.digests(key, hashing)).sha256).to.equal(createHash('sha256').update(whole).digest('hex'));
      });

      it('aborts: the parts are discarded, the upload takes no more, and aborting again succeeds', async function () {
        if (gaps.noAbortMultipartUpload) this.skip();
        await storage.put(key, Readable.from(Buffer.from('published bytes')));
        const uploadId = await storage.createMultipartUpload(key);
        await sendParts(uploadId, [1]);
        await storage.abortMultipartUpload(key, uploadId);
        await storage.abortMultipartUpload(key, uploadId);
        if (!gaps.noListParts) expect(await rejectionOf(storage.listParts(key, uploadId))).to.be.instanceOf(MultipartUploadNotFoundError);
        expect(await rejectionOf(storage.completeMultipartUpload(key, uploadId, [{ partNumber: 1, etag: '"x"' }]))).to.be.instanceOf(MultipartUploadNotFoundError);
        expect((await readAll(await storage.getStream(key))).toString(), 'the key keeps what it held').to.equal('published bytes');
      });

      it('refuses a completion naming no part, parts out of order, or a part it does not hold, and assembles nothing', async () => {
        const uploadId = await storage.createMultipartUpload(key);
        const etags = await sendParts(uploadId, [1, 2]);
        const [one, two] = named(etags);
        for (const parts of [[], [two, one], [one, one]]) {
          expect(await rejectionOf(storage.completeMultipartUpload(key, uploadId, parts)), JSON.stringify(parts)).to.be.instanceOf(MultipartPartsError);
        }
        if (!gaps.partEtagsUnchecked) {
          const error = await rejectionOf(storage.completeMultipartUpload(key, uploadId, [one, { partNumber: 2, etag: one.etag }]));
          expect(error, String(error)).to.be.instanceOf(MultipartPartsError);
        }
        expect(await storage.head(key)).to.equal(null);
        await storage.completeMultipartUpload(key, uploadId, [one, two]);
        expect((await storage.head(key))?.size).to.equal(2 * PART_BYTES);
      });

      it('reports an upload it never opened as not found', async function () {
        if (gaps.noListParts) this.skip();
        expect(await rejectionOf(storage.listParts(key, 'never-opened'))).to.be.instanceOf(MultipartUploadNotFoundError);
      });
    });

    it('answers ping', async () => {
      await storage.ping();
    });
  });

  describe('ObjectStorage contract, store not there', () => {
    it('raises DependencyUnavailableError from every operation that needs the store', async () => {
      const gone = await createGone();
      try {
        const attempts: Record<string, () => Promise<unknown>> = {
          ping: () => gone.storage.ping(),
          'put of a known length': () => gone.storage.put('gone/known.bin', Readable.from([Buffer.from('bytes')]), { contentLength: 5 }),
          'put of an unknown length': () => gone.storage.put('gone/unknown.bin', Readable.from([Buffer.from('bytes')])),
          getStream: () => gone.storage.getStream('gone/object.bin'),
          digests: () => gone.storage.digests('gone/object.bin', hashInProcess),
          listKeys: () => gone.storage.listKeys('gone', 10),
          move: () => gone.storage.move('gone/staged.bin', 'gone/object.bin'),
          moveUnlessPresent: () => gone.storage.moveUnlessPresent('gone/staged.bin', 'gone/object.bin'),
          createMultipartUpload: () => gone.storage.createMultipartUpload('gone/object.bin'),
        };
        for (const [operation, attempt] of Object.entries(attempts)) {
          const error = await rejectionOf(attempt());
          expect(error, `${operation}: ${String(error)}`).to.be.instanceOf(DependencyUnavailableError);
        }
      } finally {
        await gone.dispose();
      }
    });
  });
}

/** What the gateway's PUT route does with an embedded part URL: verify the grant, then store the part within its signed length. */
async function sendPartThroughSignedAccess(storage: LocalStorage, url: string, body: Buffer): Promise<string> {
  const access = storage.signedAccess();
  const parsed = new URL(url);
  const key = parsed.pathname.slice(access.path.length + 1).split('/').map(decodeURIComponent).join('/');
  const { verdict, grant } = access.verify('PUT', key, parsed.searchParams);
  if (verdict !== 'valid' || grant?.uploadId === undefined || grant.partNumber === undefined) throw new Error(`not a valid part URL: ${verdict}`);
  const part = await access.putPart(grant.uploadId, grant.partNumber, Readable.from([body]), { contentLength: grant.contentLength });
  return part.etag;
}

/** A client's PUT of a part to S3: the part's tag is in the ETag header. */
async function sendPartToS3(url: string, body: Buffer): Promise<string> {
  const response = await fetch(url, { method: 'PUT', body });
  if (!response.ok) throw new Error(`S3 refused the part: ${response.status} ${await response.text()}`);
  const etag = response.headers.get('etag');
  if (etag === null) throw new Error('S3 sent no ETag');
  return etag;
}

describe('LocalStorage', () => {
  async function localStore(): Promise<StorageFixture & { dir: string }> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'local-storage-'));
    const storage = new LocalStorage(dir, 'http://127.0.0.1:1', new UrlSigner(randomBytes(32)));
    return {
      dir,
      storage,
      sendPart: (url, body) => sendPartThroughSignedAccess(storage, url, body),
      dispose: async () => {
        await storage.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }

  objectStorageContract(localStore, async () => {
    // The data directory deleted or unmounted under a running process.
    const store = await localStore();
    await rm(store.dir, { recursive: true, force: true });
    return store;
  });
});

describe('S3Storage on s3rver', () => {
  let server: S3rverProcess;

  before(async () => {
    server = await startS3rver();
  });

  after(async () => {
    await server.stop();
  });

  const configFor = (bucket: string): S3Config => ({
    endpoint: server.endpoint,
    bucket,
    region: 'us-east-1',
    ...S3RVER_CREDENTIALS,
    forcePathStyle: true,
  });

  /** The SigV4 query signature S3 computes for `method` on a pre-signed URL (S3RVER_CREDENTIALS; host the only signed header). */
  function sigV4QuerySignature(method: string, url: string): string {
    const parsed = new URL(url);
    const rfc3986 = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    const query = [...parsed.searchParams].filter(([name]) => name !== 'X-Amz-Signature')
      .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`).sort().join('&');
    const canonical = [method, parsed.pathname, query, `host:${parsed.host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
    const date = parsed.searchParams.get('X-Amz-Date') as string;
    const scope = (parsed.searchParams.get('X-Amz-Credential') as string).split('/').slice(1).join('/');
    const toSign = ['AWS4-HMAC-SHA256', date, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
    const [day, region, service] = scope.split('/');
    let key: Buffer = createHmac('sha256', `AWS4${S3RVER_CREDENTIALS.secretAccessKey}`).update(day).digest();
    for (const part of [region, service, 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
    return createHmac('sha256', key).update(toSign).digest('hex');
  }

  async function freshBucket(): Promise<S3Storage> {
    const config = configFor(`contract-${randomBytes(6).toString('hex')}`);
    await createBucket(config);
    return new S3Storage(config);
  }

  objectStorageContract(async () => {
    const storage = await freshBucket();
    return { storage, sendPart: sendPartToS3, dispose: () => storage.close() };
  }, async () => {
    const storage = new S3Storage(configFor(`never-created-${randomBytes(6).toString('hex')}`));
    return { storage, sendPart: sendPartToS3, dispose: () => storage.close() };
  }, {
    rangeEndingAtZero: true,
    plusInCopySource: true,
    keepsCutShortPut: true,
    noListParts: true,
    noAbortMultipartUpload: true,
    partLengthUnchecked: true,
    reopensCompletedUpload: true,
    partEtagsUnchecked: true,
  });

  describe('a store that fails', () => {
    /** Every operation that talks to the store, on a fresh key each time. */
    async function expectEveryOperationUnavailable(storage: S3Storage): Promise<void> {
      const attempts: Record<string, () => Promise<unknown>> = {
        ping: () => storage.ping(),
        'put of a known length': () => storage.put('failing/known.bin', Readable.from([Buffer.from('bytes')]), { contentLength: 5 }),
        'put of an unknown length': () => storage.put('failing/unknown.bin', Readable.from([Buffer.from('bytes')])),
        head: () => storage.head('failing/object.bin'),
        getStream: () => storage.getStream('failing/object.bin'),
        listKeys: () => storage.listKeys('failing', 10),
        move: () => storage.move('failing/staged.bin', 'failing/object.bin'),
        moveUnlessPresent: () => storage.moveUnlessPresent('failing/staged.bin', 'failing/object.bin'),
        delete: () => storage.delete('failing/object.bin'),
      };
      for (const [operation, attempt] of Object.entries(attempts)) {
        const error = await rejectionOf(attempt());
        expect(error, `${operation}: ${String(error)}`).to.be.instanceOf(DependencyUnavailableError);
      }
    }

    it('raises DependencyUnavailableError when nothing answers at the endpoint', async () => {
      const storage = new S3Storage({ ...configFor('unreachable'), endpoint: `http://127.0.0.1:${await findFreePort()}` });
      try {
        await expectEveryOperationUnavailable(storage);
      } finally {
        await storage.close();
      }
    });

    it('raises DependencyUnavailableError when the store answers with a 5xx', async () => {
      // An S3 endpoint having an outage: every request gets S3's InternalError.
      const failing = http.createServer((request, response) => {
        request.resume();
        response.writeHead(500, { 'content-type': 'application/xml' });
        response.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>');
      });
      await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
      const storage = new S3Storage({ ...configFor('failing'), endpoint: `http://127.0.0.1:${(failing.address() as AddressInfo).port}` });
      try {
        await expectEveryOperationUnavailable(storage);
      } finally {
        await storage.close();
        failing.closeAllConnections();
        await new Promise((resolve) => failing.close(resolve));
      }
    });
  });

  describe('pre-signed URLs served by s3rver', () => {
    let storage: S3Storage;

    beforeEach(async () => {
      storage = await freshBucket();
    });

    afterEach(async () => {
      await storage.close();
    });

    it('downloads the bytes through a pre-signed GET URL, as an attachment', async () => {
      const body = randomBytes(4096);
      const key = AWKWARD_KEYS[2];
      await storage.put(key, Readable.from(body), { contentLength: body.length });
      const fileName = 'Mon installeur ü.bin';
      const url = await storage.presignGet(key, { expiresInSeconds: 60, fileName, contentType: 'application/x-msdownload' });
      const response = await fetch(url);
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-disposition')).to.equal(attachmentDisposition(fileName));
      expect(response.headers.get('content-type')).to.equal('application/x-msdownload');
      expect(Buffer.from(await response.arrayBuffer()).equals(body)).to.equal(true);
    });

    it('answers a pre-signed HEAD URL with the length and refuses a GET of it', async () => {
      const body = randomBytes(2048);
      const key = AWKWARD_KEYS[1];
      await storage.put(key, Readable.from(body), { contentLength: body.length });
      const url = await storage.presignHead(key, { expiresInSeconds: 60, fileName: 'a.bin' });
      const head = await fetch(url, { method: 'HEAD' });
      expect([head.status, head.headers.get('content-length')]).to.deep.equal([200, String(body.length)]);
      // s3rver accepts any SigV4 signature, so the refusal S3 makes is shown by the signature itself:
      // it is the one of a HEAD of this URL, not of a GET.
      const signature = new URL(url).searchParams.get('X-Amz-Signature');
      expect(sigV4QuerySignature('HEAD', url)).to.equal(signature);
      expect(sigV4QuerySignature('GET', url)).not.to.equal(signature);
    });

    it('uploads bytes through a pre-signed PUT URL', async () => {
      const body = randomBytes(3000);
      const key = AWKWARD_KEYS[3];
      const url = await storage.presignPut(key, { expiresInSeconds: 60, contentType: 'application/octet-stream' });
      const response = await fetch(url, { method: 'PUT', body, headers: { 'content-type': 'application/octet-stream' } });
      expect(response.status).to.equal(200);
      expect((await storage.head(key))?.size).to.equal(body.length);
      expect((await readAll(await storage.getStream(key))).equals(body)).to.equal(true);
    });

    it('signs the declared length into a pre-signed PUT URL and carries no checksum', async () => {
      const body = randomBytes(1234);
      const url = await storage.presignPut('sized.bin', { expiresInSeconds: 60, contentLength: body.length });
      const query = new URL(url).searchParams;
      expect(query.get('X-Amz-SignedHeaders')?.split(';')).to.include('content-length');
      expect([...query.keys()].filter((name) => /checksum/i.test(name))).to.deep.equal([]);
      const response = await fetch(url, { method: 'PUT', body });
      expect(response.status).to.equal(200);
      expect((await storage.head('sized.bin'))?.size).to.equal(body.length);
    });

    it('serves a GET signed from the current second and refuses one signed from an hour ago', async () => {
      await storage.put('timed.bin', Readable.from(Buffer.from('timed bytes')));
      const signedAt = Math.floor(Date.now() / 1000);
      const current = await fetch(await storage.presignGet('timed.bin', { expiresInSeconds: 300, fileName: 'timed.bin', signedAt }));
      expect(current.status).to.equal(200);
      expect(Buffer.from(await current.arrayBuffer()).toString()).to.equal('timed bytes');
      const stale = await storage.presignGet('timed.bin', { expiresInSeconds: 300, fileName: 'timed.bin', signedAt: signedAt - 3600 });
      expect((await fetch(stale)).status).to.equal(403);
    });

    it('refuses a pre-signed GET URL once it has expired', async () => {
      await storage.put('expiring.bin', Readable.from(Buffer.from('bytes')));
      const url = await storage.presignGet('expiring.bin', { expiresInSeconds: 1, fileName: 'expiring.bin' });
      // Refused once its second has passed: within a few seconds whatever the clocks' rounding.
      await pollUntil(async () => ((await fetch(url)).status === 403 ? true : undefined), 5_000, 'the expired URL refused');
    });

    it('fails ping while the bucket is missing, and answers once it exists', async () => {
      const config = configFor(`unborn-${randomBytes(6).toString('hex')}`);
      const unborn = new S3Storage(config);
      try {
        expect(await rejectionOf(unborn.ping())).to.be.instanceOf(DependencyUnavailableError);
        await createBucket(config);
        await unborn.ping();
      } finally {
        await unborn.close();
      }
    });

    it('keeps the content type given at upload', async () => {
      await storage.put('typed.bin', Readable.from(Buffer.from('bytes')), { contentType: 'application/zip' });
      expect((await storage.head('typed.bin'))?.contentType).to.equal('application/zip');
    });
  });
});
