import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { hashSecret } from '../../shared/secrets';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { shareLink } from '../support/records';
import { startTestApp, TestApp } from '../support/test-app';

/** What a browser sends for a page it navigates to. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

async function get(app: TestApp, path: string, accept?: string) {
  const response = await fetch(`${app.baseUrl}${path}`, { redirect: 'manual', headers: accept ? { accept } : {} });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A page's Content-Security-Policy: nothing runs, nothing comes from elsewhere, its one inline style allowed by hash. */
function expectStrictPage(page: { headers: Headers; text: string }) {
  expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
  const policy = page.headers.get('content-security-policy') ?? '';
  expect(policy).to.match(/^default-src 'none'; /);
  expect(policy).not.to.match(/unsafe-inline|unsafe-eval|https?:|\*/);
  expect(page.text).not.to.match(/<script|\son\w+=|(href|src)="(?!\/)/i);
  const style = /<style>([^<]*)<\/style>/.exec(page.text)?.[1] ?? '';
  expect(policy).to.include(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
  expect(page.headers.get('x-content-type-options')).to.equal('nosniff');
}

describe('pages for people with a browser', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ workers: false });
  });
  after(async () => {
    await app?.close();
  });

  it('GET / names the service and leads to the API description, under a strict policy', async () => {
    const page = await get(app, '/', BROWSER_ACCEPT);
    expect(page.status).to.equal(200);
    expectStrictPage(page);
    expect(page.text).to.include('<h1>Binary Distribution Service</h1>');
    expect(page.text).to.include('href="/v1/openapi.json"');
    // The API description lists it, as it lists every route.
    const description = await app.http.get('/v1/openapi.json', { key: null });
    expect(description.body.paths['/'].get.responses['200'].content).to.have.property('text/html');
  });

  describe('a share link that cannot be used', () => {
    let customerKey: string;
    let applicationId: string;
    let customerId: string;
    let fileId: string;
    const share = async (body: Record<string, unknown> = {}) => {
      const created = await app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0', ...body }, { key: customerKey });
      expect(created.status, created.raw.toString()).to.equal(201);
      return created.body.data.token as string;
    };

    before(async () => {
      ({ customerId, apiKey: customerKey } = await createCustomer(app));
      ({ applicationId } = await createApplication(app, { customerIds: [customerId] }));
      ({ fileId } = await uploadSmallFile(app, { applicationId, version: '1.0.0' }));
    });

    /** The page a browser gets and the envelope an API client gets, for the same link. */
    const expectPageAndEnvelope = async (token: string, status: number, words: RegExp) => {
      const page = await get(app, `/v1/downloads/share/${token}`, BROWSER_ACCEPT);
      expect(page.status, page.text).to.equal(status);
      expectStrictPage(page);
      expect(page.text).to.match(words);
      expect(page.text).to.include('Ask the person who shared it with you for a new link.');
      expect(page.text).not.to.include(token);
      for (const accept of ['application/json', '*/*', undefined]) {
        const answer = await get(app, `/v1/downloads/share/${token}`, accept);
        expect(answer.status, String(accept)).to.equal(status);
        expect(answer.headers.get('content-type'), String(accept)).to.match(/^application\/json/);
        expect(JSON.parse(answer.text).success).to.equal(false);
      }
    };

    it('still redirects a browser to the download while it can be used', async () => {
      const token = await share();
      const page = await get(app, `/v1/downloads/share/${token}`, BROWSER_ACCEPT);
      expect(page.status).to.equal(302);
    });

    it('is answered to a browser with a page in words, 410, when used up; JSON to API clients', async () => {
      const token = await share({ maxDownloads: 1 });
      expect((await get(app, `/v1/downloads/share/${token}`)).status).to.equal(302);
      await expectPageAndEnvelope(token, 410, /This share link has been used as many times as it allows\./);
    });

    it('says so when revoked', async () => {
      const token = await share();
      expect((await app.http.delete(`/v1/downloads/share/${token}`, { key: customerKey })).status).to.equal(200);
      await expectPageAndEnvelope(token, 410, /This share link has been revoked\./);
    });

    it('says so when expired', async () => {
      const token = randomBytes(32).toString('base64url');
      await app.core.store.shareLinks.createShareLink(shareLink(hashSecret(token), {
        customerId, applicationId, version: '1.0.0', fileId, expiresAt: new Date(Date.now() - 60_000), createdAt: new Date(Date.now() - 120_000),
      }));
      await expectPageAndEnvelope(token, 410, /This share link has expired\./);
    });

    it('says so when it does not exist, 404', async () => {
      await expectPageAndEnvelope(randomBytes(32).toString('base64url'), 404, /Share link not found\./);
    });
  });
});
