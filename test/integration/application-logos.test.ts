import { expect } from 'chai';
import http from 'node:http';
import { Readable } from 'node:stream';
import { LOGO_MAX_BYTES } from '../../shared/policy';
import { logoStorageKey } from '../../shared/uploads/storage-keys';
import { createAdminKey, createApplication, createCustomer, sha256 } from '../support/factories';
import { jpegStart, pngImage, svgImage, webpStart } from '../support/images';
import { createBucket } from '../support/s3-bucket';
import { s3Environment, S3rverProcess, startS3rver } from '../support/s3rver';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Applications' logos: set as raw image bytes by an admin, replaced and removed without leaving the
 * old bytes behind, refused when they are not what they say or too large, and read by the customers
 * who may download the application (with a key, or a token in a header or in the path), on either
 * object storage.
 */
for (const storage of ['local', 'S3'] as const) describe(`application logos (${storage} object storage)`, function () {
  this.timeout(60_000);
  let app: TestApp;
  let s3: S3rverProcess | undefined;

  before(async () => {
    if (storage === 'S3') s3 = await startS3rver();
    app = await startTestApp({ workers: false, env: s3 ? s3Environment(s3, 'application-logos') : {} });
    if (app.config.s3) await createBucket(app.config.s3);
  });
  after(async () => {
    await app?.close();
    await s3?.stop();
  });

  const logoPath = (applicationId: string) => `/v1/management/applications/${applicationId}/logo`;
  const customerLogoPath = (applicationId: string) => `/v1/downloads/applications/${applicationId}/logo`;
  const putLogo = (applicationId: string, bytes: Buffer | Readable, contentType: string | null, key?: string) =>
    app.http.request('PUT', logoPath(applicationId), { key, body: bytes as never, headers: contentType === null ? {} : { 'content-type': contentType } });
  const storedLogos = (applicationId: string) => app.core.storage.listKeys(`logos/${applicationId}`, 100);

  it('sets a logo from its bytes, replaces it (deleting the bytes replaced) and removes it, each audited', async () => {
    const { applicationId } = await createApplication(app);
    const png = pngImage(32);
    const set = await putLogo(applicationId, png, 'image/png');
    expect(set.status, set.raw.toString()).to.equal(200);
    expect(set.body.data.logo).to.include({ contentType: 'image/png', size: png.length, sha256: sha256(png) });
    expect((await app.http.get(`/v1/management/applications/${applicationId}`)).body.data.logo).to.deep.equal(set.body.data.logo);
    expect(await storedLogos(applicationId)).to.deep.equal([logoStorageKey(applicationId, sha256(png))]);
    // Admins read it back (the console's preview) with a key of the read scope.
    const readBack = await app.http.get(logoPath(applicationId), { key: (await createAdminKey(app, { scopes: ['read'] })).apiKey });
    expect([readBack.status, readBack.headers.get('content-type'), readBack.headers.get('etag'), readBack.raw.equals(png)])
      .to.deep.equal([200, 'image/png', `"${sha256(png)}"`, true]);

    const jpeg = jpegStart();
    const replaced = await putLogo(applicationId, jpeg, 'image/jpeg; charset=binary');
    expect(replaced.status, replaced.raw.toString()).to.equal(200);
    expect(replaced.body.data.logo).to.include({ contentType: 'image/jpeg', size: jpeg.length, sha256: sha256(jpeg) });
    expect(await storedLogos(applicationId)).to.deep.equal([logoStorageKey(applicationId, sha256(jpeg))]);

    // The same bytes again: one object, kept.
    expect((await putLogo(applicationId, jpeg, 'image/jpeg')).status).to.equal(200);
    expect(await storedLogos(applicationId)).to.deep.equal([logoStorageKey(applicationId, sha256(jpeg))]);

    const webp = webpStart();
    expect((await putLogo(applicationId, webp, 'image/webp')).body.data.logo).to.include({ contentType: 'image/webp', sha256: sha256(webp) });

    const removed = await app.http.delete(logoPath(applicationId));
    expect(removed.status).to.equal(200);
    expect(removed.body.data.logo).to.equal(null);
    expect(await storedLogos(applicationId)).to.deep.equal([]);
    expect((await app.http.get(logoPath(applicationId))).status).to.equal(404);
    // Removing none is no change.
    expect((await app.http.delete(logoPath(applicationId))).body.data.logo).to.equal(null);

    const audit = await app.http.get(`/v1/management/audit?applicationId=${applicationId}&limit=100`);
    const actions = audit.body.data.entries.map((entry: { action: string }) => entry.action);
    expect(actions.filter((action: string) => action === 'application.setLogo')).to.have.length(4);
    expect(actions.filter((action: string) => action === 'application.removeLogo')).to.have.length(2);
  });

  it('keeps only the bytes of the logo the record names when replacements race', async () => {
    const { applicationId } = await createApplication(app);
    const logos = Array.from({ length: 6 }, (_, i) => pngImage(8 + i));
    const answers = await Promise.all(logos.map((png) => putLogo(applicationId, png, 'image/png')));
    expect(answers.map((answer) => answer.status)).to.deep.equal(logos.map(() => 200));
    const { logo } = (await app.http.get(`/v1/management/applications/${applicationId}`)).body.data;
    expect(logos.map((png) => sha256(png))).to.include(logo.sha256);
    expect(await storedLogos(applicationId)).to.deep.equal([logoStorageKey(applicationId, logo.sha256)]);
  });

  it('refuses what is not a PNG, JPEG or WebP image of the declared type, too large, for an unknown application or without the scope, changing nothing', async () => {
    const { applicationId } = await createApplication(app);
    const png = pngImage(16);
    expect((await putLogo(applicationId, png, 'image/png')).status).to.equal(200);
    const before = (await app.http.get(`/v1/management/applications/${applicationId}`)).body.data;
    const readKey = (await createAdminKey(app, { scopes: ['read'] })).apiKey;
    const otherAppKey = (await createAdminKey(app, { scopes: ['manage'], applicationIds: [(await createApplication(app)).applicationId] })).apiKey;
    const oversize = Buffer.concat([png, Buffer.alloc(LOGO_MAX_BYTES + 1 - png.length)]);

    const refusals: Array<[string, () => ReturnType<typeof putLogo>, number, RegExp]> = [
      ['SVG', () => putLogo(applicationId, svgImage(), 'image/svg+xml'), 415, /image\/png, image\/jpeg, image\/webp/],
      ['GIF', () => putLogo(applicationId, Buffer.from('GIF89a'), 'image/gif'), 415, /image\/png/],
      ['a JSON body', () => app.http.request('PUT', logoPath(applicationId), { json: { logo: 'x' } }), 415, /image\/png/],
      ['no Content-Type', () => putLogo(applicationId, png, null), 415, /image\/png/],
      ['an SVG sent as PNG', () => putLogo(applicationId, svgImage(), 'image/png'), 400, /not a PNG image/],
      ['a PNG sent as JPEG', () => putLogo(applicationId, png, 'image/jpeg'), 400, /a PNG image/],
      ['a WebP sent as PNG', () => putLogo(applicationId, webpStart(), 'image/png'), 400, /a WebP image/],
      ['an empty body', () => putLogo(applicationId, Buffer.alloc(0), 'image/png'), 400, /not a PNG image/],
      ['a declared length over the limit', () => putLogo(applicationId, oversize, 'image/png'), 413, /at most 524288 bytes/],
      ['a chunked body over the limit', () => putLogo(applicationId, Readable.from([oversize.subarray(0, 300_000), oversize.subarray(300_000)]), 'image/png'), 413, /at most/],
      ['an unknown application', () => putLogo('no-such-app', png, 'image/png'), 404, /not found/],
      ['a key without the manage scope', () => putLogo(applicationId, pngImage(8), 'image/png', readKey), 403, /scope/],
      ['a key limited to another application', () => putLogo(applicationId, pngImage(8), 'image/png', otherAppKey), 403, /application/],
      ['a gzip-encoded body', () => app.http.request('PUT', logoPath(applicationId), { body: png, headers: { 'content-type': 'image/png', 'content-encoding': 'gzip' } }), 415, /.+/],
    ];
    for (const [what, send, status, message] of refusals) {
      const res = await send();
      expect(res.status, `${what}: ${res.raw.toString()}`).to.equal(status);
      expect(res.body.success, what).to.equal(false);
      expect(res.body.error.message, what).to.match(message);
    }
    expect((await app.http.delete(logoPath('no-such-app'))).status).to.equal(404);
    expect((await app.http.request('DELETE', logoPath(applicationId), { key: readKey })).status).to.equal(403);
    expect((await app.http.get(`/v1/management/applications/${applicationId}`)).body.data).to.deep.equal(before);
    expect(await storedLogos(applicationId)).to.deep.equal([logoStorageKey(applicationId, sha256(png))]);
  });

  it('answers 413 at the byte past the limit of a body that never ends, without waiting for the rest', async () => {
    const { applicationId } = await createApplication(app);
    const url = new URL(`${app.baseUrl}${logoPath(applicationId)}`);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(url, { method: 'PUT', headers: { authorization: `Bearer ${app.adminKey}`, 'content-type': 'image/png', 'transfer-encoding': 'chunked' } });
      request.on('error', reject);
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk) => { body += chunk; });
        response.on('end', () => {
          request.destroy();
          resolve({ status: response.statusCode ?? 0, body });
        });
      });
      // More than the limit, and the body is never ended.
      request.write(Buffer.concat([pngImage(8), Buffer.alloc(LOGO_MAX_BYTES + 64 * 1024)]));
    });
    expect(answer.status).to.equal(413);
    expect(JSON.parse(answer.body).error.code).to.equal('PAYLOAD_TOO_LARGE');
    expect((await app.http.get(`/v1/management/applications/${applicationId}`)).body.data.logo).to.equal(null);
  });

  it('answers the logo to customers who may download the application, by key, token header or token path, and 404 to others', async () => {
    const alice = await createCustomer(app);
    const bob = await createCustomer(app);
    const { applicationId } = await createApplication(app, { customerIds: [alice.customerId] });
    const { applicationId: bare } = await createApplication(app, { customerIds: [alice.customerId] });
    const png = pngImage(24);
    await putLogo(applicationId, png, 'image/png');

    const res = await app.http.get(customerLogoPath(applicationId), { key: alice.apiKey });
    expect(res.status).to.equal(200);
    expect(res.raw.equals(png)).to.equal(true);
    expect(res.headers.get('content-type')).to.equal('image/png');
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(res.headers.get('content-security-policy')).to.equal("default-src 'none'");
    expect(res.headers.get('etag')).to.equal(`"${sha256(png)}"`);
    expect(res.headers.get('cache-control')).to.equal('private, no-cache');
    // As a browser revalidates (fetch would add Cache-Control: no-cache, an end-to-end reload, to a conditional request without one).
    const revalidated = await app.http.get(customerLogoPath(applicationId), { key: alice.apiKey, headers: { 'if-none-match': `"${sha256(png)}"`, 'cache-control': 'max-age=0' } });
    expect(revalidated.status).to.equal(304);
    expect(revalidated.raw.length).to.equal(0);
    const head = await app.http.request('HEAD', customerLogoPath(applicationId), { key: alice.apiKey });
    expect([head.status, head.headers.get('content-length')]).to.deep.equal([200, String(png.length)]);

    const listed = await app.http.get('/v1/downloads/applications', { key: alice.apiKey });
    const logoUrls = Object.fromEntries(listed.body.data.applications.map((a: { applicationId: string; logoUrl: string | null }) => [a.applicationId, a.logoUrl]));
    expect(logoUrls).to.deep.equal({ [applicationId]: `${app.config.publicBaseUrl}${customerLogoPath(applicationId)}`, [bare]: null });

    // Another customer, an application without a logo, an unknown one: 404 alike.
    for (const [key, id] of [[bob.apiKey, applicationId], [alice.apiKey, bare], [alice.apiKey, 'no-such-app']]) {
      const refused = await app.http.get(customerLogoPath(id), { key });
      expect(refused.status, `${id}`).to.equal(404);
      expect(refused.body.error.code).to.equal('NOT_FOUND');
    }
    // An admin key is not a customer's.
    expect((await app.http.get(customerLogoPath(applicationId))).status).to.equal(403);

    const token = (await app.http.post(`/v1/management/customers/${alice.customerId}/tokens`, {})).body.data.token as string;
    expect((await app.http.get(customerLogoPath(applicationId), { key: token })).raw.equals(png)).to.equal(true);
    // The path form is outside the API description (its paths carry no prefix): read without the checking client.
    const byPath = await fetch(`${app.baseUrl}/t/${token}${customerLogoPath(applicationId)}`);
    expect([byPath.status, byPath.headers.get('content-type')]).to.deep.equal([200, 'image/png']);
    expect(Buffer.from(await byPath.arrayBuffer()).equals(png)).to.equal(true);
    const listedByPath = await (await fetch(`${app.baseUrl}/t/${token}/v1/downloads/applications`)).json() as { data: { applications: Array<{ logoUrl: string }> } };
    expect(listedByPath.data.applications[0].logoUrl).to.equal(`${app.config.publicBaseUrl}/t/${token}${customerLogoPath(applicationId)}`);
    const limited = (await app.http.post(`/v1/management/customers/${alice.customerId}/tokens`, { applications: [bare] })).body.data.token as string;
    expect((await fetch(`${app.baseUrl}/t/${limited}${customerLogoPath(applicationId)}`)).status).to.equal(404);

    // A replaced logo is answered at once; a removed one is gone.
    const jpeg = jpegStart();
    await putLogo(applicationId, jpeg, 'image/jpeg');
    const after = await app.http.get(customerLogoPath(applicationId), { key: alice.apiKey, headers: { 'if-none-match': `"${sha256(png)}"`, 'cache-control': 'max-age=0' } });
    expect([after.status, after.headers.get('content-type'), after.raw.equals(jpeg)]).to.deep.equal([200, 'image/jpeg', true]);
    // Bytes gone from under the record (a read racing a replacement): 404, not a failure, and no validator.
    await app.core.storage.delete(logoStorageKey(applicationId, sha256(jpeg)));
    const lost = await app.http.get(customerLogoPath(applicationId), { key: alice.apiKey });
    expect([lost.status, lost.body.error.code, lost.headers.get('etag')]).to.deep.equal([404, 'NOT_FOUND', null]);
    await app.http.delete(logoPath(applicationId));
    expect((await app.http.get(customerLogoPath(applicationId), { key: alice.apiKey })).status).to.equal(404);
  });
});
