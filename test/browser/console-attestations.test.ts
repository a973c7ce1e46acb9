import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { dsseEnvelope, signingKey, slsaV1Statement } from '../support/attestations';
import { checkAndPhotograph, launchBrowser, openPage } from '../support/browser';
import { signInToConsole } from '../support/console-session';
import { createApplication, uploadSmallFile } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The version page's provenance attestations: each file's attestations (type, the signature's check,
 * builder and commit from the SLSA predicate), and one added from a JSON file: a statement about
 * other bytes refused with the service's 422 message, then the right one listed.
 */
describe('console: provenance attestations on the version page (real Chromium)', function () {
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

  it('adds an attestation from a JSON file, shows a refused one in the service\'s words, and lists builder, commit and verification', async () => {
    const { applicationId } = await createApplication(app, { name: 'Attested App' });
    const content = randomBytes(4096);
    const fileName = 'Attested-4.0.0.AppImage';
    const { fileId } = await uploadSmallFile(app, { applicationId, version: '4.0.0', fileName, platform: 'linux', arch: 'x64', content });
    const key = signingKey('ed25519');
    expect((await app.http.post(`/v1/management/applications/${applicationId}/attestation-keys`, { keyId: 'release-ci', publicKey: key.publicKeyPem })).status).to.equal(201);
    const build = { builderId: 'https://github.com/actions/runner/github-hosted', repository: 'https://github.com/acme/attested', commit: '9f8e7d6c'.repeat(5) };
    const right = dsseEnvelope(slsaV1Statement({ sha256: createHash('sha256').update(content).digest('hex') }, build), [{ key, keyid: 'release-ci' }]);
    const wrong = dsseEnvelope(slsaV1Statement({ sha256: createHash('sha256').update('other bytes').digest('hex') }, build), [{ key, keyid: 'release-ci' }]);
    const listPath = `/v1/management/applications/${applicationId}/versions/4.0.0/files/${fileId}/attestations`;

    const watched = await openPage(browser, app.baseUrl);
    const { page } = watched;
    await signInToConsole(page, app.adminKey);
    await page.goto(`/console/applications/${applicationId}/versions/4.0.0`);
    const section = page.getByRole('region', { name: 'Provenance attestations' });
    await section.getByText('No attestation.').waitFor();
    const input = section.getByLabel(`Add an attestation to ${fileName}`);

    await input.setInputFiles({ name: 'wrong.intoto.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(wrong)) });
    await section.getByRole('alert').filter({ hasText: "no subject of the statement has the file's SHA-256 or SHA-512 digest" }).waitFor();
    expect((await app.http.get(listPath)).body.data.attestations).to.have.length(0);
    await checkAndPhotograph(page, 'console-attestations-refused');

    await input.setInputFiles({ name: 'not-json.json', mimeType: 'application/json', buffer: Buffer.from('{ not json') });
    await section.getByRole('alert').filter({ hasText: 'not-json.json is not JSON' }).waitFor();

    await input.setInputFiles({ name: 'provenance.intoto.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(right)) });
    await section.getByText('Attestation added from provenance.intoto.json').waitFor();
    const row = section.getByRole('region', { name: `Attestations of ${fileName}` }).getByRole('row').nth(1);
    await row.waitFor();
    const text = await row.innerText();
    expect(text).to.include('DSSE envelope').and.to.include('https://slsa.dev/provenance/v1').and.to.include('verified')
      .and.to.include('release-ci').and.to.include(build.builderId).and.to.include(build.commit).and.to.include(build.repository);
    expect((await app.http.get(listPath)).body.data.attestations).to.have.length(1);
    await checkAndPhotograph(page, 'console-attestations');
    watched.assertProblemFree();
    await watched.close();
  });
});
