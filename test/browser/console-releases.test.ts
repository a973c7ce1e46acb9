import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page, Request } from 'playwright-core';
import { checkAndPhotograph, launchBrowser, openPage, WatchedPage } from '../support/browser';
import { signInToConsole } from '../support/console-session';
import { createAdminKey, storeRelease } from '../support/factories';
import { pngImage, svgImage } from '../support/images';
import { pollUntil } from '../support/poll';
import { startTestApp, TestApp } from '../support/test-app';

const MIB = 1024 * 1024;
const BIG_FILE_BYTES = 300 * MIB;

/** The part number of a part PUT, on the embedded store's signed URLs or S3's pre-signed ones; null for any other request. */
function partNumberOf(request: Request): number | null {
  if (request.method() !== 'PUT') return null;
  const url = new URL(request.url());
  const part = url.searchParams.get('X-Part-Number') ?? url.searchParams.get('partNumber');
  return part === null ? null : Number(part);
}

/** Writes `bytes` of varied content (each MiB differs, so a part sent in the wrong place fails the checksum). */
function writeBigFile(file: string, bytes: number): void {
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(MIB);
  for (let offset = 0; offset < bytes; offset += MIB) {
    block.fill(offset / MIB % 251);
    block.writeUInt32BE(offset / MIB, 0);
    fs.writeSync(fd, block, 0, Math.min(MIB, bytes - offset));
  }
  fs.closeSync(fd);
}

/** The width an image decoded to, once it has loaded (0 when it could not be decoded). */
async function decodedWidth(image: Locator): Promise<number> {
  type Loading = { complete: boolean; naturalWidth: number; addEventListener(type: string, listener: () => void): void };
  await image.waitFor();
  return image.evaluate((element) => new Promise<number>((resolve) => {
    const loading = element as unknown as Loading;
    if (loading.complete) resolve(loading.naturalWidth);
    else loading.addEventListener('load', () => resolve(loading.naturalWidth));
  }));
}

/** Drops files made in the page on the drop zone the way a browser delivers a drag and drop: a DataTransfer on a drop event. */
async function dropFiles(page: Page, files: Array<{ name: string; bytes: number }>): Promise<void> {
  const transfer = await page.evaluateHandle(`(() => {
    const transfer = new DataTransfer();
    for (const { name, bytes } of ${JSON.stringify(files)}) transfer.items.add(new File([new Uint8Array(bytes).fill(7)], name));
    return transfer;
  })()`);
  await page.locator('.dropzone').dispatchEvent('dragover', { dataTransfer: transfer });
  await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer: transfer });
}

