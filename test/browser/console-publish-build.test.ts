import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { checkAndPhotograph, launchBrowser, openPage, WatchedPage } from '../support/browser';
import { buildDirectory, electronBuilderOutput, tauriOutput } from '../support/build-outputs';
import { signInToConsole } from '../support/console-session';
import { createApplication } from '../support/factories';
import { generateTauriKey, TauriSigningKey } from '../support/tauri-signer';
import { startTestApp, TestApp } from '../support/test-app';

interface StoredVersion { version: string; status: string; channel: string; files: { fileName: string; fileType: string; platform: string; arch: string; status: string }[] }

/**
 * Drops a folder of the disk on the drop zone through Chromium's own drag and drop (the DevTools
 * protocol's drag events carry file paths, as the desktop does): the page reads it through
 * DataTransferItem.webkitGetAsEntry, as a folder dragged from a file manager.
 */
async function dropFolder(page: Page, folder: string): Promise<void> {
  const zone = page.locator('.dropzone');
  await zone.scrollIntoViewIfNeeded();
  const box = await zone.boundingBox();
  if (!box) throw new Error('the drop zone is not shown');
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const session = await page.context().newCDPSession(page);
  const data = { items: [], files: [folder], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const) await session.send('Input.dispatchDragEvent', { type, ...at, data });
  await session.detach();
}

/** The plan table's rows as [file, platform, arch, type, purpose]. */
async function planRows(page: Page): Promise<string[][]> {
  const rows = page.getByRole('region', { name: 'Files to publish' }).locator('tbody tr');
  // Run in the page: its DOM types are not the test's.
  const cells = await rows.evaluateAll((elements) => elements.map((row) => (row as unknown as { innerText: string }).innerText.split('\t').map((cell) => cell.trim()))) as string[][];
  return Promise.resolve(cells)
    .then((cells) => cells.map(([file, platform, arch, type, , purpose]) => [file, platform, arch, type, purpose]));
}

