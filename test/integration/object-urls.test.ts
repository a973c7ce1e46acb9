import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { SEND_CHUNK_BYTES } from '../../gateway/http/send-file-range';
import { MAX_BYTE_RANGES } from '../../shared/policy';
import { LocalStorage } from '../../shared/storage/local/local-storage';
import type { HttpResult } from '../support/http-client';
import { parseByteranges } from '../support/multipart-byteranges';
import { statusForHeadersOnly } from '../support/headers-only';
import { pollUntil } from '../support/poll';
import { s3Environment, S3rverProcess, startS3rver } from '../support/s3rver';
import { startTestApp, TestApp } from '../support/test-app';

const MB = 1024 * 1024;

function expectRefused(response: HttpResult, status: number, code: string): void {
  expect(response.status, response.raw.toString()).to.equal(status);
  expect(response.headers.get('content-type')).to.match(/^application\/json/);
  expect(response.body.success).to.equal(false);
  expect(response.body.error.code).to.equal(code);
}

/** `count` chunks of `chunk`, produced on demand: the body never exists in memory as a whole. */
function repeated(chunk: Buffer, count: number): Readable {
  return Readable.from((function* () {
    for (let i = 0; i < count; i += 1) yield chunk;
  })());
}

/** PUTs a stream with node:http (no body buffering on the client side); resolves with the response. */
function streamPut(url: string, body: Readable, headers: http.OutgoingHttpHeaders): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'PUT', headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    body.pipe(request);
  });
}

const sha256Hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** GETs a URL with node:http, pausing after every chunk it receives; resolves with the SHA-256 of the body. */
function slowDownloadSha256(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`HTTP ${response.statusCode}`));
      const hash = createHash('sha256');
      response.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        response.pause();
        setTimeout(() => response.resume(), 1);
      });
      response.on('end', () => resolve(hash.digest('hex')));
      response.on('error', reject);
    }).on('error', reject);
  });
}

/** Replaces one query parameter of a signed URL. */
function withParam(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.toString();
}

/** The RFC 5987 file name of a Content-Disposition header. */
function extendedFileName(disposition: string | null): string | undefined {
  const match = /filename\*=UTF-8''([^;]+)/.exec(disposition ?? '');
  return match ? decodeURIComponent(match[1]) : undefined;
}