describe('console: applications, releases and resumable uploads from the browser (real Chromium)', function () {
  this.timeout(180_000);
  let app: TestApp;
  let browser: Browser;
  let watched: WatchedPage;
  let directory: string;
  let bigFile: string;

  before(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'console-upload-'));
    bigFile = path.join(directory, 'Desk App Setup 1.0.0.exe');
    writeBigFile(bigFile, BIG_FILE_BYTES);
    app = await startTestApp();
    browser = await launchBrowser();
  });
  beforeEach(async () => {
    // At the address the service signs its object URLs with (PUBLIC_BASE_URL), as people reach it: the parts go there.
    watched = await openPage(browser, app.config.publicBaseUrl);
  });
  afterEach(async () => {
    await watched?.close();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it('creates an application, searches it, refuses a bad signing key in words, and deletes and restores it', async () => {
    const { page } = watched;
    await signInToConsole(page, app.adminKey);
    await page.getByRole('button', { name: 'New application' }).click();
    await page.getByLabel('Application id').fill('notes-app');
    await page.getByLabel('Name', { exact: true }).fill('Field Notes');
    await page.getByLabel('Tags').fill('desktop, notes');
    // Uploads naming no status publish, as the service's default; drafts are one choice away.
    expect(await page.getByLabel('New versions from uploads start as').inputValue()).to.equal('published');
    await checkAndPhotograph(page, 'console-applications-new');
    await page.getByRole('button', { name: 'Create application' }).click();
    await page.getByRole('heading', { name: 'Field Notes' }).waitFor();
    expect((await app.http.get('/v1/management/applications/notes-app')).body.data).to.include({ defaultVersionStatus: 'published' });

    await page.getByRole('button', { name: 'Edit application' }).click();
    await page.getByLabel('Update signing key').fill('not a minisign key');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect(await page.getByRole('alert').first().innerText()).to.match(/Some input was not accepted/);
    expect(await page.locator('.field-error').innerText()).to.match(/Update signing key: .+/);
    await page.getByLabel('Update signing key').fill('');
    await page.getByLabel('Description').fill('Notes for the field team');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Notes for the field team').waitFor();

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete application' }).click();
    await page.getByRole('button', { name: 'Restore application' }).waitFor();
    expect((await app.http.get('/v1/management/applications/notes-app')).status).to.equal(404);
    // Deleted moments ago: its releases are kept for RELEASE_PURGE_AFTER_DAYS, so a purge is refused in words.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Purge releases' }).click();
    await page.getByText(/was deleted less than 90 days ago: its releases may be purged from/).waitFor();
    await checkAndPhotograph(page, 'console-application-purge-refused');
    expect(await app.core.store.applications.releasePurgeStartedAt('notes-app')).to.equal(null);
    await page.getByRole('button', { name: 'Restore application' }).click();
    await page.getByRole('button', { name: 'Delete application' }).waitFor();
    expect((await app.http.get('/v1/management/applications/notes-app')).status).to.equal(200);

    await page.getByRole('link', { name: 'All applications' }).click();
    await page.getByLabel('Search').fill('FIELD');
    await page.getByRole('link', { name: 'Field Notes' }).waitFor();
    await page.getByLabel('Search').fill('nothing-like-it');
    await page.getByText('No application matches.').waitFor();
    watched.assertProblemFree();
  });

  it('creates a version, uploads a 300 MiB file that survives a page reload without resending held parts, then publishes, promotes, rolls out and yanks it', async () => {
    const { page } = watched;
    await app.http.post('/v1/management/applications', { applicationId: 'desk-app', name: 'Desk App', tags: ['desktop'] });
    await signInToConsole(page, app.adminKey);
    await page.getByRole('link', { name: 'Desk App' }).click();
    await page.getByRole('button', { name: 'New version' }).click();
    await page.getByLabel('Version', { exact: true }).fill('1.0.0');
    await page.getByLabel('Channel', { exact: true }).selectOption('beta');
    await page.getByRole('button', { name: 'Continue to the files' }).click();
    await page.getByText('Version 1.0.0 does not exist yet').waitFor();

    // Every part PUT the page finished before the reload, and every one the reloaded page started.
    const sent: number[] = [];
    const sentAfterReload: number[] = [];
    let reloaded = false;
    page.on('requestfinished', (request) => {
      const part = partNumberOf(request);
      if (part !== null && !reloaded) sent.push(part);
    });
    page.on('request', (request) => {
      const part = partNumberOf(request);
      if (part !== null && reloaded) sentAfterReload.push(part);
    });

    await dropFiles(page, [{ name: 'Desk App-1.0.0-arm64.dmg', bytes: 4096 }]);
    const dropped = page.getByRole('listitem', { name: 'Upload of Desk App-1.0.0-arm64.dmg' });
    expect(await dropped.getByLabel('Platform').inputValue()).to.equal('macos');
    expect(await dropped.getByLabel('Arch').inputValue()).to.equal('arm64');
    await page.getByLabel('Files to upload').setInputFiles(bigFile);
    const big = page.getByRole('listitem', { name: 'Upload of Desk App Setup 1.0.0.exe' });
    expect(await big.getByLabel('Platform').inputValue()).to.equal('windows');
    expect(await big.getByLabel('File type').inputValue()).to.equal('MAIN');
    await page.getByRole('button', { name: 'Upload all 2 files' }).click();
    await big.getByText('Uploading').waitFor();
    await big.getByRole('button', { name: 'Pause' }).click();
    await big.getByText('Paused').waitFor();
    await big.getByRole('button', { name: 'Resume' }).click();

    // Interrupted part-way: the page reloads while parts are in flight.
    await pollUntil(() => (sent.length >= 9 ? true : undefined), 90_000, 'eight parts of the big file sent');
    await page.reload();
    reloaded = true;
    const remembered = JSON.parse(await page.evaluate("JSON.stringify(Object.keys(localStorage).filter((key) => key.startsWith('bds.upload:')).map((key) => JSON.parse(localStorage.getItem(key))))")) as Array<{ uploadId: string; fileName: string }>;
    const { uploadId } = remembered.find((upload) => upload.fileName === 'Desk App Setup 1.0.0.exe') as { uploadId: string };
    const held = (await app.http.get(`/v1/management/uploads/${uploadId}`)).body.data as { multipart: { partCount: number; parts: Array<{ partNumber: number }> } };
    const heldParts = held.multipart.parts.map((p) => p.partNumber);
    expect(heldParts.length).to.be.at.least(8).and.below(held.multipart.partCount);

    await page.getByText(/Unfinished uploads from this browser:.*Desk App Setup 1\.0\.0\.exe/).waitFor();
    await page.getByLabel('Files to upload').setInputFiles(bigFile);
    await big.getByText('continues an earlier upload').waitFor();
    await big.getByRole('button', { name: 'Continue upload' }).click();
    const skippedText = big.getByText(/\d+ parts already held by the service, not sent again/);
    await skippedText.waitFor({ timeout: 30_000 });
    await big.getByText('Published to the version').waitFor({ timeout: 120_000 });
    expect(await big.locator('progress').getAttribute('value')).to.equal(String(BIG_FILE_BYTES));

    // What the service held is not sent again; what it did not hold is sent (a part that landed just
    // after the reload may be held by the time the page asks, and is then skipped too).
    expect(sentAfterReload.filter((part) => heldParts.includes(part)), 'parts the service held were sent again').to.deep.equal([]);
    const skipped = Number(/(\d+) parts already held/.exec(await skippedText.innerText())?.[1]);
    expect(skipped).to.be.at.least(heldParts.length);
    expect(new Set(sentAfterReload).size).to.equal(held.multipart.partCount - skipped);

    // The version now exists (a draft on beta), its file verified with both digests.
    const matrixRow = page.getByRole('row').filter({ hasText: 'Desk App Setup 1.0.0.exe' });
    await matrixRow.getByText('verified').waitFor({ timeout: 60_000 });
    const version = (await app.http.get('/v1/management/applications/desk-app/versions')).body.data as { versions: Array<{ version: string; status: string; channel: string; files: Array<{ fileName: string; status: string; fileSize: number; sha512: string | null }> }> };
    const stored = version.versions[0];
    expect([stored.version, stored.status, stored.channel]).to.deep.equal(['1.0.0', 'draft', 'beta']);
    const bigStored = stored.files.find((f) => f.fileName === 'Desk App Setup 1.0.0.exe');
    expect(bigStored).to.include({ status: 'available', fileSize: BIG_FILE_BYTES });
    expect(bigStored?.sha512).to.be.a('string');

    await page.getByRole('button', { name: 'Publish version' }).click();
    await page.locator('.version-facts').getByText('published', { exact: true }).waitFor();
    await page.getByLabel('Channel', { exact: true }).selectOption('stable');
    await page.getByRole('button', { name: 'Move to channel' }).click();
    await page.locator('.version-facts').getByText('channel stable', { exact: true }).waitFor();
    await page.getByLabel(/Staged rollout/).fill('25');
    await page.getByRole('button', { name: 'Set rollout' }).click();
    await page.locator('.version-facts').getByText('rollout 25%', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Edit notes' }).click();
    await page.getByLabel('Notes (Markdown)').fill('## Fixes\n\n- No crash on start <script>window.hacked = 1</script>\n- [Details](javascript:alert(1)) and [site](https://example.com)');
    await page.getByRole('button', { name: 'Save notes' }).click();
    await page.locator('.markdown h2', { hasText: 'Fixes' }).waitFor();
    expect(await page.locator('.markdown script').count()).to.equal(0);
    expect(await page.locator('.markdown a[href^="javascript"]').count()).to.equal(0);
    expect(await page.locator('.markdown a[href="https://example.com"]').getAttribute('rel')).to.equal('noopener noreferrer nofollow');
    await checkAndPhotograph(page, 'console-version');

    expect(await page.getByRole('button', { name: 'Yank version' }).isDisabled(), 'a yank needs its reason').to.equal(true);
    await page.getByLabel('Reason for yanking').fill('Crashes on start on Windows 10');
    // A rollback needs an earlier published version: refused beside its field, the version still published.
    await page.getByLabel('Roll installs back to').fill('0.9.0');
    await page.getByRole('button', { name: 'Yank version' }).click();
    await page.getByText('rollbackTo: 0.9.0 is no published version of desk-app').first().waitFor();
    expect(await page.locator('.version-facts').getByText('published', { exact: true }).count()).to.equal(1);
    await page.getByLabel('Roll installs back to').fill('');
    await page.getByRole('button', { name: 'Yank version' }).click();
    await page.locator('.version-facts').getByText('yanked', { exact: true }).waitFor();
    await page.getByText('Yanked: Crashes on start on Windows 10').waitFor();
    const after = ((await app.http.get('/v1/management/applications/desk-app/versions')).body.data as { versions: Array<{ status: string; channel: string; rolloutPercentage: number; yankReason: string | null }> }).versions[0];
    expect(after).to.include({ status: 'yanked', channel: 'stable', rolloutPercentage: 25, yankReason: 'Crashes on start on Windows 10' });

    await page.getByRole('link', { name: 'Desk App: all versions' }).click();
    await page.getByRole('table', { name: 'Channel stable' }).getByRole('link', { name: '1.0.0' }).waitFor();
    await page.getByLabel('Show status').selectOption('draft');
    await page.getByText('No version matches these filters.').waitFor();
    await page.getByLabel('Show status').selectOption('');
    await checkAndPhotograph(page, 'console-application');
    watched.assertProblemFree();
  });

  it('uploads an application\'s logo with a preview, shows it, refuses an SVG in words, and removes it', async () => {
    const { page } = watched;
    await app.http.post('/v1/management/applications', { applicationId: 'logo-app', name: 'Logo App' });
    await signInToConsole(page, app.adminKey);
    await page.getByRole('link', { name: 'Logo App' }).click();
    await page.getByText('No logo: the portal shows the name alone.').waitFor();
    expect(await page.getByRole('button', { name: 'Upload logo' }).isDisabled()).to.equal(true);

    await page.getByLabel('Choose a logo').setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: svgImage() });
    await page.getByText('Choose a PNG, JPEG or WebP image.').waitFor();
    expect(await page.getByRole('button', { name: 'Upload logo' }).isDisabled()).to.equal(true);

    const png = pngImage(80, [30, 80, 200]);
    await page.getByLabel('Choose a logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    expect(await decodedWidth(page.getByRole('img', { name: 'Preview of the chosen logo for Logo App' }))).to.equal(80);
    await page.getByRole('button', { name: 'Upload logo' }).click();
    expect(await decodedWidth(page.getByRole('img', { name: 'Logo of Logo App' }))).to.equal(80);
    await page.getByText(/image\/png, .+, set /).waitFor();
    expect((await app.http.get('/v1/management/applications/logo-app')).body.data.logo).to.include({ contentType: 'image/png', size: png.length });
    await checkAndPhotograph(page, 'console-application-logo');

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove logo' }).click();
    await page.getByText('No logo: the portal shows the name alone.').waitFor();
    expect((await app.http.get('/v1/management/applications/logo-app')).body.data.logo).to.equal(null);
    watched.assertProblemFree();
  });

  it('shows a read-only key no write action, and says why', async () => {
    await app.http.post('/v1/management/applications', { applicationId: 'viewed-app', name: 'Viewed App' });
    await storeRelease(app.core.store, 'viewed-app', '2.0.0', { status: 'yanked', releaseNotes: '**Bold** notes' });
    const { apiKey } = await createAdminKey(app, { scopes: ['read'] });
    const { page } = watched;
    await signInToConsole(page, apiKey);
    expect(await page.getByRole('button', { name: 'New application' }).isDisabled()).to.equal(true);
    await page.getByText('Your key lacks the manage scope.').first().waitFor();
    await checkAndPhotograph(page, 'console-applications-read-only');
    await page.getByRole('link', { name: 'Viewed App' }).click();
    for (const name of ['Edit application', 'Delete application', 'New version', 'Upload logo']) {
      expect(await page.getByRole('button', { name }).isDisabled(), name).to.equal(true);
    }
    await page.getByText('Your key lacks the publish scope.').waitFor();
    await page.getByRole('link', { name: '2.0.0' }).click();
    await page.locator('.version-facts').waitFor();
    for (const name of ['Publish again', 'Move to channel', 'Set rollout', 'Set tier', 'Edit notes']) {
      expect(await page.getByRole('button', { name }).isDisabled(), name).to.equal(true);
    }
    expect(await page.locator('.dropzone').count()).to.equal(0);
    await page.getByText('Your key lacks the publish scope.').first().waitFor();
    watched.assertProblemFree();
  });
});
