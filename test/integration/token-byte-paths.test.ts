import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
  json: any;
}

/** A request as an update client sends it: no API description, redirects not followed. */
async function send(url: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const response = await fetch(url, { method: init.method ?? 'GET', headers: init.headers, redirect: 'manual' });
  const body = Buffer.from(await response.arrayBuffer());
  const json = response.headers.get('content-type')?.includes('json') && body.length > 0 ? JSON.parse(body.toString()) : undefined;
  return { status: response.status, headers: response.headers, body, json };
}

/** The parts of a `multipart/byteranges` body: each part's Content-Range and bytes. */
function byteRangeParts(answer: Answer): { contentRange: string; bytes: Buffer }[] {
  const boundary = /boundary=(\S+)/.exec(answer.headers.get('content-type') ?? '')?.[1];
  if (!boundary) throw new Error(`not multipart: ${answer.headers.get('content-type')}`);
  const parts: { contentRange: string; bytes: Buffer }[] = [];
  let at = answer.body.indexOf(`--${boundary}\r\n`);
  while (at >= 0) {
    const headEnd = answer.body.indexOf('\r\n\r\n', at);
    const head = answer.body.subarray(at, headEnd).toString('latin1');
    const next = answer.body.indexOf(`\r\n--${boundary}`, headEnd);
    parts.push({ contentRange: /Content-Range: (.+)/.exec(head)?.[1]?.trim() ?? '', bytes: answer.body.subarray(headEnd + 4, next) });
    at = answer.body.indexOf(`--${boundary}\r\n`, next + 2);
  }
  return parts;
}

/**
 * Every path a customer takes to a file's bytes, with an access token: byte ranges count against
 * its bytes and are refused once it is spent (never a redirect to the whole file), a HEAD counts and
 * records nothing, and the package links of Squirrel.Windows and Velopack pass the licence gate.
 */
