import { expect } from 'chai';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as openpgp from 'openpgp';
import type { Browser } from 'playwright-core';
import { checkAndPhotograph, launchBrowser, openPage } from '../support/browser';
import { signInToConsole } from '../support/console-session';
import { createApplication, uploadSmallFile } from '../support/factories';
import { buildDeb, buildRpm } from '../support/linux-packages';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The console's repository view: per channel, apt's package versions per arch and dnf's files; the
 * signing keys with their retire dates; rotating the key and importing one (a public key refused
 * with the service's message, then a private key taken).
 */
describe('console: package repositories of an application (real Chromium)', function () {
  this.timeout(180_000);
  let app: TestApp;
  let browser: Browser;
  let directory: string;

  before(async () => {
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-console-repos-'));
    app = await startTestApp({ workers: false });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await fsp.rm(directory, { recursive: true, force: true });
  });

  it('shows what each repository serves and the keys; rotates, refuses a public key and imports a private one', async () => {
    const { applicationId } = await createApplication(app, { name: 'Repo App' });
    const upload = async (version: string, file: string, arch: 'x64' | 'arm64') =>
      uploadSmallFile(app, { applicationId, version, content: await fsp.readFile(file), fileName: path.basename(file), platform: 'linux', arch });
    await upload('1.0.0', await buildDeb(directory, { name: 'repo-app', version: '1.0.0', arch: 'amd64' }), 'x64');
    await upload('1.0.0', await buildDeb(directory, { name: 'repo-app', version: '1.0.0', arch: 'arm64' }), 'arm64');
    await upload('1.1.0', await buildDeb(directory, { name: 'repo-app', version: '1.1.0', arch: 'amd64' }), 'x64');
    await upload('1.1.0', await buildRpm(directory, { name: 'repo-app', version: '1.1.0', arch: 'aarch64' }), 'arm64');
    const rotatedFirst = await app.http.post(`/v1/management/applications/${applicationId}/repositories/rotate-key`, {});
    expect(rotatedFirst.status, rotatedFirst.raw.toString()).to.equal(200);

    const watched = await openPage(browser, app.baseUrl);
    const { page } = watched;
    page.on('dialog', (dialog) => void dialog.accept());
    await signInToConsole(page, app.adminKey);
    await page.goto(`/console/applications/${applicationId}`);
    await page.getByRole('link', { name: 'Package repositories (apt, dnf)' }).click();
    await page.getByRole('heading', { name: 'Package repositories' }).waitFor();
    const stable = page.getByRole('region', { name: 'apt packages of stable' });
    await stable.waitFor();
    const amd64 = stable.getByRole('row', { name: /binary-amd64\/Packages/ });
    expect(await amd64.innerText()).to.include('repo-app 1.1.0').and.to.include('repo-app 1.0.0');
    const arm64 = stable.getByRole('row', { name: /binary-arm64\/Packages/ });
    expect(await arm64.innerText()).to.include('repo-app 1.0.0').and.not.to.include('1.1.0');
    const rpm = page.getByRole('region', { name: 'rpm packages of stable' });
    expect(await rpm.innerText()).to.include('repo-app 1.1.0-1').and.to.include('aarch64').and.to.include('repo-app-1.1.0-1.aarch64.rpm');
    const keys = page.getByRole('region', { name: 'Signing keys' });
    expect(await keys.getByRole('row').count()).to.equal(2);
    await checkAndPhotograph(page, 'console-repositories');

    // Rotation: the key is kept with a retire date, a new one is current.
    await page.getByRole('button', { name: 'Rotate signing key' }).click();
    await page.getByText('A new signing key is current').waitFor();
    await keys.getByRole('row').nth(2).waitFor();
    const stored = (await app.http.get(`/v1/management/applications/${applicationId}/repositories`)).body.data as { keys: { fingerprint: string; retiresAt: string | null }[] };
    expect(stored.keys).to.have.length(2);
    const retired = stored.keys.find((key) => key.retiresAt !== null)!;
    expect(await keys.getByRole('row', { name: new RegExp(retired.fingerprint) }).innerText()).not.to.include('current');

    // Import: a public key is refused with the service's words, nothing changes; a private key is taken.
    const generated = await openpgp.generateKey({ type: 'ecc', curve: 'ed25519Legacy', userIDs: [{ name: 'Repo Vendor', email: 'repo@example.com' }], format: 'armored' });
    await page.getByRole('button', { name: 'Import a key' }).click();
    await page.getByLabel('Armoured OpenPGP private key').fill(generated.publicKey);
    await page.getByRole('button', { name: 'Import key' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: /private/i });
    await refusal.waitFor();
    expect(((await app.http.get(`/v1/management/applications/${applicationId}/repositories`)).body.data as { keys: unknown[] }).keys).to.have.length(2);
    await checkAndPhotograph(page, 'console-repositories-import-refused');
    await page.getByLabel('Armoured OpenPGP private key').fill(generated.privateKey);
    await page.getByRole('button', { name: 'Import key' }).click();
    await page.getByText('Your key is current').waitFor();
    const imported = (await app.http.get(`/v1/management/applications/${applicationId}/repositories`)).body.data as { keys: { origin: string; retiresAt: string | null }[] };
    expect(imported.keys.filter((key) => key.retiresAt === null).map((key) => key.origin)).to.deep.equal(['imported']);
    await keys.getByRole('row').nth(3).waitFor();
    watched.assertProblemFree();
    await watched.close();
  });
});