describe('console: a build folder dropped on an application is planned as bds publish plans it, and published in one step (real Chromium)', function () {
  this.timeout(180_000);
  let app: TestApp;
  let browser: Browser;
  let watched: WatchedPage;
  let tauriKey: TauriSigningKey;
  /** Requests that would change something at the service: none may leave before the plan is sound. */
  let changes: string[];

  before(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
    tauriKey = await generateTauriKey(buildDirectory('console-tauri-key'));
  });
  beforeEach(async () => {
    watched = await openPage(browser, app.config.publicBaseUrl);
    changes = [];
    watched.page.on('request', (request) => {
      if (request.method() !== 'GET' && new URL(request.url()).pathname !== '/v1/management/session') changes.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await signInToConsole(watched.page, app.adminKey);
    changes = [];
  });
  afterEach(async () => {
    watched.assertProblemFree();
    await watched?.close();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  const versionsOf = async (applicationId: string) => (await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions as StoredVersion[];

  it('electron-builder: refuses a mac build without its zip before sending a byte, then plans and publishes the whole dist/ dropped as a folder', async () => {
    const { page } = watched;
    const { applicationId } = await createApplication(app, { name: 'Bds Demo', defaultVersionStatus: 'draft' });
    await page.goto(`/console/applications/${applicationId}`);
    await page.getByRole('link', { name: 'Publish a build folder' }).click();
    await page.getByRole('heading', { name: 'Publish a build folder' }).waitFor();

    const withoutZip = await electronBuilderOutput('2.0.0', { withoutZip: true });
    await page.getByLabel('Build folder', { exact: true }).setInputFiles(withoutZip.directory);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).to.match(/Bds Demo-2\.0\.0\.dmg: a macOS build with no \.zip for update clients .*: add "zip" to mac\.target in the electron-builder configuration/);
    expect(await page.getByRole('button', { name: /Save 2\.0\.0 as a draft/ }).isDisabled()).to.equal(true);
    await checkAndPhotograph(page, 'console-publish-build-refused');
    expect(changes).to.deep.equal([]);
    expect(await versionsOf(applicationId)).to.deep.equal([]);

    const build = await electronBuilderOutput('2.1.0');
    await dropFolder(page, build.directory);
    await page.getByRole('heading', { name: /Plan: version 2\.1\.0 from bds-build-electron-builder-/ }).waitFor();
    expect(await page.getByRole('alert').count()).to.equal(0);
    expect(await planRows(page)).to.have.deep.members([
      ['Bds-Demo-Setup-2.1.0.exe', 'windows', 'x64', 'MAIN', 'Windows installer'],
      ['Bds Demo-2.1.0.dmg', 'macos', 'x64', 'MAIN', 'macOS disk image'],
      ['Bds Demo-2.1.0-mac.zip', 'macos', 'x64', 'UPDATE', 'macOS update archive (what update clients install)'],
      ['Bds Demo-2.1.0.AppImage', 'linux', 'x64', 'MAIN', 'Linux AppImage'],
      ['bds-demo_2.1.0_amd64.deb', 'linux', 'x64', 'OTHER', 'Linux package (deb), offered beside Bds Demo-2.1.0.AppImage'],
      ['Bds-Demo-Setup-2.1.0.exe.blockmap', 'windows', 'x64', 'BLOCKMAP', 'blockmap of Bds-Demo-Setup-2.1.0.exe (differential updates)'],
      ['Bds Demo-2.1.0-mac.zip.blockmap', 'macos', 'x64', 'BLOCKMAP', 'blockmap of Bds Demo-2.1.0-mac.zip (differential updates)'],
    ]);
    // The application's default is a draft: publishing the version is one choice.
    expect(await page.getByLabel('When every file is in').inputValue()).to.equal('draft');
    await page.getByLabel('When every file is in').selectOption('published');
    await checkAndPhotograph(page, 'console-publish-build-plan');
    expect(changes).to.deep.equal([]);

    await page.getByRole('button', { name: 'Publish 2.1.0 (7 files)' }).click();
    await page.getByText('Published version 2.1.0: 7 files, customers see them now, together.').waitFor({ timeout: 120_000 });
    expect(await page.locator('[data-phase="completed"]').count()).to.equal(7);
    await checkAndPhotograph(page, 'console-publish-build-published');

    const [stored] = await versionsOf(applicationId);
    expect(stored).to.include({ version: '2.1.0', status: 'published', channel: 'stable' });
    expect(stored.files.map(({ fileName, fileType, platform, arch, status }) => [fileName, fileType, platform, arch, status])).to.have.deep.members([
      ['Bds-Demo-Setup-2.1.0.exe', 'MAIN', 'windows', 'x64', 'available'],
      ['Bds Demo-2.1.0.dmg', 'MAIN', 'macos', 'x64', 'available'],
      ['Bds Demo-2.1.0-mac.zip', 'UPDATE', 'macos', 'x64', 'available'],
      ['Bds Demo-2.1.0.AppImage', 'MAIN', 'linux', 'x64', 'available'],
      ['bds-demo_2.1.0_amd64.deb', 'OTHER', 'linux', 'x64', 'available'],
      ['Bds-Demo-Setup-2.1.0.exe.blockmap', 'BLOCKMAP', 'windows', 'x64', 'available'],
      ['Bds Demo-2.1.0-mac.zip.blockmap', 'BLOCKMAP', 'macos', 'x64', 'available'],
    ]);
    // The status changed once, after every file: one PATCH of the version.
    expect(changes.filter((change) => change.startsWith('PATCH'))).to.deep.equal([`PATCH /v1/management/applications/${applicationId}/versions/2.1.0`]);

    // Dropped again: every file is there, identical; nothing is sent.
    changes = [];
    await dropFolder(page, build.directory);
    await page.getByRole('button', { name: 'Publish 2.1.0 (7 files)' }).click();
    await page.getByText('Already published: version 2.1.0 holds these 7 files, identical; nothing was sent.').waitFor();
    expect(changes).to.deep.equal([]);
  });

  it('Tauri: refuses a bundle without .sig while the application has a key, then publishes the signed bundle chosen as a folder', async () => {
    const { page } = watched;
    const { applicationId } = await createApplication(app, { name: 'Bds Tauri', updateSigningKey: tauriKey.publicKey });
    await page.goto(`/console/applications/${applicationId}/publish`);
    const unsigned = await tauriOutput('3.0.0', null);
    await page.getByLabel('Build folder', { exact: true }).setInputFiles(unsigned.directory);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).to.match(/(nsis|msi)\/BdsDemo_3\.0\.0_x64[^:]*: a Tauri bundle without \.sig while the application has an update-signing key: set bundle\.createUpdaterArtifacts to true/);
    expect(changes).to.deep.equal([]);

    const build = await tauriOutput('3.1.0', tauriKey);
    await page.getByLabel('Build folder', { exact: true }).setInputFiles(build.directory);
    await page.getByRole('heading', { name: 'Plan: version 3.1.0 from bundle' }).waitFor();
    const rows = await planRows(page);
    expect(rows.map(([file, platform, arch, type]) => [file, platform, arch, type])).to.have.deep.members([
      ['nsis/BdsDemo_3.1.0_x64-setup.exe', 'windows', 'x64', 'MAIN'],
      ['msi/BdsDemo_3.1.0_x64_en-US.msi', 'windows', 'x64', 'OTHER'],
      ['macos/BdsDemo.app.tar.gz', 'macos', 'arm64', 'MAIN'],
      ['dmg/BdsDemo_3.1.0_aarch64.dmg', 'macos', 'arm64', 'OTHER'],
      ['appimage/bds-demo_3.1.0_amd64.AppImage', 'linux', 'x64', 'MAIN'],
      ['deb/bds-demo_3.1.0_amd64.deb', 'linux', 'x64', 'OTHER'],
      ['nsis/BdsDemo_3.1.0_x64-setup.exe.sig', 'windows', 'x64', 'SIGNATURE'],
      ['msi/BdsDemo_3.1.0_x64_en-US.msi.sig', 'windows', 'x64', 'OTHER'],
      ['macos/BdsDemo.app.tar.gz.sig', 'macos', 'arm64', 'SIGNATURE'],
      ['appimage/bds-demo_3.1.0_amd64.AppImage.sig', 'linux', 'x64', 'SIGNATURE'],
    ]);
    expect(rows.find(([file]) => file === 'macos/BdsDemo.app.tar.gz.sig')?.[4]).to.equal('Tauri signature of BdsDemo.app.tar.gz');

    await page.getByRole('button', { name: 'Publish 3.1.0 (10 files)' }).click();
    await page.getByText('Published version 3.1.0: 10 files, customers see them now, together.').waitFor({ timeout: 120_000 });
    const [stored] = await versionsOf(applicationId);
    expect(stored).to.include({ version: '3.1.0', status: 'published' });
    expect(stored.files).to.have.length(10);
    expect(stored.files.every((file) => file.status === 'available')).to.equal(true);
    expect(stored.files.filter((file) => file.fileType === 'SIGNATURE').map((file) => file.fileName)).to.have.members([
      'BdsDemo_3.1.0_x64-setup.exe.sig', 'BdsDemo.app.tar.gz.sig', 'bds-demo_3.1.0_amd64.AppImage.sig',
    ]);
  });

  it('Tauri: a signature made with another key is refused in the browser before a byte is sent, naming the key and the fix', async () => {
    const { page } = watched;
    const { applicationId } = await createApplication(app, { name: 'Bds Tauri', updateSigningKey: tauriKey.publicKey });
    const otherKey = await generateTauriKey(buildDirectory('console-tauri-other'), 'other');
    const foreign = await tauriOutput('4.0.0', otherKey);
    await page.goto(`/console/applications/${applicationId}/publish`);
    await page.getByLabel('Build folder', { exact: true }).setInputFiles(foreign.directory);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).to.match(/nsis\/BdsDemo_4\.0\.0_x64-setup\.exe\.sig does not verify against BdsDemo_4\.0\.0_x64-setup\.exe under the application's update-signing key: the signature was made with key [0-9A-F]{16}, not with the application's update-signing key [0-9A-F]{16}; sign with the key whose public half/);
    expect(await page.getByRole('button', { name: 'Publish 4.0.0 (10 files)' }).isDisabled()).to.equal(true);

    // Signed with the application's key, but the AppImage changed after signing: its bytes do not verify.
    const tampered = await tauriOutput('4.1.0', tauriKey);
    fs.writeFileSync(path.join(tampered.directory, 'appimage', 'bds-demo_4.1.0_amd64.AppImage'), randomBytes(48 * 1024));
    await page.getByLabel('Build folder', { exact: true }).setInputFiles(tampered.directory);
    await page.getByRole('heading', { name: 'Plan: version 4.1.0 from bundle' }).waitFor();
    const problems = await page.getByRole('alert').innerText();
    expect(problems).to.match(/appimage\/bds-demo_4\.1\.0_amd64\.AppImage\.sig does not verify against bds-demo_4\.1\.0_amd64\.AppImage under the application's update-signing key: the signature does not match the file's bytes under key [0-9A-F]{16}/);
    expect(problems).to.match(/one problem/);
    expect(changes).to.deep.equal([]);
    expect(await versionsOf(applicationId)).to.deep.equal([]);
  });
});