describe('access tokens on every byte path', function () {
  this.timeout(60_000);
  let app: TestApp;
  let customer: { customerId: string; apiKey: string };
  let applicationId: string;
  const appImage = randomBytes(65_536);
  const nupkg = randomBytes(4_096);

  before(async () => {
    app = await startTestApp({ workers: false, env: { RATE_LIMITS: 'off' } });
    customer = await createCustomer(app);
    ({ applicationId } = await createApplication(app, { customerIds: [customer.customerId] }));
    await uploadSmallFile(app, { applicationId, version: '1.0.0', status: 'published', platform: 'linux', arch: 'x64', fileName: 'app-1.0.0.AppImage', content: appImage });
    await uploadSmallFile(app, { applicationId, version: '1.0.0', status: 'published', platform: 'windows', arch: 'x64', fileName: 'MyApp-1.0.0-full.nupkg', content: nupkg });
  });
  after(() => app?.close());

  const createToken = async (limits: Record<string, unknown>, customerId = customer.customerId) => {
    const created = await app.http.post(`/v1/management/customers/${customerId}/tokens`, limits);
    expect(created.status, created.raw.toString()).to.equal(201);
    return created.body.data as { tokenId: string; token: string };
  };
  const usageOf = async (tokenId: string, customerId = customer.customerId) =>
    (await app.http.get(`/v1/management/customers/${customerId}/tokens/${tokenId}`)).body.data.usage as { downloads: number; bytes: number; clients: number };
  const at = (token: string, path: string) => `${app.baseUrl}/t/${token}${path}`;
  const electronFile = (app_ = applicationId) => `/v1/updates/${app_}/electron/1.0.0/app-1.0.0.AppImage`;
  const squirrelPackage = (app_ = applicationId) => `/v1/updates/${app_}/squirrel-windows/stable/MyApp-1.0.0-full.nupkg`;
  const velopackPackage = (app_ = applicationId) => `/v1/updates/${app_}/velopack/MyApp-1.0.0-full.nupkg`;
  /** The same file as a TUF target: a link a client follows like a feed's. */
  const tufTarget = (app_ = applicationId) => `/v1/tuf/${app_}/targets/1.0.0/app-1.0.0.AppImage`;
  const range = (value: string) => ({ headers: { Range: value } });
  const downloadsOf = async (customerId: string) =>
    (await app.core.store.activity.listEvents({ type: 'download', limit: 100 })).filter((event) => event.customerId === customerId);

  it('answers byte ranges itself and counts their bytes against maxBytes, on feed file links and package links', async () => {
    const { tokenId, token } = await createToken({ maxBytes: 2 * appImage.length });

    const one = await send(at(token, electronFile()), range('bytes=0-999'));
    expect(one.status).to.equal(206);
    expect(one.headers.get('content-range')).to.equal(`bytes 0-999/${appImage.length}`);
    expect(one.body.equals(appImage.subarray(0, 1000))).to.equal(true);
    expect(await usageOf(tokenId)).to.include({ downloads: 0, bytes: 1000, clients: 1 });

    // Several ranges: a multipart answer from here, never a redirect to a URL of the whole file.
    const several = await send(at(token, electronFile()), range('bytes=0-9,20-29'));
    expect(several.status).to.equal(206);
    expect(several.headers.get('location')).to.equal(null);
    expect(byteRangeParts(several)).to.deep.equal([
      { contentRange: `bytes 0-9/${appImage.length}`, bytes: appImage.subarray(0, 10) },
      { contentRange: `bytes 20-29/${appImage.length}`, bytes: appImage.subarray(20, 30) },
    ]);
    expect(Number(several.headers.get('content-length'))).to.equal(several.body.length);
    expect(await usageOf(tokenId)).to.include({ downloads: 0, bytes: 1020 });

    // A package resumed from its start or from the middle, on both package feeds.
    const squirrel = await send(at(token, squirrelPackage()), range('bytes=0-'));
    expect(squirrel.status).to.equal(206);
    expect(squirrel.body.equals(nupkg)).to.equal(true);
    const velopack = await send(at(token, velopackPackage()), range('bytes=100-'));
    expect(velopack.status).to.equal(206);
    expect(velopack.body.equals(nupkg.subarray(100))).to.equal(true);
    expect(await usageOf(tokenId)).to.include({ downloads: 0, bytes: 1020 + 2 * nupkg.length - 100 });

    // A whole download still counts one download and the file's size.
    expect((await send(at(token, electronFile()))).status).to.equal(302);
    const spent = 1020 + 2 * nupkg.length - 100 + appImage.length;
    expect(await usageOf(tokenId)).to.include({ downloads: 1, bytes: spent });

    // What is left is less than the file: a range of all of it is refused with nothing counted; a smaller one fits.
    const refused = await send(at(token, electronFile()), range('bytes=0-'));
    expect(refused.status).to.equal(403);
    expect(refused.json.error.code).to.equal('TOKEN_BYTE_LIMIT_REACHED');
    expect(refused.headers.get('location')).to.equal(null);
    expect((await send(at(token, squirrelPackage()), range('bytes=0-0,2-4095'))).status).to.equal(206);
    expect(await usageOf(tokenId)).to.include({ downloads: 1, bytes: spent + nupkg.length - 1 });
  });

  it('refuses every range of a token whose downloads are spent, single or several, instead of redirecting', async () => {
    const { tokenId, token } = await createToken({ maxDownloads: 1 });
    expect((await send(at(token, electronFile()))).status).to.equal(302);
    for (const path of [electronFile(), squirrelPackage(), velopackPackage(), tufTarget()]) {
      for (const asked of ['bytes=0-', 'bytes=0-0', 'bytes=0-9,20-29', 'bytes=-10']) {
        const refused = await send(at(token, path), range(asked));
        expect(refused.status, `${path} ${asked}`).to.equal(403);
        expect(refused.json.error.code).to.equal('TOKEN_DOWNLOAD_LIMIT_REACHED');
        expect(refused.headers.get('location')).to.equal(null);
      }
      // A Range the service ignores is a whole download: refused as one.
      expect((await send(at(token, path), range('bytes=abc'))).status).to.equal(403);
    }
    expect(await usageOf(tokenId)).to.include({ downloads: 1, bytes: appImage.length });
  });

  it('counts and records nothing for a HEAD of a download URL, a latest link, a feed file link or a package link', async () => {
    const fresh = await createCustomer(app);
    const grant = await app.http.request('PUT', `/v1/management/customers/${fresh.customerId}/applications/${applicationId}`, { json: {} });
    expect(grant.status).to.equal(200);
    const { tokenId, token } = await createToken({ maxDownloads: 1 }, fresh.customerId);
    const paths = [
      `/v1/downloads/url?applicationId=${applicationId}&version=1.0.0&platform=linux&arch=x64`,
      `/v1/downloads/latest/${applicationId}/linux/x64`,
      electronFile(), squirrelPackage(), velopackPackage(), tufTarget(),
    ];
    for (const path of paths) {
      const credentials: { url: string; headers: Record<string, string> }[] = [
        { url: at(token, path), headers: {} },
        { url: `${app.baseUrl}${path}`, headers: { Authorization: `Bearer ${fresh.apiKey}` } },
      ];
      for (const credential of credentials) {
        const head = await send(credential.url, { method: 'HEAD', headers: credential.headers });
        expect(head.status, path).to.be.oneOf([200, 302]);
        const location = head.headers.get('location');
        if (head.status !== 302 || location === null) continue;
        // Where a HEAD is sent it can look, not download: the URL answers HEAD and refuses a GET.
        expect((await fetch(location, { method: 'HEAD' })).status, `HEAD of ${path}'s location`).to.equal(200);
        expect((await fetch(location)).status, `GET of ${path}'s location`).to.equal(403);
      }
    }
    expect(await usageOf(tokenId, fresh.customerId)).to.include({ downloads: 0, bytes: 0 });
    expect(await downloadsOf(fresh.customerId)).to.deep.equal([]);
    // The one download the token has is still there, and a GET records it.
    expect((await send(at(token, paths[0]))).status).to.equal(200);
    expect(await usageOf(tokenId, fresh.customerId)).to.include({ downloads: 1 });
    expect(await downloadsOf(fresh.customerId)).to.have.length(1);
    // Spent now: a HEAD is refused as a GET is, still counting nothing.
    for (const path of paths) {
      const head = await send(at(token, path), { method: 'HEAD' });
      expect([head.status, head.headers.get('location')], path).to.deep.equal([403, null]);
    }
    expect(await usageOf(tokenId, fresh.customerId)).to.include({ downloads: 1 });
  });

  it('holds the package links of Squirrel.Windows and Velopack to the licence gate, ranges included', async () => {
    const { applicationId: licensed } = await createApplication(app, { customerIds: [customer.customerId], licenceText: 'Use it kindly.' });
    await uploadSmallFile(app, { applicationId: licensed, version: '1.0.0', status: 'published', platform: 'windows', arch: 'x64', fileName: 'MyApp-1.0.0-full.nupkg', content: nupkg });
    const headers = { Authorization: `Bearer ${customer.apiKey}` };
    for (const path of [squirrelPackage(licensed), velopackPackage(licensed)]) {
      for (const extra of [{}, { Range: 'bytes=0-' }, { Range: 'bytes=0-9,20-29' }] as Record<string, string>[]) {
        const refused = await send(`${app.baseUrl}${path}`, { headers: { ...headers, ...extra } });
        expect(refused.status, `${path} ${JSON.stringify(extra)}`).to.equal(403);
        expect(refused.json.error.code).to.equal('LICENCE_ACCEPTANCE_REQUIRED');
      }
    }
    expect(await app.core.store.activity.listEvents({ applicationId: licensed, type: 'download', limit: 10 })).to.deep.equal([]);
    const accepted = await app.http.post(`/v1/downloads/licence/${licensed}/accept`, { revision: 1 }, { key: customer.apiKey });
    expect(accepted.status).to.equal(200);
    for (const path of [squirrelPackage(licensed), velopackPackage(licensed)]) expect((await send(`${app.baseUrl}${path}`, { headers })).status).to.equal(302);
  });
});
