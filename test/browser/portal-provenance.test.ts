import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { checkAndPhotograph, launchBrowser, openPage } from '../support/browser';
import { dsseEnvelope, signingKey, slsaV1Statement } from '../support/attestations';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('portal: provenance of a release in a real Chromium', function () {
  this.timeout(120_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    app = await startTestApp({ workers: false });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  it('shows "built by ..., from commit ..." from the SLSA predicate, and whether the signature verified', async () => {
    const customer = await createCustomer(app);
    const { applicationId } = await createApplication(app, { name: 'Attested Tool', customerIds: [customer.customerId] });
    const content = randomBytes(2048);
    const { fileId } = await uploadSmallFile(app, { applicationId, version: '3.0.0', fileName: 'Attested-3.0.0.AppImage', platform: 'linux', arch: 'x64', content });
    const key = signingKey('ed25519');
    expect((await app.http.post(`/v1/management/applications/${applicationId}/attestation-keys`, { keyId: 'ci', publicKey: key.publicKeyPem })).status).to.equal(201);
    const build = { builderId: 'https://github.com/actions/runner/github-hosted', repository: 'https://github.com/acme/attested', commit: '4a1b2c3d'.repeat(5) };
    const statement = slsaV1Statement({ sha256: createHash('sha256').update(content).digest('hex') }, build);
    const added = await app.http.post(`/v1/management/applications/${applicationId}/versions/3.0.0/files/${fileId}/attestations`, dsseEnvelope(statement, [{ key, keyid: 'ci' }]));
    expect(added.status).to.equal(201);

    const watched = await openPage(browser, app.config.publicBaseUrl, { userAgent: LINUX });
    const { page } = watched;
    await page.goto('/portal');
    await page.getByLabel('Your API key').fill(customer.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const release = page.getByRole('article', { name: 'Version 3.0.0' });
    await release.waitFor();
    // Keyboard only: the summary takes focus and opens with Enter.
    await release.getByText('Files, checksums and command line').focus();
    await page.keyboard.press('Enter');
    const line = release.locator('.provenance li');
    await line.waitFor();
    const text = await line.innerText();
    expect(text).to.include(`provenance: built by ${build.builderId}, from commit ${build.commit} of ${build.repository}`);
    expect(text).to.include('signature verified');
    await checkAndPhotograph(page, 'portal-provenance');
    watched.assertProblemFree();
    await watched.close();
  });
});
