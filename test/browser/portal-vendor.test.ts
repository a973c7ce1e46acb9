import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { checkAndPhotograph, launchBrowser, openPage, WatchedPage } from '../support/browser';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { pngImage } from '../support/images';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The pages people see before any key name the vendor (VENDOR_NAME, VENDOR_LOGO): the portal's
 * sign-in and a share link's error page; once signed in, the portal names the customer. Screenshots:
 * test-output/screenshots/portal-sign-in-vendor-*.png and share-link-error-vendor-*.png.
 */
describe('the vendor on the portal sign-in and the share-link error pages (real Chromium)', function () {
  this.timeout(90_000);
  let app: TestApp;
  let browser: Browser;
  let watched: WatchedPage;
  let logoDir: string;
  const logo = pngImage(96, [200, 60, 20]);

  before(async () => {
    logoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-vendor-'));
    fs.writeFileSync(path.join(logoDir, 'logo.png'), logo);
    app = await startTestApp({ workers: false, env: { VENDOR_NAME: 'Contoso Software', VENDOR_LOGO: path.join(logoDir, 'logo.png') } });
    browser = await launchBrowser();
  });
  beforeEach(async () => {
    watched = await openPage(browser, app.baseUrl);
  });
  afterEach(async () => {
    await watched?.close();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    fs.rmSync(logoDir, { recursive: true, force: true });
  });

  it('answers who the vendor is without a key, and its logo as it was given', async () => {
    expect((await app.http.get('/v1/vendor', { key: null })).body.data).to.deep.equal({ name: 'Contoso Software', logoUrl: '/v1/vendor/logo' });
    const res = await fetch(`${app.baseUrl}/v1/vendor/logo`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(logo)).to.equal(true);
  });

  it("heads the portal's sign-in with the vendor's logo and name, and names the customer once signed in", async () => {
    const customer = await createCustomer(app, { name: 'Acme Corp' });
    const { page } = watched;
    await page.goto('/portal');
    await page.getByRole('heading', { name: 'Sign in to download from Contoso Software' }).waitFor();
    const shown = await page.getByRole('img', { name: 'Contoso Software logo' }).evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth);
    expect(shown).to.equal(96);
    await checkAndPhotograph(page, 'portal-sign-in-vendor');
    await page.getByLabel('Your API key').fill(customer.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as Acme Corp').waitFor();
    watched.assertProblemFree();
  });

  it("names the vendor, with its logo, on a share link's error page", async () => {
    const customer = await createCustomer(app);
    const { applicationId } = await createApplication(app, { customerIds: [customer.customerId] });
    await uploadSmallFile(app, { applicationId, version: '1.0.0', fileName: 'tool.AppImage', platform: 'linux', arch: 'x64', status: 'published' });
    const created = await app.http.post(`/v1/management/customers/${customer.customerId}/share-links`, { applicationId, version: '1.0.0', maxDownloads: 1 });
    expect(created.status).to.equal(201);
    const { shareUrl } = created.body.data as { shareUrl: string };
    const { page } = watched;
    const used = await fetch(`${app.baseUrl}${new URL(shareUrl).pathname}`, { redirect: 'manual' });
    expect(used.status).to.equal(302);
    await page.goto(new URL(shareUrl).pathname);
    await page.getByRole('heading', { name: 'This share link cannot be used' }).waitFor();
    expect(await page.title()).to.equal('This share link cannot be used · Contoso Software');
    await page.getByText('Contoso Software', { exact: true }).waitFor();
    expect(await page.getByRole('img', { name: 'Contoso Software' }).evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth)).to.equal(96);
    await checkAndPhotograph(page, 'share-link-error-vendor');
  });

  it('refuses to start with a logo that is no image, saying which variable', async () => {
    fs.writeFileSync(path.join(logoDir, 'not-an-image.png'), 'hello');
    const { loadConfig } = await import('../../shared/config');
    expect(() => loadConfig({ ...process.env, VENDOR_LOGO: path.join(logoDir, 'not-an-image.png'), VENDOR_NAME: 'x'.repeat(101) }))
      .to.throw(/VENDOR_NAME must be one line[\s\S]*VENDOR_LOGO must be a PNG, JPEG or WebP file/);
  });
});
