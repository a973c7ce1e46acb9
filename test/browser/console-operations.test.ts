import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { newEventId } from '../../shared/ids';
import { checkAndPhotograph, launchBrowser, openPage, WatchedPage } from '../support/browser';
import { signInToConsole } from '../support/console-session';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { downloadEvent } from '../support/records';
import { TauriUpdateClient } from '../support/tauri-update-client';
import { startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

describe('console: statistics, activity, webhooks, admin keys and the audit log (real Chromium)', function () {
  this.timeout(90_000);
  let app: TestApp;
  let browser: Browser;
  let watched: WatchedPage;
  let receiver: WebhookReceiver;

  before(async () => {
    // Workers: the statistics come from their rollup, and webhooks are delivered by them.
    app = await startTestApp({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '20' } });
    browser = await launchBrowser();
    receiver = await WebhookReceiver.start();
  });
  beforeEach(async () => {
    watched = await openPage(browser, app.baseUrl);
    await signInToConsole(watched.page, app.adminKey);
  });
  afterEach(async () => {
    await watched?.close();
  });
  after(async () => {
    await receiver?.close();
    await browser?.close();
    await app?.close();
  });

  it("shows a customer's download and an install's update check in the statistics charts and the activity feed", async () => {
    const customer = await createCustomer(app, { customerId: 'chart-customer' });
    const { applicationId } = await createApplication(app, { name: 'Charted App', customerIds: [customer.customerId] });
    await uploadSmallFile(app, { applicationId, version: '2.1.0', fileName: 'Charted-2.1.0.dmg', platform: 'macos', arch: 'arm64' });
    const download = await app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=2.1.0`, { key: customer.apiKey });
    expect(download.status).to.equal(200);
    // An install still on 2.0.0 checks with Tauri's updater (nothing signed for it: told it is up to date).
    const tauri = new TauriUpdateClient({
      endpoint: `${app.baseUrl}/v1/updates/${applicationId}/tauri/{{target}}/{{arch}}/{{current_version}}`, target: 'darwin', arch: 'aarch64',
      currentVersion: '2.0.0', headers: { Authorization: `Bearer ${customer.apiKey}` }, pubkey: 'unused: nothing is offered',
    });
    expect(await tauri.check()).to.equal(null);
    await pollUntil(async () => ((await app.http.get(`/v1/applications/${applicationId}/stats`)).body.data.totalDownloads === 1 ? true : undefined),
      20_000, 'the rollup counting the download');
    const today = new Date().toISOString().slice(0, 10);
    await pollUntil(async () => {
      const days = (await app.http.get(`/v1/applications/${applicationId}/adoption`)).body.data.days as { date: string; checks: number }[];
      return days.find((day) => day.date === today)?.checks === 1 ? true : undefined;
    }, 20_000, 'the rollup counting the update check');

    const { page } = watched;
    await page.goto(`/console/statistics?applicationId=${applicationId}&period=7`);
    await page.locator('[data-total]').getByText(/^1 /).waitFor();
    // uPlot drew into the chart (its canvas), loaded lazily without breaking the Content-Security-Policy.
    await page.locator('[data-chart="downloads-by-day"] canvas').waitFor();
    await page.getByText('The days as a table').click();
    expect(await page.getByRole('row').filter({ hasText: today }).innerText()).to.match(new RegExp(`${today}\\s+1`));
    expect(await page.getByRole('table', { name: 'Downloads by version' }).innerText()).to.match(/2\.1\.0\s+1/);
    expect(await page.getByRole('table', { name: 'Downloads by platform' }).innerText()).to.match(/macos\s+1/);
    expect(await page.getByRole('table', { name: 'Downloads by arch' }).innerText()).to.match(/arm64\s+1/);
    expect(await page.getByRole('table', { name: 'Downloads by channel' }).innerText()).to.match(/stable\s+1/);
    expect(await page.getByRole('table', { name: 'Customers with most downloads' }).innerText()).to.match(/chart-customer\s+1/);
    // The check: one active install, on 2.0.0, behind the latest release; charted with the day's checks.
    expect(await page.locator('[data-active-installs]').innerText()).to.match(/^1 active install on \d{4}-\d\d-\d\d \(UTC\): 0 on the latest release \(0%\), 1 outdated; 1 update check in the period/);
    await page.locator('[data-chart="adoption-by-day"] canvas').waitFor();
    expect(await page.getByRole('table', { name: 'Installs by running version' }).innerText()).to.match(/2\.0\.0\s+1\s+100%/);
    expect(await page.getByRole('table', { name: 'Installs on the latest release and behind it' }).innerText())
      .to.match(/On the latest release\s+0/).and.match(/Outdated\s+1/);
    expect(await page.getByRole('table', { name: /Days for each release/ }).innerText()).to.match(/2\.1\.0\s+.+\s+not yet\s+not yet/);
    await checkAndPhotograph(page, 'console-statistics');

    await page.getByRole('link', { name: 'Activity feed' }).click();
    await page.getByRole('heading', { name: 'Activity' }).waitFor();
    const row = page.locator('tr[data-event="download"]').filter({ hasText: 'chart-customer' });
    await row.waitFor();
    expect(await row.innerText()).to.include('2.1.0').and.include('macos arm64');
    await checkAndPhotograph(page, 'console-activity');
    watched.assertProblemFree();
  });

  it('loads more of the activity feed as the reader scrolls, or with the button', async () => {
    const { applicationId } = await createApplication(app, { name: 'Busy App' });
    const now = Date.now();
    await app.core.store.activity.insertEvents(Array.from({ length: 120 }, (_, i) => {
      const timestamp = new Date(now - i * 1000);
      return downloadEvent(newEventId(timestamp), { applicationId, version: '1.0.0', customerId: `cust-${i}`, timestamp });
    }));
    const { page } = watched;
    await page.goto(`/console/activity?applicationId=${applicationId}`);
    const rows = page.locator('tbody tr');
    await pollUntil(async () => ((await rows.count()) === 50 ? true : undefined), 10_000, 'the first page');
    await page.locator('.load-more').scrollIntoViewIfNeeded();
    await pollUntil(async () => ((await rows.count()) === 100 ? true : undefined), 10_000, 'the second page, loaded by scrolling');
    // The button does the same for a keyboard user.
    await page.getByRole('button', { name: 'Load more events' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('All 120 events shown.').waitFor();
    watched.assertProblemFree();
  });

  it('creates a webhook endpoint (secret shown once), shows its delivery, and redelivers it', async () => {
    const { page } = watched;
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'New endpoint' }).click();
    await page.getByLabel('URL').fill(receiver.url('/console-hook'));
    await page.getByLabel('version.published').uncheck();
    await page.getByLabel('customer.created').check();
    await page.getByLabel('Description (optional)').fill('Support desk');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    expect(await page.locator('.shown-once code[data-secret]').innerText()).to.match(/\S{20,}/);
    await page.getByRole('button', { name: 'I have saved it' }).click();

    const created = await app.http.post('/v1/management/customers', { name: 'Hooked Customer', tier: 'standard' });
    expect(created.status).to.equal(201);
    const hooked = () => receiver.requests.filter((r) => r.path === '/console-hook');
    await pollUntil(() => (hooked().length === 1 ? true : undefined), 20_000, 'the first delivery');
    await checkAndPhotograph(page, 'console-webhooks');

    await page.getByRole('link', { name: receiver.url('/console-hook') }).click();
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    const delivery = page.locator('tr[data-delivery]').first();
    await pollUntil(async () => {
      if (!/delivered/.test(await delivery.innerText())) await page.getByRole('button', { name: 'Refresh' }).click();
      return /delivered/.test(await delivery.innerText()) ? true : undefined;
    }, 10_000, 'the delivery shown as delivered');
    expect(await delivery.innerText()).to.include('customer.created').and.include('HTTP 200');
    await delivery.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByText(/queued to be sent again/).waitFor();
    await pollUntil(() => (hooked().length === 2 ? true : undefined), 20_000, 'the redelivery');
    const [first, again] = hooked().map((request) => JSON.parse(request.body) as { id: string; type: string });
    expect(again).to.deep.equal(first);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByText('The new signing secret:').waitFor();
    await checkAndPhotograph(page, 'console-webhook');
    watched.assertProblemFree();
  });

  it('issues a scoped admin key shown once, revokes it, and finds it in the audit log by actor, action, target and period', async () => {
    const { applicationId } = await createApplication(app, { name: 'Limited App' });
    const { page } = watched;
    await page.getByRole('link', { name: 'Admin keys' }).click();
    await page.getByLabel('Name').fill('Release bot');
    await page.getByLabel(/^publish/).check();
    await page.getByLabel('Limited to applications (optional)').fill(applicationId);
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.locator('.shown-once code[data-secret]').innerText();
    const me = (await app.http.get('/v1/me', { key })).body.data;
    expect(me).to.deep.include({ kind: 'admin', applicationIds: [applicationId] });
    expect(me.scopes).to.have.members(['read', 'publish']);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await checkAndPhotograph(page, 'console-admin-keys');
    await page.getByRole('row').filter({ hasText: 'Release bot' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByRole('row').filter({ hasText: 'Release bot' }).waitFor({ state: 'detached' });
    expect((await app.http.get('/v1/me', { key })).status).to.equal(401);

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.locator('tr[data-action]').first().waitFor();
    await page.getByLabel('Action', { exact: true }).fill('adminKey.revoke');
    await pollUntil(async () => {
      const actions = await page.locator('tr[data-action]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-action')));
      return actions.length > 0 && actions.every((action) => action === 'adminKey.revoke') ? actions : undefined;
    }, 10_000, 'only revocations listed');
    expect(await page.locator('tr[data-action]').first().innerText()).to.include(me.actor).and.include('succeeded');
    // By who acted and on what: the key's own creation and revocation name it as their target.
    await page.getByLabel('Action', { exact: true }).fill('');
    await page.getByLabel('Actor key').fill('root');
    await page.getByLabel('Target', { exact: true }).fill(me.actor);
    await pollUntil(async () => {
      const actions = await page.locator('tr[data-action]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-action')));
      return actions.join() === 'adminKey.revoke,adminKey.create' ? true : undefined;
    }, 10_000, 'the key created and revoked, newest first');
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('To', { exact: true }).fill('2020-01-01');
    await page.getByText('No entries match.').waitFor();
    await page.getByLabel('To', { exact: true }).fill(today);
    await page.getByLabel('From', { exact: true }).fill(today);
    await page.locator('tr[data-action]').nth(1).waitFor();
    await page.getByLabel('Actor key').fill('');
    await page.getByLabel('Target', { exact: true }).fill('');
    await page.getByLabel('Action', { exact: true }).fill('application.create');
    await page.getByLabel('Application id').fill(applicationId);
    await pollUntil(async () => ((await page.locator('tr[data-action]').count()) === 1
      && (await page.locator('tr[data-action]').getAttribute('data-action')) === 'application.create' ? true : undefined), 10_000, 'the one creation');
    await checkAndPhotograph(page, 'console-audit');
    watched.assertProblemFree();
  });
});