describe('signed object URLs (embedded storage)', () => {
  let app: TestApp;
  let storage: LocalStorage;
  const key = (name: string) => `test/${randomBytes(6).toString('hex')}/${name}`;
  const partialFiles = () => fs.readdirSync(path.join(app.config.dataDir, 'objects', '.partial'));

  before(async () => {
    app = await startTestApp({ workers: false });
    expect(app.core.storage).to.be.instanceOf(LocalStorage);
    storage = app.core.storage as LocalStorage;
  });
  after(async () => {
    await app?.close();
  });

  describe('upload URL', () => {
    it('stores the bytes of a PUT sent without a bearer key', async () => {
      const objectKey = key('setup.exe');
      const content = randomBytes(64 * 1024);
      const url = await storage.presignPut(objectKey, { expiresInSeconds: 300, contentLength: content.length });
      const response = await app.http.request('PUT', url, {
        key: null,
        body: content,
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(response.status, response.raw.toString()).to.equal(200);
      expect(response.body).to.deep.equal({ success: true, data: { size: content.length } });
      const stored = Buffer.concat(await (await storage.getStream(objectKey)).toArray());
      expect(stored.equals(content)).to.equal(true);
    });

    it('refuses a declared body larger than the signed length with 413 and stores nothing', async () => {
      const objectKey = key('big.bin');
      const url = await storage.presignPut(objectKey, { expiresInSeconds: 300, contentLength: 1000 });
      const response = await app.http.request('PUT', url, { key: null, body: randomBytes(2000) });
      expectRefused(response, 413, 'PAYLOAD_TOO_LARGE');
      expect(await storage.head(objectKey)).to.equal(null);
      expect(partialFiles()).to.deep.equal([]);
    });

    it('refuses a declared length of 2^31 bytes or more at once, before any body arrives', async () => {
      for (const declared of [2 ** 31, 2 ** 32 + 10, 6 * 1024 ** 3]) {
        const objectKey = key('huge.bin');
        const signed = await storage.presignPut(objectKey, { expiresInSeconds: 300, contentLength: 1000 });
        expect(await statusForHeadersOnly(signed, 'PUT', { 'content-length': String(declared) })).to.equal(413);
        expect(await storage.head(objectKey)).to.equal(null);
      }
      // Without a signed length the cap is the largest object (5 GiB): 2^32 + 10 passes it, 6 GiB does not.
      const unsized = await storage.presignPut(key('unsized.bin'), { expiresInSeconds: 300 });
      expect(await statusForHeadersOnly(unsized, 'PUT', { 'content-length': String(6 * 1024 ** 3) })).to.equal(413);
    });

    it('refuses a streamed body that outgrows the signed length with 413 and stores nothing', async () => {
      const objectKey = key('big-stream.bin');
      const url = await storage.presignPut(objectKey, { expiresInSeconds: 300, contentLength: 1000 });
      // No Content-Length: chunked, so the limit is found while streaming.
      const response = await streamPut(url, repeated(randomBytes(64 * 1024), 64), { 'content-type': 'application/octet-stream' });
      expect(response.status, response.body).to.equal(413);
      expect(JSON.parse(response.body).error.code).to.equal('PAYLOAD_TOO_LARGE');
      expect(await storage.head(objectKey)).to.equal(null);
      expect(partialFiles()).to.deep.equal([]);
    });

    it('keeps nothing of an upload the client abandons midway', async () => {
      const objectKey = key('abandoned.bin');
      const url = await storage.presignPut(objectKey, { expiresInSeconds: 300, contentLength: 4 * MB });
      const request = http.request(url, { method: 'PUT', agent: false, headers: { 'content-length': String(4 * MB) } });
      request.on('error', () => undefined);
      request.write(randomBytes(MB));
      await pollUntil(() => (partialFiles().length > 0 ? true : undefined), 5_000, 'the partial file');
      request.destroy();
      await pollUntil(() => (partialFiles().length === 0 ? true : undefined), 5_000, 'removal of the partial file');
      expect(await storage.head(objectKey)).to.equal(null);
    });

    it('refuses a PUT with a GET URL, and a GET with a PUT URL, with 403', async () => {
      const objectKey = key('a.bin');
      await storage.put(objectKey, Readable.from([Buffer.from('content')]));
      const getUrl = await storage.presignGet(objectKey, { expiresInSeconds: 300, fileName: 'a.bin' });
      const putUrl = await storage.presignPut(objectKey, { expiresInSeconds: 300 });
      expectRefused(await app.http.request('PUT', getUrl, { key: null, body: 'replaced' }), 403, 'FORBIDDEN');
      expectRefused(await app.http.get(putUrl, { key: null }), 403, 'FORBIDDEN');
      expectRefused(await app.http.request('PUT', withParam(putUrl, 'X-Method', 'GET'), { key: null, body: 'x' }), 403, 'FORBIDDEN');
      const stored = Buffer.concat(await (await storage.getStream(objectKey)).toArray());
      expect(stored.toString()).to.equal('content');
    });

    it('streams a 64 MB upload without holding it in memory', async function () {
      this.timeout(60_000);
      const objectKey = key('large.bin');
      const size = 64 * MB;
      const chunk = randomBytes(MB);
      const expected = createHash('sha256');
      for (let i = 0; i < 64; i += 1) expected.update(chunk);
      const url = await storage.presignPut(objectKey, { expiresInSeconds: 300, contentLength: size });
      // A first streamed upload grows the allocator's pools once; measure past that.
      const warmUp = await storage.presignPut(key('warm-up.bin'), { expiresInSeconds: 300, contentLength: 8 * MB });
      expect((await streamPut(warmUp, repeated(chunk, 8), { 'content-length': String(8 * MB) })).status).to.equal(200);

      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      try {
        const response = await streamPut(url, repeated(chunk, 64), { 'content-length': String(size) });
        expect(response.status, response.body).to.equal(200);
        expect(JSON.parse(response.body).data.size).to.equal(size);
      } finally {
        clearInterval(sampler);
      }
      // The client and the gateway share this process: both together stay well below the body's size.
      expect(peak - before, `RSS grew by ${((peak - before) / MB).toFixed(1)} MB`).to.be.below(40 * MB);

      const stored = createHash('sha256');
      for await (const part of await storage.getStream(objectKey)) stored.update(part as Buffer);
      expect(stored.digest('hex')).to.equal(expected.digest('hex'));
    });
  });

  describe('download URL', () => {
    const content = randomBytes(10_000);
    let objectKey: string;
    let url: string;

    before(async () => {
      objectKey = key('tool-1.2.3.tar.gz');
      await storage.put(objectKey, Readable.from([content]));
      url = await storage.presignGet(objectKey, { expiresInSeconds: 300, fileName: 'tool-1.2.3.tar.gz', contentType: 'application/gzip' });
    });

    it('returns exactly the bytes, as an attachment with the file name, without a bearer key', async () => {
      const response = await app.http.get(url, { key: null });
      expect(response.status).to.equal(200);
      expect(response.raw.equals(content)).to.equal(true);
      expect(response.headers.get('content-type')).to.equal('application/gzip');
      expect(response.headers.get('content-length')).to.equal(String(content.length));
      expect(response.headers.get('accept-ranges')).to.equal('bytes');
      const disposition = response.headers.get('content-disposition');
      expect(disposition).to.match(/^attachment;/).and.include('filename="tool-1.2.3.tar.gz"');
      expect(extendedFileName(disposition)).to.equal('tool-1.2.3.tar.gz');
    });

    it('names a unicode file in the extended parameter with an ASCII fallback', async () => {
      const fileName = 'Установщик «ß» 安装程序 (x64).exe';
      const unicodeUrl = await storage.presignGet(objectKey, { expiresInSeconds: 300, fileName });
      const response = await app.http.get(unicodeUrl, { key: null });
      expect(response.status).to.equal(200);
      const disposition = response.headers.get('content-disposition');
      expect(extendedFileName(disposition)).to.equal(fileName);
      const fallback = /filename="([^"]*)"/.exec(disposition ?? '')?.[1];
      expect(fallback).to.match(/^[\x20-\x7e]+\.exe$/);
      expect(response.headers.get('content-type')).to.equal('application/octet-stream');
    });

    it('answers HEAD with the headers and no body', async () => {
      const response = await app.http.request('HEAD', url, { key: null });
      expect(response.status).to.equal(200);
      expect(response.raw.length).to.equal(0);
      expect(response.headers.get('content-length')).to.equal(String(content.length));
      expect(response.headers.get('accept-ranges')).to.equal('bytes');
      expect(response.headers.get('content-disposition')).to.match(/^attachment;/);
    });

    const ranges: Array<[string, number, number]> = [
      ['bytes=0-99', 0, 99],
      ['bytes=9000-', 9000, 9999],
      ['bytes=-250', 9750, 9999],
      ['bytes=9990-20000', 9990, 9999],
    ];
    for (const [header, start, end] of ranges) {
      it(`serves ${header} as 206 with Content-Range`, async () => {
        const response = await app.http.get(url, { key: null, headers: { range: header } });
        expect(response.status).to.equal(206);
        expect(response.headers.get('content-range')).to.equal(`bytes ${start}-${end}/${content.length}`);
        expect(response.headers.get('content-length')).to.equal(String(end - start + 1));
        expect(response.raw.equals(content.subarray(start, end + 1))).to.equal(true);
      });
    }

    it('answers HEAD with a range as 206 with its length', async () => {
      const response = await app.http.request('HEAD', url, { key: null, headers: { range: 'bytes=-10' } });
      expect(response.status).to.equal(206);
      expect(response.headers.get('content-range')).to.equal(`bytes 9990-9999/${content.length}`);
      expect(response.headers.get('content-length')).to.equal('10');
    });

    it('answers an unsatisfiable range with 416, the size, and the envelope', async () => {
      for (const header of ['bytes=10000-', 'bytes=-0']) {
        const response = await app.http.get(url, { key: null, headers: { range: header } });
        expectRefused(response, 416, 'RANGE_NOT_SATISFIABLE');
        expect(response.headers.get('content-range')).to.equal(`bytes */${content.length}`);
        expect(response.headers.get('content-disposition'), 'the envelope is not the file').to.equal(null);
      }
    });

    it('serves several ranges as multipart/byteranges, each part with its Content-Range, and the exact Content-Length', async () => {
      const response = await app.http.get(url, { key: null, headers: { range: 'bytes=0-1, 5-6,9990-' } });
      expect(response.status).to.equal(206);
      expect(response.headers.get('content-range')).to.equal(null);
      expect(response.headers.get('content-length')).to.equal(String(response.raw.length));
      const parts = parseByteranges(response.headers.get('content-type'), response.raw);
      expect(parts.map((part) => part.contentRange)).to.deep.equal(['bytes 0-1/10000', 'bytes 5-6/10000', 'bytes 9990-9999/10000']);
      expect(parts.every((part) => part.contentType === 'application/gzip')).to.equal(true);
      expect(parts.map((part) => part.bytes.toString('hex'))).to.deep.equal(
        [content.subarray(0, 2), content.subarray(5, 7), content.subarray(9990)].map((bytes) => bytes.toString('hex')));
    });

    it('answers HEAD with several ranges with the multipart length and no body', async () => {
      const get = await app.http.get(url, { key: null, headers: { range: 'bytes=0-9,100-199' } });
      const head = await app.http.request('HEAD', url, { key: null, headers: { range: 'bytes=0-9,100-199' } });
      expect(head.status).to.equal(206);
      expect(head.raw.length).to.equal(0);
      expect(head.headers.get('content-type')).to.match(/^multipart\/byteranges; boundary=/);
      expect(head.headers.get('content-length')).to.equal(get.headers.get('content-length'));
    });

    it('sends one range of several that fall inside the object as a single part, and leaves out those outside', async () => {
      const response = await app.http.get(url, { key: null, headers: { range: 'bytes=100-109,20000-' } });
      expect(response.status).to.equal(206);
      expect(response.headers.get('content-range')).to.equal(`bytes 100-109/${content.length}`);
      expect(response.raw.equals(content.subarray(100, 110))).to.equal(true);
    });

    it(`serves the whole object for ranges that overlap or go backwards, or more than ${MAX_BYTE_RANGES} ranges`, async () => {
      const tooMany = `bytes=${Array.from({ length: MAX_BYTE_RANGES + 1 }, (_, i) => `${i}-${i}`).join(',')}`;
      for (const header of ['bytes=0-99,50-60', 'bytes=100-199,0-9', 'bytes=0-,0-', tooMany]) {
        const response = await app.http.get(url, { key: null, headers: { range: header } });
        expect(response.status, header.slice(0, 40)).to.equal(200);
        expect(response.raw.equals(content)).to.equal(true);
      }
    });

    it('serves an object of many read chunks exactly, whole and by ranges across chunk boundaries', async () => {
      const large = randomBytes(3 * SEND_CHUNK_BYTES + 12_345);
      const largeKey = key('large.bin');
      await storage.put(largeKey, Readable.from([large]));
      const largeUrl = await storage.presignGet(largeKey, { expiresInSeconds: 300, fileName: 'large.bin' });
      const whole = await app.http.get(largeUrl, { key: null });
      expect(whole.status).to.equal(200);
      expect(whole.raw.equals(large)).to.equal(true);
      for (const [start, end] of [[SEND_CHUNK_BYTES - 1, SEND_CHUNK_BYTES], [100, 2 * SEND_CHUNK_BYTES + 100], [SEND_CHUNK_BYTES, large.length - 1]]) {
        const response = await app.http.get(largeUrl, { key: null, headers: { range: `bytes=${start}-${end}` } });
        expect(response.status).to.equal(206);
        expect(response.raw.equals(large.subarray(start, end + 1)), `bytes ${start}-${end}`).to.equal(true);
      }
      // Several ranges across chunk boundaries, in one multipart answer.
      const pieces: Array<[number, number]> = [[0, 0], [SEND_CHUNK_BYTES - 3, SEND_CHUNK_BYTES + 2], [2 * SEND_CHUNK_BYTES, 3 * SEND_CHUNK_BYTES + 100], [large.length - 1, large.length - 1]];
      const response = await app.http.get(largeUrl, { key: null, headers: { range: `bytes=${pieces.map(([start, end]) => `${start}-${end}`).join(', ')}` } });
      expect(response.status).to.equal(206);
      expect(response.headers.get('content-length')).to.equal(String(response.raw.length));
      const parts = parseByteranges(response.headers.get('content-type'), response.raw);
      expect(parts.map((part) => part.contentRange)).to.deep.equal(pieces.map(([start, end]) => `bytes ${start}-${end}/${large.length}`));
      for (const [index, [start, end]] of pieces.entries()) expect(parts[index].bytes.equals(large.subarray(start, end + 1)), `part ${index}`).to.equal(true);
    });

    it('serves an empty object', async () => {
      const emptyKey = key('empty.bin');
      await storage.put(emptyKey, Readable.from([]));
      const response = await app.http.get(await storage.presignGet(emptyKey, { expiresInSeconds: 300, fileName: 'empty.bin' }), { key: null });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-length')).to.equal('0');
      expect(response.raw.length).to.equal(0);
    });

    it('gives every one of concurrent slow downloads its own object\'s bytes', async function () {
      this.timeout(60_000);
      // Slow readers fill the sockets' buffers and keep writes pending: a buffer reused too early would
      // show up in another download.
      const objects = await Promise.all(['a', 'b', 'c', 'd'].map(async (name) => {
        const bytes = randomBytes(16 * MB + 777);
        const objectKey = key(`${name}.bin`);
        await storage.put(objectKey, Readable.from([bytes]));
        return { sha256: sha256Hex(bytes), url: await storage.presignGet(objectKey, { expiresInSeconds: 300, fileName: `${name}.bin` }) };
      }));
      const downloads = [...objects, ...objects].map(async ({ sha256, url: objectUrl }) => {
        expect(await slowDownloadSha256(objectUrl)).to.equal(sha256);
      });
      await Promise.all(downloads);
    });

    it('closes the file when the client goes away mid-download, and serves the next download whole', async () => {
      const large = randomBytes(4 * MB);
      const largeKey = key('abandoned.bin');
      await storage.put(largeKey, Readable.from([large]));
      const largeUrl = await storage.presignGet(largeKey, { expiresInSeconds: 300, fileName: 'abandoned.bin' });
      const objectPath = path.join(app.config.dataDir, 'objects', ...largeKey.split('/'));
      const fileOpen = () => fs.readdirSync('/proc/self/fd').some((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`) === objectPath;
        } catch {
          return false;
        }
      });
      await new Promise<void>((resolve, reject) => {
        const request = http.get(largeUrl, { agent: false }, (response) => {
          response.once('data', () => {
            request.destroy();
            resolve();
          });
        });
        request.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
      });
      await pollUntil(() => (fileOpen() ? undefined : true), 5_000, 'the object\'s file closing');
      const again = await app.http.get(largeUrl, { key: null });
      expect(again.raw.equals(large)).to.equal(true);
    });

    it('answers 404 for a signed key that holds no object', async () => {
      const missing = await storage.presignGet(key('missing.bin'), { expiresInSeconds: 300, fileName: 'missing.bin' });
      expectRefused(await app.http.get(missing, { key: null }), 404, 'NOT_FOUND');
      // A key running through an existing object's name: no such object either.
      const beneath = await storage.presignGet(`${objectKey}/inner.bin`, { expiresInSeconds: 300, fileName: 'inner.bin' });
      expectRefused(await app.http.get(beneath, { key: null }), 404, 'NOT_FOUND');
    });
  });

  describe('tampering and expiry', () => {
    let objectKey: string;
    let url: string;

    before(async () => {
      objectKey = key('signed.bin');
      await storage.put(objectKey, Readable.from([Buffer.from('signed content')]));
      url = await storage.presignGet(objectKey, { expiresInSeconds: 300, fileName: 'signed.bin' });
    });

    it('serves the untampered URL', async () => {
      expect((await app.http.get(url, { key: null })).status).to.equal(200);
    });

    it('refuses a tampered signature with 403', async () => {
      const signature = new URL(url).searchParams.get('X-Signature') as string;
      const flipped = `${signature[0] === 'a' ? 'b' : 'a'}${signature.slice(1)}`;
      expectRefused(await app.http.get(withParam(url, 'X-Signature', flipped), { key: null }), 403, 'FORBIDDEN');
      expectRefused(await app.http.get(withParam(url, 'X-Signature', ''), { key: null }), 403, 'FORBIDDEN');
    });

    it('refuses the signature on another key with 403', async () => {
      const other = key('other.bin');
      await storage.put(other, Readable.from([Buffer.from('other content')]));
      const parsed = new URL(url);
      parsed.pathname = `/v1/objects/${other}`;
      expectRefused(await app.http.get(parsed.toString(), { key: null }), 403, 'FORBIDDEN');
    });

    it('refuses an extended expiry or a changed disposition with 403', async () => {
      const expires = Number(new URL(url).searchParams.get('X-Expires'));
      expectRefused(await app.http.get(withParam(url, 'X-Expires', String(expires + 3600)), { key: null }), 403, 'FORBIDDEN');
      expectRefused(await app.http.get(withParam(url, 'X-Disposition', 'inline'), { key: null }), 403, 'FORBIDDEN');
    });

    it('refuses an expired URL with 403', async () => {
      const expired = await storage.presignGet(objectKey, { expiresInSeconds: -1, fileName: 'signed.bin' });
      const response = await app.http.get(expired, { key: null });
      expectRefused(response, 403, 'FORBIDDEN');
      expect(response.body.error.message).to.match(/expired/);
      const expiredPut = await storage.presignPut(key('late.bin'), { expiresInSeconds: -1 });
      expectRefused(await app.http.request('PUT', expiredPut, { key: null, body: 'late' }), 403, 'FORBIDDEN');
    });

    it('refuses a path that tries to leave the object directory', async () => {
      const response = await app.http.get(`${app.baseUrl}/v1/objects/..%2Fstore.sqlite`, { key: null });
      expect(response.status).to.be.oneOf([403, 404]);
      expect(response.body.success).to.equal(false);
    });
  });
});

describe('signed object URLs with S3 configured', () => {
  let s3: S3rverProcess;
  let app: TestApp;

  before(async () => {
    s3 = await startS3rver();
    app = await startTestApp({ workers: false, env: s3Environment(s3, 'signed-by-s3') });
  });
  after(async () => {
    await app?.close();
    await s3?.stop();
  });

  it('are S3\'s own: the gateway serves no object routes', async () => {
    const signed = await app.core.storage.presignPut('apps/setup.exe', { expiresInSeconds: 60 });
    expect(signed.startsWith(`${s3.endpoint}/`), signed).to.equal(true);
    const response = await app.http.get(`${app.baseUrl}/v1/objects/apps/setup.exe?X-Method=GET`, { key: null });
    expectRefused(response, 404, 'NOT_FOUND');
  });
});
