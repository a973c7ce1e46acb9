import { expect } from 'chai';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { createCustomer, smallUploadForm } from '../support/factories';
import type { HttpResult } from '../support/http-client';
import { startTestApp, TestApp } from '../support/test-app';

const APPLICATIONS = '/v1/management/applications';

function expectFailure(response: HttpResult, status: number, code: string): void {
  expect(response.status, response.raw.toString()).to.equal(status);
  expect(response.body.success).to.equal(false);
  expect(response.body.error.code).to.equal(code);
}

/**
 * Request bodies with a Content-Encoding: bodies are taken as they are sent, so any coding other
 * than identity is 415 before the body is read (a body that is not what its label says included),
 * nothing is changed, and nothing is a 500.
 */
describe('Content-Encoding of request bodies', () => {
  let app: TestApp;
  let counter = 0;
  before(async () => {
    app = await startTestApp({ workers: false, captureLogs: true });
  });
  after(async () => {
    await app?.close();
  });
  /** Tests after which something was logged at error level; checked last, so every case still runs. */
  const loggedErrors: string[] = [];
  let logged = 0;
  afterEach(function () {
    if (app.logs.slice(logged).some((line) => line.level >= 50)) loggedErrors.push(this.currentTest?.title ?? '');
    logged = app.logs.length;
  });

  const newApplication = () => ({ applicationId: `enc-${Date.now().toString(36)}-${(counter += 1)}`, name: 'Encoded' });
  const postApplication = (body: Buffer, encoding: string) =>
    app.http.request('POST', APPLICATIONS, { body, headers: { 'content-type': 'application/json', 'content-encoding': encoding } });
  const exists = async (applicationId: string) => (await app.http.get(`${APPLICATIONS}/${applicationId}?includeDeleted=true`)).status === 200;

  describe('on a JSON body', () => {
    for (const encoding of ['identity', 'Identity', '']) {
      it(`takes a body labelled ${JSON.stringify(encoding)}`, async () => {
        const application = newApplication();
        const response = await postApplication(Buffer.from(JSON.stringify(application)), encoding);
        expect(response.status, response.raw.toString()).to.equal(201);
        expect(response.body.data.applicationId).to.equal(application.applicationId);
      });
    }

    const bodies: [string, string, (json: Buffer) => Buffer][] = [
      ['a plain body labelled gzip', 'gzip', (json) => json],
      ['a plain body labelled br', 'br', (json) => json],
      ['a plain body labelled deflate', 'deflate', (json) => json],
      ['a truncated gzip body', 'gzip', (json) => gzipSync(json).subarray(0, 20)],
      ['a gzip body', 'gzip', (json) => gzipSync(json)],
      ['a GZIP body', 'GZIP', (json) => gzipSync(json)],
      ['a brotli body', 'br', (json) => brotliCompressSync(json)],
      ['a body coded twice', 'gzip, gzip', (json) => gzipSync(gzipSync(json))],
      ['a body in an unknown coding', 'x-unknown', (json) => json],
    ];
    for (const [what, encoding, encode] of bodies) {
      it(`answers ${what} with 415, changing nothing`, async () => {
        const application = newApplication();
        const response = await postApplication(encode(Buffer.from(JSON.stringify(application))), encoding);
        expectFailure(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
        expect(await exists(application.applicationId)).to.equal(false);
      });
    }

    it('answers a customer-key JSON body labelled gzip with 415', async () => {
      const customer = await createCustomer(app);
      const response = await app.http.request('POST', '/v1/downloads/share', {
        key: customer.apiKey,
        body: Buffer.from(JSON.stringify({ applicationId: 'a', version: '1' })),
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      });
      expectFailure(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });
  });

  describe('on the small upload', () => {
    for (const encoding of ['gzip', 'br']) {
      it(`answers a multipart body labelled ${encoding} with 415, publishing nothing`, async () => {
        const { applicationId } = (await app.http.post(APPLICATIONS, newApplication())).body.data;
        const form = new Response(smallUploadForm({ applicationId, version: '1' }));
        const body = Buffer.from(await form.arrayBuffer());
        const response = await app.http.request('POST', '/v1/management/upload', {
          body,
          headers: { 'content-type': form.headers.get('content-type') as string, 'content-encoding': encoding },
        });
        expectFailure(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
        expect((await app.http.get(`${APPLICATIONS}/${applicationId}/versions`)).body.data.versions).to.deep.equal([]);
      });
    }
  });

  describe('on a signed object PUT', () => {
    for (const encoding of ['gzip', 'br']) {
      it(`answers a body labelled ${encoding} with 415, storing nothing`, async () => {
        const { applicationId } = (await app.http.post(APPLICATIONS, newApplication())).body.data;
        const content = gzipSync(Buffer.alloc(4096, 1));
        const issued = await app.http.post('/v1/management/upload/large-url', {
          applicationId, version: '1', fileName: 'big.bin', fileSize: content.length,
        });
        expect(issued.status, issued.raw.toString()).to.equal(201);
        const response = await app.http.request('PUT', issued.body.data.uploadUrl, {
          key: null,
          body: content,
          headers: { 'content-encoding': encoding },
        });
        expectFailure(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
        const completion = await app.http.post('/v1/management/upload/large-complete', {
          uploadId: issued.body.data.uploadId, applicationId, version: '1', fileName: 'big.bin', fileSize: content.length,
        });
        expect(completion.status, 'the refused PUT left an object behind').to.equal(409);
      });
    }

    it('takes a body labelled identity', async () => {
      const { applicationId } = (await app.http.post(APPLICATIONS, newApplication())).body.data;
      const content = Buffer.alloc(4096, 2);
      const issued = await app.http.post('/v1/management/upload/large-url', {
        applicationId, version: '1', fileName: 'big.bin', fileSize: content.length,
      });
      const response = await app.http.request('PUT', issued.body.data.uploadUrl, { key: null, body: content, headers: { 'content-encoding': 'identity' } });
      expect(response.status, response.raw.toString()).to.equal(200);
    });
  });

  describe('the log', () => {
    it('holds none of these at error level', () => {
      expect(loggedErrors).to.deep.equal([]);
    });
  });
});
