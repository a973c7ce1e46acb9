import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { AppError, badRequest, notFound } from '../../shared/errors';
import { HashingThreadError, HashingThreads } from '../../shared/hashing-threads/hashing-threads';
import { LocalStorage } from '../../shared/storage/local/local-storage';
import { UrlSigner } from '../../shared/storage/local/url-signer';
import { MultipartOptions, receiveMultipart } from '../../gateway/uploads/receive-multipart';
import { pollUntil } from '../support/poll';
import { rejectionOf } from '../support/rejection';

const BOUNDARY = 'form-boundary';

/** The embedded object store, counting the objects it was asked to write. */
class CountingStorage extends LocalStorage {
  puts = 0;

  override put(...args: Parameters<LocalStorage['put']>) {
    this.puts += 1;
    return super.put(...args);
  }
}

const field = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHeader = (fileName: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
const partEnd = '\r\n';
const closing = `--${BOUNDARY}--\r\n`;

/** A request as the multipart reader sees it: the form's headers and a body sent in these pieces. */
function request(...pieces: (string | Buffer)[]): IncomingMessage {
  const body = Readable.from(pieces.map((piece) => Buffer.from(piece)));
  return Object.assign(body, { headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } }) as unknown as IncomingMessage;
}

describe('receiveMultipart', () => {
  let root: string;
  let storage: CountingStorage;
  const options = (admitFile?: MultipartOptions['admitFile']): MultipartOptions => ({ maxFileBytes: 1024 * 1024, tooLargeMessage: 'too large', admitFile });
  const storedFiles = () => fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());

  // Digests as the gateway computes them: on hashing threads.
  const hashing = new HashingThreads({ threads: 2 });
  after(() => hashing.close());

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-multipart-'));
    storage = new CountingStorage(root, 'http://localhost', new UrlSigner(randomBytes(32)));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('stages an admitted file with both its digests, handing admission the fields sent before it', async () => {
    const content = randomBytes(300_000);
    let admitted: unknown;
    const form = await receiveMultipart(
      request(field('version', '1'), fileHeader('a.bin'), content, partEnd, field('releaseNotes', 'after'), closing),
      storage,
      hashing,
      options((fields, fileName) => {
        admitted = { fields: { ...fields }, fileName };
      }),
    );
    expect(admitted).to.deep.equal({ fields: { version: '1' }, fileName: 'a.bin' });
    expect(form.fields).to.deep.equal({ version: '1', releaseNotes: 'after' });
    expect(form.file).to.include({
      fileName: 'a.bin',
      size: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
      sha512: createHash('sha512').update(content).digest('base64'),
      sha1: createHash('sha1').update(content).digest('hex'),
    });
    expect(storage.puts).to.equal(1);
  });

  it('stores no byte of a file whose admission refuses it, whether it throws or rejects', async () => {
    const refusals: [MultipartOptions['admitFile'], AppError][] = [
      [() => { throw badRequest('bad field'); }, badRequest('bad field')],
      [async () => { throw notFound('no such application'); }, notFound('no such application')],
    ];
    for (const [admitFile, expected] of refusals) {
      const refused = await receiveMultipart(request(field('version', '1'), fileHeader('a.bin'), randomBytes(500_000), partEnd, closing), storage, hashing, options(admitFile))
        .then(() => undefined, (error: AppError) => error);
      expect(refused).to.include({ status: expected.status, message: expected.message });
    }
    expect(storage.puts).to.equal(0);
    expect(storedFiles()).to.deep.equal([]);
  });

  it('answers a body that ends inside a file part with 400, whether the part was being stored or discarded', async () => {
    const otherPart = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="upload"; filename="b.bin"\r\n\r\n`;
    const bodies = [
      [field('version', '1'), fileHeader('a.bin'), randomBytes(300_000)],
      [otherPart, randomBytes(300_000)],
      [field('version', '1'), fileHeader('a.bin'), randomBytes(1000), partEnd, fileHeader('again.bin'), randomBytes(1000)],
    ];
    for (const pieces of bodies) {
      const refused = await receiveMultipart(request(...pieces), storage, hashing, options()).then(() => undefined, (error: AppError) => error);
      expect(refused).to.include({ status: 400 });
    }
    expect(storedFiles()).to.deep.equal([]);
  });

  it('fails the form and leaves nothing staged when a hashing thread stops mid-file', async () => {
    const body = new PassThrough();
    const req = Object.assign(body, { headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } }) as unknown as IncomingMessage;
    const receiving = receiveMultipart(req, storage, hashing, options());
    body.write(field('version', '1') + fileHeader('a.bin'));
    body.write(randomBytes(200_000));
    await pollUntil(() => (storedFiles().length > 0 && hashing.running().length === 2 ? true : undefined), 10_000, 'the file being stored and hashed');
    for (const worker of hashing.running()) await worker.terminate();
    body.end(Buffer.concat([randomBytes(200_000), Buffer.from(partEnd + closing)]));
    expect(await rejectionOf(receiving)).to.be.instanceOf(HashingThreadError);
    expect(storedFiles()).to.deep.equal([]);

    // The next form is hashed on new threads.
    const content = randomBytes(100_000);
    const form = await receiveMultipart(request(field('version', '1'), fileHeader('a.bin'), content, partEnd, closing), storage, hashing, options());
    expect(form.file?.sha512).to.equal(createHash('sha512').update(content).digest('base64'));
  });
});
