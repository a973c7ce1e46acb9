import { expect } from 'chai';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { checkAndPhotograph, launchBrowser, openPage } from '../support/browser';
import { createApplication, createCustomer, storageKeyOf, uploadSmallFile } from '../support/factories';
import { pngImage } from '../support/images';
import { startTestApp, TestApp } from '../support/test-app';

const UA = {
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
};

const LICENCE = '# Licence\n\nYou may install this software on **your own** machines.';

describe('portal: customers download in a real Chromium', function () {
  this.timeout(120_000);
  let app: TestApp;
  let browser: Browser;
  let customer: { customerId: string; apiKey: string };
  let deskTool: string;
  let gated: string;
  const contents = new Map<string, Buffer>();

  before(async () => {
    app = await startTestApp({ workers: false });
    browser = await launchBrowser();
    customer = await createCustomer(app);
    const other = await createCustomer(app);
    ({ applicationId: deskTool } = await createApplication(app, {
      name: 'desk-tool', displayName: 'Desk Tool', customerIds: [customer.customerId], accentColour: '#0b6e4f', supportUrl: 'https://support.example.com/desk',
    }));
    const logo = await app.http.request('PUT', `/v1/management/applications/${deskTool}/logo`, { body: pngImage(96), headers: { 'content-type': 'image/png' } });
    expect(logo.status, logo.raw.toString()).to.equal(200);
    ({ applicationId: gated } = await createApplication(app, { name: 'Licensed Tool', customerIds: [customer.customerId], licenceText: LICENCE }));
    await createApplication(app, { name: 'Not Yours', customerIds: [other.customerId] });
    const upload = async (applicationId: string, version: string, fileName: string, platform: string, arch: string) => {
      const content = Buffer.from(`${applicationId} ${version} ${fileName} ${'x'.repeat(2000)}`);
      contents.set(`${applicationId}/${version}/${fileName}`, content);
      await uploadSmallFile(app, { applicationId, version, fileName, platform, arch, content, releaseNotes: `Version ${version}: **faster** start.` });
    };
    await upload(deskTool, '1.0.0', 'DeskTool-Setup-1.0.0.exe', 'windows', 'x64');
    for (const [fileName, platform, arch] of [
      ['DeskTool-Setup-2.0.0.exe', 'windows', 'x64'], ['DeskTool-2.0.0.AppImage', 'linux', 'x64'],
      ['DeskTool-2.0.0-arm64.dmg', 'macos', 'arm64'], ['DeskTool-2.0.0-x64.dmg', 'macos', 'x64'],
    ]) await upload(deskTool, '2.0.0', fileName, platform, arch);
    await upload(gated, '1.0.0', 'Licensed-1.0.0.AppImage', 'linux', 'x64');
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  /**
   * How a browser describes the machine beyond its User-Agent: Safari and Firefox give no client hints;
   * Chromium does (navigator.userAgentData), and on Apple Silicon says arm where its User-Agent says Intel.
   */
  const HINTS = {
    none: 'Object.defineProperty(Navigator.prototype, "userAgentData", { get: () => undefined })',
    appleSilicon: 'Object.defineProperty(Navigator.prototype, "userAgentData", { get: () => ({ getHighEntropyValues: async () => ({ platform: "macOS", architecture: "arm", bitness: "64" }) }) })',
  };

  async function signedIn(userAgent: string, key = customer.apiKey, hints: keyof typeof HINTS = 'none') {
    const watched = await openPage(browser, app.config.publicBaseUrl, { userAgent });
    await watched.context.addInitScript(HINTS[hints]);
    await watched.page.goto('/portal');
    await watched.page.getByLabel('Your API key').fill(key);
    await watched.page.getByRole('button', { name: 'Sign in' }).click();
    await watched.page.getByRole('heading', { name: 'Your downloads' }).waitFor();
    return watched;
  }

  it('signs in with a key and shows only the applications the customer may download, newest release first', async () => {
    const watched = await signedIn(UA.windows);
    const { page } = watched;
    await page.getByRole('heading', { name: 'Desk Tool' }).waitFor();
    await page.getByRole('heading', { name: 'Licensed Tool', exact: true }).waitFor();
    expect(await page.getByRole('heading', { name: 'Not Yours' }).count()).to.equal(0);
    await page.getByRole('link', { name: 'Get help with Desk Tool' }).waitFor();
    // The releases arrive after the applications: waited for, then counted.
    await page.getByRole('heading', { name: /Version 2\.0\.0/ }).first().waitFor();
    expect(await page.getByRole('heading', { name: /Version 2\.0\.0/ }).count()).to.equal(1);
    await page.getByText('Older releases (1)').waitFor();
    await expectLogoShown(page, 'Desk Tool');
    // An application without a logo shows none.
    expect(await page.getByRole('region', { name: 'Licensed Tool' }).getByRole('img').count()).to.equal(0);
    await checkAndPhotograph(page, 'portal-downloads');
    watched.assertProblemFree();
    await watched.close();
  });

  it('tells a customer whose maintenance ended which version is the last it is entitled to, and offers nothing newer', async () => {
    const lapsed = await createCustomer(app);
    const granted = await app.http.request('PUT', `/v1/management/customers/${lapsed.customerId}/applications/${deskTool}`, { json: {} });
    expect(granted.status, granted.raw.toString()).to.be.oneOf([200, 201, 204]);
    // Ended just now: after every release of the suite was published.
    const ended = new Date();
    const patched = await app.http.patch(`/v1/management/customers/${lapsed.customerId}`, { updatesUntil: ended.toISOString(), versionRange: '<2' });
    expect(patched.status, patched.raw.toString()).to.equal(200);
    const watched = await signedIn(UA.windows, lapsed.apiKey);
    const { page } = watched;
    const card = page.getByRole('region', { name: 'Desk Tool' });
    // The day as the page's locale and time zone write it.
    const day = await page.evaluate((iso) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(iso)), ended.toISOString());
    await card.getByText(`Your maintenance ended on`).waitFor();
    expect(await card.getByRole('note').textContent()).to.equal(`Your maintenance ended on ${day}; version 1.0.0 is the last you are entitled to (versions <2).`);
    expect(await page.getByRole('heading', { name: /Version 1\.0\.0/ }).count()).to.equal(1);
    expect(await page.getByRole('heading', { name: /Version 2\.0\.0/ }).count()).to.equal(0);
    await checkAndPhotograph(page, 'portal-maintenance-ended');
    watched.assertProblemFree();
    await watched.close();
  });

  /** The logo beside the application's name: fetched with the credential, decoded, shown from a blob: URL. */
  async function expectLogoShown(page: Page, name: string) {
    const logo = page.getByRole('region', { name }).getByRole('img', { name });
    await logo.waitFor();
    // Waits for the image to load (complete), then reads its decoded width.
    type Decoded = { naturalWidth: number; src: string };
    await logo.evaluate((element) => new Promise((resolve) => {
      const image = element as unknown as Decoded & { complete: boolean; addEventListener(type: string, listener: () => void): void };
      if (image.complete) resolve(true);
      else image.addEventListener('load', () => resolve(true));
    }));
    const shown = await logo.evaluate((element) => ({ width: (element as unknown as Decoded).naturalWidth, src: (element as unknown as Decoded).src }));
    expect(shown.width).to.equal(96);
    expect(shown.src).to.match(/^blob:/);
  }

  it('offers the build for the visitor: Windows, Linux, and both Mac arches on macOS', async () => {
    const primaries = async (userAgent: string, hints: keyof typeof HINTS = 'none') => {
      const watched = await signedIn(userAgent, customer.apiKey, hints);
      const release = watched.page.getByRole('article', { name: 'Version 2.0.0' });
      await release.getByRole('button', { name: /^Download for / }).first().waitFor();
      const names = await release.getByRole('button', { name: /^Download for / }).allInnerTexts();
      watched.assertProblemFree();
      await watched.close();
      return names;
    };
    expect(await primaries(UA.windows)).to.deep.equal(['Download for Windows (x64)']);
    expect(await primaries(UA.linux)).to.deep.equal(['Download for Linux (x64)']);
    expect(await primaries(UA.mac)).to.deep.equal(['Download for macOS (Apple Silicon)', 'Download for macOS (Intel)']);
    expect(await primaries(UA.mac, 'appleSilicon')).to.deep.equal(['Download for macOS (Apple Silicon)']);
  });

  it('offers for the detected system what the latest link offers, saying which version when it is not the newest', async () => {
    const { applicationId: split } = await createApplication(app, { name: 'Split Tool', customerIds: [customer.customerId] });
    const upload = async (version: string, fileName: string, platform: string, arch: string) => (await uploadSmallFile(app, {
      applicationId: split, version, fileName, platform, arch, status: 'published', content: Buffer.from(`${version} ${fileName} ${'y'.repeat(2000)}`),
    })).fileId;
    const intel = await upload('5.0.0', 'Split-5.0.0-x64.dmg', 'macos', 'x64');
    await upload('5.0.0', 'Split-5.0.0-arm64.dmg', 'macos', 'arm64');
    const silicon = await upload('5.1.0', 'Split-5.1.0-arm64.dmg', 'macos', 'arm64');
    await upload('6.0.0', 'Split-6.0.0.AppImage', 'linux', 'x64');
    // What the latest links answer for each Mac arch: the newest release that has a build for it.
    for (const [arch, fileId] of [['arm64', silicon], ['x64', intel]]) {
      const latest = await fetch(`${app.baseUrl}/v1/downloads/latest/${split}/macos/${arch}`, { headers: { authorization: `Bearer ${customer.apiKey}` }, redirect: 'manual' });
      expect(latest.status).to.equal(302);
      // The signed URL names the file's object (its content-addressed key).
      expect(latest.headers.get('location')).to.include(await storageKeyOf(app, fileId));
    }

    const seen = async (userAgent: string, hints: keyof typeof HINTS = 'none') => {
      const watched = await signedIn(userAgent, customer.apiKey, hints);
      const release = watched.page.getByRole('article', { name: 'Version 6.0.0' });
      await release.getByText(/^Detected|^Download for/).first().waitFor();
      const buttons = await release.getByRole('button', { name: /^Download for / }).allInnerTexts();
      const said = await release.locator('p').allInnerTexts();
      return { watched, buttons, said };
    };
    const mac = await seen(UA.mac);
    expect(mac.buttons).to.deep.equal(['Download for macOS (Apple Silicon) (version 5.1.0)', 'Download for macOS (Intel) (version 5.0.0)']);
    expect(mac.said).to.include('Detected macOS: version 6.0.0 has no build for it; the newest with one: version 5.1.0, version 5.0.0.');
    expect(mac.said.join(' ')).not.to.include('No build for your system was detected');
    await checkAndPhotograph(mac.watched.page, 'portal-detected-system');
    // The Intel build downloads from its own release.
    const download = mac.watched.page.waitForEvent('download');
    await mac.watched.page.getByRole('button', { name: 'Download for macOS (Intel) (version 5.0.0)' }).click();
    expect((await download).suggestedFilename()).to.equal('Split-5.0.0-x64.dmg');
    mac.watched.assertProblemFree();
    await mac.watched.close();

    const silicon_ = await seen(UA.mac, 'appleSilicon');
    expect(silicon_.buttons).to.deep.equal(['Download for macOS (Apple Silicon) (version 5.1.0)']);
    await silicon_.watched.close();
    const linux = await seen(UA.linux);
    expect(linux.buttons).to.deep.equal(['Download for Linux (x64)']);
    expect(linux.said.join(' ')).not.to.include('Detected');
    await linux.watched.close();
    const windows = await seen(UA.windows);
    expect(windows.buttons).to.deep.equal([]);
    expect(windows.said).to.include('Detected Windows: no build for it is available to you yet. Choose one below.');
    windows.watched.assertProblemFree();
    await windows.watched.close();
  });

  it('downloads the file whose SHA-256 the page shows, as a normal download', async () => {
    const watched = await signedIn(UA.linux);
    const { page } = watched;
    const release = page.getByRole('article', { name: 'Version 2.0.0' });
    const [download] = await Promise.all([page.waitForEvent('download'), release.getByRole('button', { name: 'Download for Linux (x64)' }).click()]);
    expect(download.suggestedFilename()).to.equal('DeskTool-2.0.0.AppImage');
    const bytes = fs.readFileSync(await download.path());
    expect(bytes.equals(contents.get(`${deskTool}/2.0.0/DeskTool-2.0.0.AppImage`) as Buffer)).to.equal(true);
    await release.getByText('Files, checksums and command line').click();
    const shown = createHash('sha256').update(bytes).digest('hex');
    await release.getByText(shown).waitFor();
    expect(await release.locator('pre.command').innerText()).to.include(`/v1/downloads/latest/${deskTool}/linux/x64?channel=stable`);
    // One download event, the customer's, as for any download.
    const activity = (await app.http.get(`/v1/activity?applicationId=${deskTool}&type=download`)).body.data.activities as Array<{ customerId: string; version: string; platform: string }>;
    expect(activity.map((e) => [e.customerId, e.version, e.platform])).to.deep.include([customer.customerId, '2.0.0', 'linux']);
    watched.assertProblemFree();
    await watched.close();
  });

  it('shows the licence before any download of a gated application, records the acceptance, then downloads', async () => {
    const watched = await signedIn(UA.linux);
    const { page } = watched;
    const gate = page.getByRole('region', { name: 'Licence agreement for Licensed Tool' });
    await gate.getByRole('heading', { name: 'Licence', exact: true }).waitFor();
    expect(await gate.getByText('your own').innerText()).to.equal('your own');
    await checkAndPhotograph(page, 'portal-licence');
    const accept = gate.getByRole('button', { name: 'Accept the licence' });
    expect(await accept.isDisabled()).to.equal(true);
    await gate.getByLabel('I have read and accept this licence').check();
    await accept.click();
    await gate.waitFor({ state: 'detached' });
    const audit = await app.http.get('/v1/management/audit?action=licence.accept');
    expect(audit.body.data.entries.map((e: { actor: string; applicationId: string }) => [e.actor, e.applicationId])).to.deep.include([`customer:${customer.customerId}`, gated]);
    const card = page.getByRole('region', { name: 'Licensed Tool' });
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download for Linux (x64)' }).click()]);
    expect(download.suggestedFilename()).to.equal('Licensed-1.0.0.AppImage');
    watched.assertProblemFree();
    await watched.close();
  });

  it('opens from a portal link (the token in the fragment, taken out of the address bar) and refuses it in words once revoked', async () => {
    const created = await app.http.post(`/v1/management/customers/${customer.customerId}/tokens`, { name: 'Portal link' });
    expect(created.status).to.equal(201);
    const { portalUrl, tokenId, token } = created.body.data;
    expect(portalUrl).to.equal(`${app.config.publicBaseUrl}/portal#token=${token}`);
    const watched = await openPage(browser, app.config.publicBaseUrl, { userAgent: UA.windows });
    const { page } = watched;
    await page.goto(`/portal#token=${token}`);
    await page.getByRole('heading', { name: 'Desk Tool' }).waitFor();
    expect(page.url()).to.equal(`${app.config.publicBaseUrl}/portal`);
    await page.getByText('Opened from a download link').waitFor();
    await expectLogoShown(page, 'Desk Tool');
    const release = page.getByRole('article', { name: 'Version 2.0.0' });
    const [download] = await Promise.all([page.waitForEvent('download'), release.getByRole('button', { name: 'Download for Windows (x64)' }).click()]);
    expect(download.suggestedFilename()).to.equal('DeskTool-Setup-2.0.0.exe');
    watched.assertProblemFree();
    await watched.close();

    expect((await app.http.delete(`/v1/management/customers/${customer.customerId}/tokens/${tokenId}`)).status).to.equal(200);
    const again = await openPage(browser, app.config.publicBaseUrl, { userAgent: UA.windows });
    await again.page.goto(`/portal#token=${token}`);
    const refusal = await again.page.getByRole('alert').innerText();
    expect(refusal).to.match(/Access refused[\s\S]*(no longer works|not valid)/);
    await checkAndPhotograph(again.page, 'portal-refused');
    await again.close();
  });

  it('refuses an inactive customer in words', async () => {
    const inactive = await createCustomer(app, { isActive: false });
    const watched = await openPage(browser, app.config.publicBaseUrl, { userAgent: UA.windows });
    await watched.page.goto('/portal');
    await watched.page.getByLabel('Your API key').fill(inactive.apiKey);
    await watched.page.getByRole('button', { name: 'Sign in' }).click();
    expect(await watched.page.getByRole('alert').innerText()).to.match(/inactive\. Contact your vendor/);
    await checkAndPhotograph(watched.page, 'portal-sign-in');
    await watched.close();
  });
});
