import { expect } from 'chai';
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { LocalStorage } from '../../shared/storage/local/local-storage';
import { DedicatedRedis, startDedicatedRedis } from '../support/dedicated-redis';
import { createCustomer } from '../support/factories';
import type { HttpResult } from '../support/http-client';
import { RawOutcome, sendRaw } from '../support/raw-http';
import { pollUntil, timed } from '../support/poll';
import { startTestApp, TestApp } from '../support/test-app';

/** An admin-only JSON route. */
const ADMIN_ROUTE = '/v1/management/customers';
const MB = 1024 * 1024;

function expectFailure(response: HttpResult, status: number, code: string): void {
  expect(response.status, response.raw.toString()).to.equal(status);
  expect(response.headers.get('content-type')).to.match(/^application\/json/);
  expect(response.body).to.have.keys('success', 'error');
  expect(response.body.success).to.equal(false);
  expect(response.body.error.code).to.equal(code);
  expect(response.body.error.message).to.be.a('string').that.is.not.empty;
}

describe('gateway basics', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ workers: false });
  });
  after(async () => {
    await app?.close();
  });

  describe('envelope and routing', () => {
    it('answers success in the envelope', async () => {
      const response = await app.http.get('/healthz', { key: null });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      expect(response.body).to.deep.equal({ success: true, data: { status: 'ok' } });
    });

    for (const [method, path] of [['GET', '/nowhere'], ['GET', '/v1/nowhere'], ['DELETE', '/v1/management/nowhere/at/all']]) {
      it(`answers an unknown route (${method} ${path}) with 404 NOT_FOUND`, async () => {
        expectFailure(await app.http.request(method, path), 404, 'NOT_FOUND');
      });
    }

    for (const [method, path] of [['PUT', '/healthz'], ['DELETE', '/readyz'], ['POST', '/healthz']]) {
      it(`answers ${method} ${path} with 405 and an Allow header`, async () => {
        const response = await app.http.request(method, path, { key: null });
        expectFailure(response, 405, 'METHOD_NOT_ALLOWED');
        expect(response.headers.get('allow')?.split(/,\s*/)).to.include.members(['GET', 'HEAD']);
      });
    }

    it('answers a wrong method on a /v1 route with 405 and an Allow header', async () => {
      const response = await app.http.request('PUT', ADMIN_ROUTE);
      expectFailure(response, 405, 'METHOD_NOT_ALLOWED');
      expect(response.headers.get('allow')?.split(/,\s*/)).to.include('GET').and.not.include('PUT');
    });

    it('answers wrong methods on the customer download routes with 405 and their Allow header', async () => {
      const url = await app.http.request('PUT', '/v1/downloads/url');
      expectFailure(url, 405, 'METHOD_NOT_ALLOWED');
      expect(url.headers.get('allow')?.split(/,\s*/)).to.include('GET').and.not.include('PUT');
      const link = await app.http.request('POST', `/v1/downloads/share/${'a'.repeat(43)}`, { key: null });
      expectFailure(link, 405, 'METHOD_NOT_ALLOWED');
      expect(link.headers.get('allow')?.split(/,\s*/)).to.include.members(['GET', 'HEAD', 'DELETE']);
      expectFailure(await app.http.request('GET', '/v1/downloads/elsewhere'), 404, 'NOT_FOUND');
    });

    it('parses and checks the JSON body of a share-link creation like any other', async () => {
      const response = await app.http.request('POST', '/v1/downloads/share', { body: '{"applicationId": ', headers: { 'content-type': 'application/json' } });
      expectFailure(response, 400, 'BAD_REQUEST');
      expect(response.body.error.message).to.match(/JSON/);
    });

    it('answers a method the server does not know with 405 on a known path and 404 elsewhere', async () => {
      const known = await app.http.request('PROPFIND', '/healthz', { key: null });
      expectFailure(known, 405, 'METHOD_NOT_ALLOWED');
      expect(known.headers.get('allow')).to.include('GET');
      expectFailure(await app.http.request('PROPFIND', '/nowhere', { key: null }), 404, 'NOT_FOUND');
    });
  });

  describe('request bodies', () => {
    const send = (body: string | Buffer, contentType: string) =>
      app.http.request('POST', ADMIN_ROUTE, { body, headers: { 'content-type': contentType } });

    it('refuses malformed JSON with 400', async () => {
      for (const body of ['{"name": ', '{name: 1}', 'not json']) {
        const response = await send(body, 'application/json');
        expectFailure(response, 400, 'BAD_REQUEST');
        expect(response.body.error.message).to.match(/JSON/);
      }
    });

    it('answers an unknown path or a wrong method by its route, not by a malformed body', async () => {
      const headers = { 'content-type': 'application/json' };
      expectFailure(await app.http.request('POST', '/v1/nowhere', { body: '{"name": ', headers }), 404, 'NOT_FOUND');
      expectFailure(await app.http.request('PUT', ADMIN_ROUTE, { body: '{"name": ', headers }), 405, 'METHOD_NOT_ALLOWED');
      expectFailure(await app.http.request('POST', '/v1/nowhere', { body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 404, 'NOT_FOUND');
    });

    it('refuses a JSON scalar where an object is expected with 400', async () => {
      expectFailure(await send('"a string"', 'application/json'), 400, 'BAD_REQUEST');
    });

    it('refuses a body over 1 MB with 413', async () => {
      const big = JSON.stringify({ notes: 'x'.repeat(1024 * 1024 + 1) });
      expectFailure(await send(big, 'application/json'), 413, 'PAYLOAD_TOO_LARGE');
    });

    it('refuses a body that is not JSON with 415', async () => {
      expectFailure(await send('name=x', 'application/x-www-form-urlencoded'), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expectFailure(await send('{"name":"x"}', 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('refuses a body over 1 MB sent without a length (chunked) with 413, once read that far', async () => {
      const json = Buffer.from(JSON.stringify({ notes: 'x'.repeat(1024 * 1024 + 1) }));
      const chunked = Buffer.concat([Buffer.from(`${json.length.toString(16)}\r\n`), json, Buffer.from('\r\n0\r\n\r\n')]);
      const outcome = await sendRaw(Number(new URL(app.baseUrl).port), {
        method: 'POST',
        target: ADMIN_ROUTE,
        headers: [['Host', 'localhost'], ['Authorization', `Bearer ${app.adminKey}`], ['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']],
        body: chunked,
      }, 10_000);
      expect(outcome.kind).to.equal('answered');
      const { response } = outcome as Extract<RawOutcome, { kind: 'answered' }>;
      expect(response.status).to.equal(413);
      expect(JSON.parse(response.body.toString()).error.code).to.equal('PAYLOAD_TOO_LARGE');
    });

    it('parses a JSON body with a charset or any application/*+json type, and no other +json type', async () => {
      expectFailure(await send('{}', 'text/x-notes+json'), 415, 'UNSUPPORTED_MEDIA_TYPE');
      for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json', 'application/problem+json', 'application/vnd.api+json']) {
        // Parsed, then refused by the route's validation: the empty object lacks required fields.
        expectFailure(await send('{}', type), 400, 'VALIDATION_ERROR');
        // Parsed, not skipped: malformed JSON is refused as such, whichever JSON type it claims.
        expectFailure(await send('{,}', type), 400, 'BAD_REQUEST');
      }
    });

    it('refuses a multipart body on a route that takes JSON with 415', async () => {
      const form = '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n';
      expectFailure(await send(form, 'multipart/form-data; boundary=b'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });
  });

  describe('request ids', () => {
    it('echoes a sane X-Request-Id', async () => {
      const response = await app.http.get('/healthz', { key: null, headers: { 'x-request-id': 'client-req.42_a' } });
      expect(response.headers.get('x-request-id')).to.equal('client-req.42_a');
    });

    it('generates one when none or an unusable one is sent, on failures too', async () => {
      const none = await app.http.get('/nowhere', { key: null });
      const unusable = await app.http.get('/healthz', { key: null, headers: { 'x-request-id': `bad id ${'x'.repeat(80)}` } });
      const generated = /^[0-9a-f]{16}-[0-9a-z]+-[0-9a-z]+$/;
      expect(none.headers.get('x-request-id')).to.match(generated);
      expect(unusable.headers.get('x-request-id')).to.match(generated);
      expect(none.headers.get('x-request-id')).not.to.equal(unusable.headers.get('x-request-id'));
    });
  });

  describe('authentication', () => {
    it('accepts the admin key', async () => {
      const response = await app.http.get(ADMIN_ROUTE);
      expect(response.status).to.equal(200);
      expect(response.body.success).to.equal(true);
    });

    it('reads the Bearer scheme case-insensitively', async () => {
      const response = await app.http.get(ADMIN_ROUTE, { key: null, headers: { authorization: `bearer ${app.adminKey}` } });
      expect(response.status, response.raw.toString()).to.equal(200);
    });

    it('refuses a request without a key with 401', async () => {
      expectFailure(await app.http.get(ADMIN_ROUTE, { key: null }), 401, 'UNAUTHORIZED');
      const basic = await app.http.get(ADMIN_ROUTE, { key: null, headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } });
      expectFailure(basic, 401, 'UNAUTHORIZED');
    });

    it('refuses garbage keys with 401', async () => {
      const garbage = ['garbage', `${'x'.repeat(20)}.${'y'.repeat(43)}`, `cust-none.${randomBytes(32).toString('base64url')}`];
      for (const key of garbage) expectFailure(await app.http.get(ADMIN_ROUTE, { key }), 401, 'UNAUTHORIZED');
    });

    it('refuses the admin key with one character changed with 401', async () => {
      const key = app.adminKey;
      const last = key[key.length - 1];
      const altered = `${key.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
      expectFailure(await app.http.get(ADMIN_ROUTE, { key: altered }), 401, 'UNAUTHORIZED');
      expectFailure(await app.http.get(ADMIN_ROUTE, { key: `${key}x` }), 401, 'UNAUTHORIZED');
    });

    it('refuses a customer key on an admin route with 403', async () => {
      const customerKey = (await createCustomer(app)).apiKey;
      expectFailure(await app.http.get(ADMIN_ROUTE, { key: customerKey }), 403, 'FORBIDDEN');
    });

    it("refuses an inactive customer's key with 403", async () => {
      const customerKey = (await createCustomer(app, { isActive: false })).apiKey;
      expectFailure(await app.http.get(ADMIN_ROUTE, { key: customerKey }), 403, 'FORBIDDEN');
    });
  });

  describe('admin key rotation', () => {
    const first = `adm_first_${randomBytes(24).toString('hex')}`;
    const second = `adm_second_${randomBytes(24).toString('hex')}`;
    let rotating: TestApp;
    before(async () => {
      rotating = await startTestApp({ env: { ADMIN_API_KEYS: `${first},${second}` }, workers: false, captureLogs: true });
    });
    after(async () => {
      await rotating?.close();
    });

    it('accepts every key of ADMIN_API_KEYS and nothing else', async () => {
      expect((await rotating.http.get(ADMIN_ROUTE, { key: first })).status).to.equal(200);
      expect((await rotating.http.get(ADMIN_ROUTE, { key: second })).status).to.equal(200);
      const stranger = `adm_${randomBytes(24).toString('hex')}`;
      expectFailure(await rotating.http.get(ADMIN_ROUTE, { key: stranger }), 401, 'UNAUTHORIZED');
    });
  });

  describe('request log', () => {
    let logged: TestApp;
    before(async () => {
      logged = await startTestApp({ env: { LOG_LEVEL: 'debug' }, workers: false, captureLogs: true });
    });
    after(async () => {
      await logged?.close();
    });

    it('logs one line per request with id, method, path and status, never keys or URL signatures', async () => {
      const storage = logged.core.storage as LocalStorage;
      await storage.put('log/object.bin', Readable.from([Buffer.from('bytes')]));
      const signedUrl = await storage.presignGet('log/object.bin', { expiresInSeconds: 60, fileName: 'object.bin' });
      const signature = new URL(signedUrl).searchParams.get('X-Signature') as string;
      const customerKey = (await createCustomer(logged)).apiKey;

      await logged.http.get(ADMIN_ROUTE, { headers: { 'x-request-id': 'log-admin' } });
      await logged.http.get(ADMIN_ROUTE, { key: customerKey, headers: { 'x-request-id': 'log-customer' } });
      expect((await logged.http.get(signedUrl, { key: null, headers: { 'x-request-id': 'log-object' } })).status).to.equal(200);

      const requestLine = (id: string) => logged.logs.find((line) => line.requestId === id && line.msg === 'request');
      // The line is written when the request ends, which for a streamed object can be after the client has the body.
      await pollUntil(() => requestLine('log-object'), 5_000, 'the object request\'s log line');
      expect(requestLine('log-object')).to.include({ method: 'GET', path: '/v1/objects/log/object.bin', status: 200 });
      expect(requestLine('log-admin')).to.include({ method: 'GET', path: ADMIN_ROUTE });
      expect(requestLine('log-customer')).to.include({ method: 'GET', path: ADMIN_ROUTE });
      const everything = JSON.stringify(logged.logs);
      for (const secret of [logged.adminKey, customerKey, customerKey.split('.')[1], signature]) {
        expect(everything.includes(secret), 'a secret reached the log').to.equal(false);
      }
    });
  });

  describe('client disconnects', () => {
    let logged: TestApp;
    before(async () => {
      logged = await startTestApp({ workers: false, captureLogs: true });
    });
    after(async () => {
      await logged?.close();
    });

    it('logs an upload the client abandons as such, not as a failed request', async () => {
      const url = await (logged.core.storage as LocalStorage).presignPut('abandoned/upload.bin', { expiresInSeconds: 60, contentLength: 4 * MB });
      const request = http.request(url, { method: 'PUT', agent: false, headers: { 'content-length': String(4 * MB), 'x-request-id': 'gone' } });
      request.on('error', () => undefined);
      request.write(Buffer.alloc(MB));
      // Abandoned once the bytes are being written: the partial file exists.
      const partial = path.join(logged.config.dataDir, 'objects', '.partial');
      await pollUntil(() => (fs.readdirSync(partial).length > 0 ? true : undefined), 5_000, 'the partial file');
      request.destroy();
      const line = await pollUntil(() => logged.logs.find((entry) => entry.requestId === 'gone'), 5_000, 'the log line');
      expect(line.level, JSON.stringify(line)).to.be.below(50);
      expect(line.msg).to.match(/client closed/);
    });
  });

  describe('unexpected errors', () => {
    let broken: TestApp;
    before(async () => {
      broken = await startTestApp({ workers: false, captureLogs: true, sqliteOnly: true });
    });
    after(async () => {
      await broken?.close();
    });

    it('answers 500 INTERNAL_ERROR without internals and logs the error under the request id', async () => {
      expect((await broken.http.get(ADMIN_ROUTE)).status).to.equal(200);
      // A failure no rule expects (a closed store is an outage, answered 503): the table dropped underneath the store.
      const other = new Database(path.join(broken.config.dataDir, 'store.sqlite'));
      other.exec('DROP TABLE customers');
      other.close();
      const response = await broken.http.get(ADMIN_ROUTE, { headers: { 'x-request-id': 'trace-500' } });
      expectFailure(response, 500, 'INTERNAL_ERROR');
      expect(response.body.error).to.deep.equal({ code: 'INTERNAL_ERROR', message: 'an unexpected error occurred' });
      expect(response.raw.toString()).not.to.match(/database|sqlite|stack|\.ts|\.js|at /i);
      const logged = broken.logs.find((line) => line.requestId === 'trace-500' && line.level >= 50);
      expect(logged, JSON.stringify(broken.logs)).to.exist;
      expect(logged?.err?.message).to.be.a('string').that.is.not.empty;
      expect(logged?.err?.stack).to.be.a('string');
    });
  });

  describe('with Redis frozen (connected, never answering)', () => {
    let redis: DedicatedRedis;
    let isolated: TestApp;
    let customerKey: string;
    before(async () => {
      redis = await startDedicatedRedis();
      isolated = await startTestApp({ env: { REDIS_URL: redis.url }, workers: false, captureLogs: true });
      customerKey = (await createCustomer(isolated)).apiKey;
      redis.pause();
    });
    after(async () => {
      redis?.resume();
      await isolated?.close();
      await redis?.dispose();
    });

    it('answers a customer-key request with 503 within the command timeout', async () => {
      const { result, ms } = await timed(() => isolated.http.get(ADMIN_ROUTE, { key: customerKey }));
      expectFailure(result, 503, 'SERVICE_UNAVAILABLE');
      expect(ms).to.be.below(3_000);
    });
  });

  describe('with Redis down', () => {
    let redis: DedicatedRedis;
    let isolated: TestApp;
    let customerKey: string;
    before(async () => {
      redis = await startDedicatedRedis();
      isolated = await startTestApp({ env: { REDIS_URL: redis.url }, workers: false, captureLogs: true });
      customerKey = (await createCustomer(isolated)).apiKey;
      expectFailure(await isolated.http.get(ADMIN_ROUTE, { key: customerKey }), 403, 'FORBIDDEN');
      await redis.stop();
    });
    after(async () => {
      await isolated?.close();
      await redis?.dispose();
    });

    it('answers a customer-key request with 503 at once instead of hanging', async () => {
      const { result, ms } = await timed(() => isolated.http.get(ADMIN_ROUTE, { key: customerKey }));
      expectFailure(result, 503, 'SERVICE_UNAVAILABLE');
      expect(ms).to.be.below(3_000);
    });

    it('still serves admin keys, which need no Redis', async () => {
      const { result, ms } = await timed(() => isolated.http.get(ADMIN_ROUTE));
      expect(result.status).to.equal(200);
      expect(ms).to.be.below(3_000);
    });
  });
});
