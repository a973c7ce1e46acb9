import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { parsePublicKey } from '../../shared/signing/minisign';
import { checkAndPhotograph, launchBrowser, openPage } from '../support/browser';
import { signInToConsole } from '../support/console-session';
import { createApplication, uploadSmallFile } from '../support/factories';
import { generateTauriKey, tauriSign } from '../support/tauri-signer';
import { startTestApp, TestApp } from '../support/test-app';

/** The application page warns of installs a signing-key change left with no path forward. */
describe('console: installs stranded by a signing-key change (real Chromium)', function () {
  this.timeout(120_000);
  let app: TestApp;
  let browser: Browser;
  let directory: string;

  before(async () => {
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-console-keys-'));
    app = await startTestApp({ workers: false });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await fsp.rm(directory, { recursive: true, force: true });
  });

  it('names the versions and the retired key until a bridge release is published', async () => {
    const [oldKey, newKey] = [await generateTauriKey(directory, 'old'), await generateTauriKey(directory, 'new')];
    const { applicationId } = await createApplication(app, { name: 'Keyed App', updateSigningKey: oldKey.publicKey });
    const bytes = randomBytes(4096);
    const file = path.join(directory, 'app.tar.gz');
    await fsp.writeFile(file, bytes);
    const target = { applicationId, version: '1.0.0', platform: 'linux', arch: 'x64' };
    await uploadSmallFile(app, { ...target, content: bytes, fileName: 'app.AppImage.tar.gz', fileType: 'MAIN' });
    await uploadSmallFile(app, { ...target, content: Buffer.from(await tauriSign(oldKey, file)), fileName: 'app.AppImage.tar.gz.sig', fileType: 'SIGNATURE' });
    expect((await app.http.patch(`/v1/management/applications/${applicationId}`, { updateSigningKey: newKey.publicKey })).status).to.equal(200);

    const watched = await openPage(browser, app.baseUrl);
    const { page } = watched;
    await signInToConsole(page, app.adminKey);
    await page.goto(`/console/applications/${applicationId}`);
    const notice = page.getByTestId('stranded-installs');
    await notice.waitFor();
    const text = await notice.innerText();
    expect(text).to.include('Installs of 1.0.0').and.to.include(`update-signing key ${parsePublicKey(oldKey.publicKey).keyId}`).and.to.include('bridge release');
    await checkAndPhotograph(page, 'console-stranded-installs');
    watched.assertProblemFree();
    await watched.close();
  });
});
