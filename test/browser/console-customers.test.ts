import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { checkAndPhotograph, launchBrowser, openPage, WatchedPage } from '../support/browser';
import { signInToConsole } from '../support/console-session';
import { createAdminKey, createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/** The enabled buttons of the page's main area that would change something (none for a read-only key). */
async function enabledWriteButtons(page: Page): Promise<string[]> {
  const names = await page.locator('main button:not([disabled])').allInnerTexts();
  return names.filter((name) => /new|create|revoke|grant|remove|activate|save|delete|rotate|redeliver|disable|enable/i.test(name));
}

describe('console: customers, their keys, access and share links (real Chromium)', function () {
  this.timeout(90_000);
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

  it('creates a customer whose first key is shown once, finds it by search, and manages its access, keys and share links', async () => {
    const { applicationId } = await createApplication(app, { name: 'Studio Desktop' });
    await uploadSmallFile(app, { applicationId, version: '1.0.0', fileName: 'Studio-Setup-1.0.0.exe', platform: 'windows', arch: 'x64' });
    await createCustomer(app, { customerId: 'zeta-industries' });
    const { page } = watched;
    await signInToConsole(page, app.adminKey);
    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('heading', { name: 'Customers' }).waitFor();

    await page.getByRole('button', { name: 'New customer' }).click();
    await page.getByLabel('Name').fill('Acme Robotics');
    await page.getByLabel('Customer id (optional)').fill('acme-robotics');
    await page.getByLabel('Tier', { exact: true }).selectOption('premium');
    await page.getByRole('button', { name: 'Create customer' }).click();
    const firstKey = await page.locator('.shown-once code[data-secret]').innerText();
    expect(await page.locator('.shown-once').innerText()).to.match(/will not be shown again/);
    await page.getByRole('button', { name: /^Copy/ }).waitFor();
    // The key works for the customer, and is gone from the page once the person says it is saved.
    expect((await app.http.get('/v1/me', { key: firstKey })).body.data).to.include({ kind: 'customer', customerId: 'acme-robotics' });
    await page.getByRole('button', { name: 'I have saved it' }).click();
    expect(await page.locator('code[data-secret]').count()).to.equal(0);

    await page.getByRole('link', { name: 'Customer zeta-industries' }).waitFor();
    await page.getByLabel('Search customers').fill('ACME');
    await page.getByRole('link', { name: 'Customer zeta-industries' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Acme Robotics' }).waitFor();
    await checkAndPhotograph(page, 'console-customers');
    await page.getByRole('link', { name: 'Acme Robotics' }).click();
    await page.getByRole('heading', { name: 'Acme Robotics' }).waitFor();

    // Access to the application, then the tier and notes, then deactivated and activated again.
    await page.getByLabel('Application', { exact: true }).first().selectOption(applicationId);
    await page.getByRole('button', { name: 'Grant access' }).click();
    await page.getByRole('button', { name: 'Remove access' }).waitFor();
    expect((await app.http.get(`/v1/management/applications/${applicationId}`)).body.data.customerIds).to.include('acme-robotics');
    await page.getByLabel('Notes').fill('Renewal in March');
    await page.getByRole('button', { name: 'Save tier and notes' }).click();
    await page.getByText('Tier and notes saved.').waitFor();
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('button', { name: 'Activate' }).waitFor();
    expect((await app.http.get('/v1/management/customers/acme-robotics')).body.data).to.include({ isActive: false, notes: 'Renewal in March' });
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.getByRole('button', { name: 'Deactivate' }).waitFor();

    // A second key, shown once, then revoked: it stops working.
    await page.getByRole('button', { name: 'New API key' }).click();
    const secondKey = await page.locator('.shown-once code[data-secret]').innerText();
    expect((await app.http.get('/v1/me', { key: secondKey })).status).to.equal(200);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    // Listed by its prefix, as the service stores it.
    const secondRow = page.getByRole('row').filter({ hasText: secondKey.slice(0, 'acme-robotics'.length + 7) });
    await secondRow.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await secondRow.waitFor({ state: 'detached' });
    expect((await app.http.get('/v1/me', { key: secondKey })).status).to.equal(401);
    expect((await app.http.get('/v1/me', { key: firstKey })).status).to.equal(200);

    // A share link with a cap of two uses: one used, one left, then revoked.
    const links = page.getByRole('region', { name: 'Share links' });
    await links.getByLabel('Application').selectOption(applicationId);
    await links.getByLabel('Download cap').fill('2');
    await links.getByLabel('Lifetime in minutes').fill('30');
    await links.getByRole('button', { name: 'Create share link' }).click();
    const shareUrl = await links.locator('.shown-once code[data-secret]').innerText();
    expect(shareUrl).to.match(/\/v1\/downloads\/share\//);
    const useLink = async () => (await fetch(`${app.baseUrl}${new URL(shareUrl).pathname}`, { redirect: 'manual' })).status;
    expect(await useLink()).to.equal(302);
    await links.getByRole('button', { name: 'I have saved it' }).click();
    await page.reload();
    await links.getByRole('cell', { name: '1 of 2' }).waitFor();
    await checkAndPhotograph(page, 'console-customer');
    await links.getByRole('button', { name: 'Revoke' }).click();
    await links.getByRole('button', { name: 'Yes, revoke' }).click();
    await links.getByText('revoked', { exact: true }).waitFor();
    expect(await useLink()).to.equal(410);
    watched.assertProblemFree();
  });

  it("sets a customer's maintenance window, shows a range semver cannot read beside its field, and a token's own window in its limits", async () => {
    await createCustomer(app, { customerId: 'windowed-co', name: 'Windowed Co' });
    const { page } = watched;
    await signInToConsole(page, app.adminKey);
    await page.goto('/console/customers/windowed-co');
    const card = page.getByRole('region', { name: 'Maintenance window' });
    await card.getByText('No maintenance window').waitFor();
    await card.getByLabel('Versions').fill('not a range');
    await card.getByRole('button', { name: 'Save maintenance window' }).click();
    await card.getByText('must be a semver range such as <3, 2.x or >=1.2.0 <2.0.0').first().waitFor();
    expect((await app.http.get('/v1/management/customers/windowed-co')).body.data.versionRange).to.equal(null);
    await card.getByLabel('Versions').fill('<3');
    await card.getByLabel('Releases published before').fill('2027-03-01');
    await card.getByRole('button', { name: 'Save maintenance window' }).click();
    await card.getByText('Maintenance window saved').waitFor();
    await card.getByText('Offered the newest release in <3 and published before 2027-03-01, never a newer one').waitFor();
    expect((await app.http.get('/v1/management/customers/windowed-co')).body.data).to.include({ versionRange: '<3', updatesUntil: '2027-03-01T00:00:00.000Z' });

    const tokens = page.getByRole('region', { name: 'Access tokens' });
    await tokens.getByLabel('Token versions').fill('2.x');
    await tokens.getByRole('button', { name: 'Create access token' }).click();
    await tokens.getByRole('button', { name: 'I have saved it' }).click();
    await tokens.getByRole('cell', { name: /versions 2\.x/ }).waitFor();
    await checkAndPhotograph(page, 'console-customer-maintenance');
    watched.assertProblemFree();
  });

  it('shows a read-only key no write action on the customer pages, with the reason', async () => {
    const customer = await createCustomer(app, { customerId: 'read-only-view' });
    const { apiKey } = await createAdminKey(app, { scopes: ['read'] });
    const { page } = watched;
    await signInToConsole(page, apiKey);
    await page.goto('/console/customers');
    await page.getByRole('link', { name: /read-only-view/ }).first().waitFor();
    expect(await enabledWriteButtons(page)).to.deep.equal([]);
    expect(await page.locator('main').innerText()).to.include('Your key lacks the manage scope.');
    await page.goto(`/console/customers/${customer.customerId}`);
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByRole('cell', { name: 'never' }).first().waitFor();
    expect(await enabledWriteButtons(page)).to.deep.equal([]);
    expect(await page.locator('main').innerText()).to.include('Your key lacks the manage scope.');
    for (const path of ['/console/webhooks', '/console/admin-keys', '/console/audit']) {
      await page.goto(path);
      await page.locator('main h1').waitFor();
      await page.getByText('Your key lacks the admin scope.', { exact: false }).first().waitFor();
      expect(await enabledWriteButtons(page), path).to.deep.equal([]);
    }
    watched.assertProblemFree();
  });
});
