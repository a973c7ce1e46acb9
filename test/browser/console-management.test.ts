import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { checkAndPhotograph, launchBrowser, openPage, WatchedPage } from '../support/browser';
import { signInToConsole } from '../support/console-session';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { generateSparkleKey } from '../support/sparkle-signer';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The console's management flows a vendor needs beside releases: an application's portal branding,
 * licence and keys; draft versions and files deleted; a multi-platform share link; access tokens with
 * limits; a customer deleted. Each page checked by axe at a laptop's and a phone's width and
 * photographed (test-output/screenshots/console-*.png).
 */
describe('console: settings, deletions, access tokens and share links of any file (real Chromium)', function () {
  this.timeout(120_000);
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

  it('edits the portal branding, the licence and its revision, the Sparkle key and the default version status', async () => {
    const { applicationId } = await createApplication(app, { name: 'Branded App' });
    const sparkle = generateSparkleKey();
    const { page } = watched;
    await signInToConsole(page, app.adminKey);
    await page.goto(`/console/applications/${applicationId}`);
    await page.getByRole('heading', { name: 'Branded App' }).waitFor();
    await page.getByRole('button', { name: 'Edit application' }).click();
    await page.getByLabel('Display name').fill('Branded App Pro');
    await page.getByLabel('Accent colour').fill('not a colour');
    await page.getByLabel('Support URL').fill('https://support.example.com/');
    await page.getByLabel('Licence (Markdown)').fill('# Terms\n\nBe kind.');
    await page.getByLabel('Sparkle public key').fill(sparkle.publicKey);
    await page.getByLabel('New versions from uploads start as').selectOption('published');
    await page.getByRole('button', { name: 'Save changes' }).click();
    // The service's word on the one bad field, under it; nothing changed.
    await page.getByText('must be a colour #rrggbb', { exact: true }).waitFor();
    expect((await app.http.get(`/v1/management/applications/${applicationId}`)).body.data.displayName).to.equal(null);
    await page.getByLabel('Accent colour').fill('#336699');
    await checkAndPhotograph(page, 'console-application-settings');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('revision 1: customers accept it before downloading').waitFor();
    const stored = (await app.http.get(`/v1/management/applications/${applicationId}`)).body.data;
    expect(stored).to.include({
      displayName: 'Branded App Pro', accentColour: '#336699', supportUrl: 'https://support.example.com/', licenceText: '# Terms\n\nBe kind.',
      licenceRevision: 1, sparklePublicKey: sparkle.publicKey, defaultVersionStatus: 'published',
    });

    // A higher revision asks every customer again; saving with nothing changed sends nothing.
    await page.getByRole('button', { name: 'Edit application' }).click();
    await page.getByLabel('Licence revision').fill('3');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('revision 3: customers accept it before downloading').waitFor();
    const updatedAt = (await app.http.get(`/v1/management/applications/${applicationId}`)).body.data.updatedAt;
    await page.getByRole('button', { name: 'Edit application' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('button', { name: 'Edit application' }).waitFor();
    expect((await app.http.get(`/v1/management/applications/${applicationId}`)).body.data.updatedAt).to.equal(updatedAt);

    // Cleared again: the licence and the branding removed.
    await page.getByRole('button', { name: 'Edit application' }).click();
    for (const label of ['Display name', 'Accent colour', 'Support URL', 'Licence (Markdown)', 'Licence revision', 'Sparkle public key']) await page.getByLabel(label).fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('none: Sparkle signatures are not verified').waitFor();
    expect((await app.http.get(`/v1/management/applications/${applicationId}`)).body.data).to.include({
      displayName: null, accentColour: null, supportUrl: null, licenceText: null, licenceRevision: null, sparklePublicKey: null,
    });
    watched.assertProblemFree();
  });

  it('shows every column of the files table at every width, each file with its own signature; deletes a file and a draft version', async () => {
    const sparkle = generateSparkleKey();
    const { applicationId } = await createApplication(app, { name: 'Mac App', sparklePublicKey: sparkle.publicKey });
    const dmg = randomBytes(4_000);
    const zip = randomBytes(4_000);
    const version = '2.0.0';
    await uploadSmallFile(app, { applicationId, version, content: dmg, fileName: 'Mac App-2.0.0-universal.dmg', platform: 'macos', arch: 'universal', status: 'draft' });
    await uploadSmallFile(app, { applicationId, version, content: zip, fileName: 'Mac App-2.0.0-universal-mac.zip', fileType: 'UPDATE', platform: 'macos', arch: 'universal' });
    // Each archive signed by its own .sig.
    await uploadSmallFile(app, { applicationId, version, content: Buffer.from(sparkle.sign(dmg)), fileName: 'Mac App-2.0.0-universal.dmg.sig', fileType: 'SIGNATURE', platform: 'macos', arch: 'universal' });
    await uploadSmallFile(app, { applicationId, version, content: Buffer.from(sparkle.sign(zip)), fileName: 'Mac App-2.0.0-universal-mac.zip.sig', fileType: 'SIGNATURE', platform: 'macos', arch: 'universal' });
    await uploadSmallFile(app, { applicationId, version, content: Buffer.from('notes'), fileName: 'README.txt', fileType: 'DOCUMENTATION' });
    const { page } = watched;
    await signInToConsole(page, app.adminKey);
    await page.goto(`/console/applications/${applicationId}/versions/${version}`);
    const table = page.getByRole('table', { name: 'Files by platform, arch and type' });
    await table.waitFor();
    const row = (fileName: string) => table.locator('tr', { has: page.locator('.file-name', { hasText: new RegExp(`^${fileName.replace(/\./g, '\\.')}$`) }) });
    const dmgRow = row('Mac App-2.0.0-universal.dmg');
    expect(await dmgRow.innerText()).to.include('present, verified').and.include('(Mac App-2.0.0-universal.dmg.sig)');
    const zipRow = row('Mac App-2.0.0-universal-mac.zip');
    expect(await zipRow.innerText()).to.include('(Mac App-2.0.0-universal-mac.zip.sig)');
    // Nothing of the table lies beyond the page's right edge, at a laptop's width or a phone's.
    for (const width of [1280, 1024, 768, 390]) {
      await page.setViewportSize({ width, height: 800 });
      const overflow = await page.evaluate(`(() => {
        const table = document.querySelector('.file-matrix');
        const right = Math.max(...[...table.querySelectorAll('th, td')].filter((c) => c.getClientRects().length > 0).map((c) => c.getBoundingClientRect().right));
        return { right, viewport: document.documentElement.clientWidth, scroll: document.documentElement.scrollWidth };
      })()`) as { right: number; viewport: number; scroll: number };
      expect(overflow.right, `width ${width}`).to.be.at.most(overflow.viewport);
      const widest = await page.evaluate(`(() => [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .slice(-3).map((e) => e.tagName + '.' + e.className + ' ' + (e.textContent || '').slice(0, 40)).join(' | '))()`);
      expect(overflow.scroll, `width ${width}: ${widest}`).to.be.at.most(overflow.viewport);
    }
    await checkAndPhotograph(page, 'console-version-files');

    // A draft's file, deleted from its row.
    page.once('dialog', (dialog) => void dialog.accept());
    await table.getByRole('button', { name: 'Delete README.txt' }).click();
    await table.getByText('README.txt').waitFor({ state: 'detached' });
    const files = (await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions[0].files as { fileName: string }[];
    expect(files.map((f) => f.fileName)).not.to.include('README.txt');

    // The draft itself, with its files: back to the application, which has no version left.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete draft' }).click();
    await page.getByText('No version yet.').waitFor();
    expect((await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions).to.deep.equal([]);
    watched.assertProblemFree();
  });

  it('offers a version\'s files for a share link, so a multi-platform application gets one; tokens with limits give a portal link; a customer is deleted', async () => {
    const customer = await createCustomer(app, { customerId: 'northwind', name: 'Northwind Traders' });
    const { applicationId } = await createApplication(app, { name: 'Everywhere', customerIds: [customer.customerId] });
    for (const [fileName, platform, arch] of [['Everywhere Setup 1.0.0.exe', 'windows', 'x64'], ['Everywhere-1.0.0.AppImage', 'linux', 'x64'], ['Everywhere-1.0.0-universal.dmg', 'macos', 'universal']]) {
      await uploadSmallFile(app, { applicationId, version: '1.0.0', content: randomBytes(2_000), fileName, platform, arch, status: 'published' });
    }
    const { page } = watched;
    await signInToConsole(page, app.adminKey);
    await page.goto('/console/customers/northwind');
    await page.getByRole('heading', { name: 'Northwind Traders' }).waitFor();

    const links = page.getByRole('region', { name: 'Share links' });
    await links.getByLabel('Application').selectOption(applicationId);
    await links.getByLabel('File').selectOption({ label: 'Everywhere-1.0.0.AppImage (linux, x64)' });
    await links.getByRole('button', { name: 'Create share link' }).click();
    const shareUrl = await links.locator('.shown-once code[data-secret]').innerText();
    const used = await fetch(`${app.baseUrl}${new URL(shareUrl).pathname}`, { redirect: 'manual' });
    expect(used.status).to.equal(302);
    expect(used.headers.get('location')).to.include('Everywhere-1.0.0.AppImage');
    await links.getByRole('button', { name: 'I have saved it' }).click();
    // Listed by the application's and the file's names.
    await links.getByRole('cell', { name: /Everywhere 1\.0\.0\s+Everywhere-1\.0\.0\.AppImage/ }).waitFor();

    // An access token with limits: its portal link shown once, and it signs in to the portal.
    const tokens = page.getByRole('region', { name: 'Access tokens' });
    await tokens.getByLabel('Token name').fill('Build farm');
    await tokens.getByLabel('Downloads allowed').fill('10');
    await tokens.getByLabel('Limits reset').selectOption('day');
    await tokens.getByRole('button', { name: 'Create access token' }).click();
    const portalUrl = await tokens.locator('.shown-once code[data-secret]').innerText();
    expect(portalUrl).to.match(/\/portal#token=/);
    await tokens.getByRole('button', { name: 'Copy portal link' }).waitFor();
    await tokens.getByRole('button', { name: 'I have saved it' }).click();
    await tokens.getByRole('cell', { name: '10 downloads a day · until' , exact: false }).waitFor();
    const [token] = (await app.http.get('/v1/management/customers/northwind/tokens')).body.data.tokens as { tokenId: string; maxDownloads: number; resetEvery: string; validUntil: string }[];
    expect(token).to.include({ maxDownloads: 10, resetEvery: 'day' });
    expect(Date.parse(token.validUntil)).to.be.above(Date.now() + 29 * 86_400_000);
    const raw = decodeURIComponent(new URL(portalUrl).hash.slice('#token='.length));
    expect((await app.http.get('/v1/me', { key: raw })).status).to.equal(200);
    await checkAndPhotograph(page, 'console-customer-tokens');
    await tokens.getByRole('button', { name: 'Revoke' }).click();
    await tokens.getByRole('button', { name: 'Yes, revoke' }).click();
    await tokens.getByText('No active token.').waitFor();
    expect((await app.http.get('/v1/me', { key: raw })).status).to.equal(401);

    // Deleted: its key stops working and the console goes back to the list.
    await page.getByRole('button', { name: 'Delete Northwind Traders' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('heading', { name: 'Customers' }).waitFor();
    expect((await app.http.get('/v1/me', { key: customer.apiKey })).status).to.equal(401);
    expect((await app.http.get('/v1/management/customers/northwind')).status).to.equal(404);
    watched.assertProblemFree();
  });
});
