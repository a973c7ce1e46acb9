import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { checkAndPhotograph, launchBrowser, openPage, WatchedPage } from '../support/browser';
import { signInToConsole } from '../support/console-session';
import { createAdminKey, createApplication } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

describe('console: signing in, the shell and its security headers (real Chromium)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let browser: Browser;
  let watched: WatchedPage;

  before(async () => {
    app = await startTestApp({ workers: false });
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
  });

  it('serves the console under a strict Content-Security-Policy, with no framing and immutable assets', async () => {
    const page = await fetch(`${app.baseUrl}/console/applications`);
    expect(page.status).to.equal(200);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).to.include("default-src 'none'").and.include("script-src 'self'").and.include("frame-ancestors 'none'");
    expect(policy).not.to.match(/unsafe-inline|unsafe-eval|https?:\/\//);
    // Images from the service, and from blob: URLs the page made (the portal's logos): nothing else.
    expect(policy).to.include("img-src 'self' data: blob:;");
    const html = await page.text();
    expect(html).not.to.match(/<script(?![^>]*\bsrc=)/);
    const asset = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1] as string;
    const script = await fetch(`${app.baseUrl}${asset}`);
    expect(script.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect((await fetch(`${app.baseUrl}/console/assets/..%2f..%2fpackage.json`)).status).to.equal(404);
    expect((await fetch(`${app.baseUrl}/console/assets/missing-file.js`)).status).to.equal(404);
  });

  it('refuses a wrong key in words, signs in with a root key, and signs out clearing the key', async () => {
    const { page } = watched;
    await page.goto('/console');
    await page.getByLabel('Admin key').fill('adm_not-a-real-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(await page.getByRole('alert').innerText()).to.match(/This key is not valid/);
    await checkAndPhotograph(page, 'console-sign-in');

    await page.getByLabel('Admin key').fill(app.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    expect(page.url()).to.equal(`${app.baseUrl}/console/applications`);
    expect(await page.evaluate("sessionStorage.getItem('bds.key')")).to.equal(app.adminKey);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin key').waitFor();
    expect(await page.evaluate("sessionStorage.getItem('bds.key')")).to.equal(null);
    watched.assertProblemFree();
  });

  it('lists applications filtered by tag, and follows a scoped key across a reload', async () => {
    await createApplication(app, { name: 'Desk Tool', tags: ['desktop'] });
    await createApplication(app, { name: 'Server Tool', tags: ['server'] });
    const { apiKey } = await createAdminKey(app, { scopes: ['read'] });
    const { page } = watched;
    await signInToConsole(page, apiKey);
    await expect(await page.locator('nav .who').innerText()).to.match(/read/);
    await page.getByRole('link', { name: 'Desk Tool' }).waitFor();
    await page.getByLabel('Tag').fill('server');
    await page.getByRole('link', { name: 'Desk Tool' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Server Tool' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    await checkAndPhotograph(page, 'console-applications');
    watched.assertProblemFree();
  });
});
