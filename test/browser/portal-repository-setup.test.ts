import { expect } from 'chai';
import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { AptRoot } from '../support/apt-client';
import { checkAndPhotograph, launchBrowser, openPage } from '../support/browser';
import { DnfRoot } from '../support/dnf-client';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { buildDeb, buildRpm } from '../support/linux-packages';
import { startTestApp, TestApp } from '../support/test-app';

const run = promisify(execFile);

/**
 * The portal's apt and dnf setup texts, pasted as they are shown into private roots of the real
 * apt-get and dnf: only the system paths (/etc/apt, /etc/yum.repos.d) are moved into the root, and
 * `sudo` dropped (the test runs as root).
 */
describe('portal: apt and dnf setup pasted into the real package managers', function () {
  this.timeout(240_000);
  let app: TestApp;
  let browser: Browser;
  let directory: string;
  let applicationId: string;
  let customer: { customerId: string; apiKey: string };
  let token: string;
  const PACKAGE = 'acme-setup';

  before(async () => {
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-setup-'));
    app = await startTestApp({ workers: false });
    customer = await createCustomer(app);
    ({ applicationId } = await createApplication(app, { name: 'Setup Tool', customerIds: [customer.customerId] }));
    const deb = await buildDeb(directory, { name: PACKAGE, version: '2.0.0', arch: 'amd64' });
    const rpm = await buildRpm(directory, { name: PACKAGE, version: '2.0.1', arch: 'x86_64' });
    for (const [version, file] of [['2.0.0', deb], ['2.0.1', rpm]]) {
      await uploadSmallFile(app, { applicationId, version, content: await fsp.readFile(file), fileName: path.basename(file), platform: 'linux', arch: 'x64' });
    }
    const created = await app.http.post(`/v1/management/customers/${customer.customerId}/tokens`, {});
    expect(created.status, created.raw.toString()).to.equal(201);
    token = (created.body.data as { token: string }).token;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await fsp.rm(directory, { recursive: true, force: true });
  });

  /** The setup texts as the page shows them, after opening the panel from the keyboard. */
  const openSetup = async (page: Page): Promise<Record<string, string>> => {
    const summary = page.getByText('Install and update with apt or dnf');
    await summary.waitFor();
    await summary.focus();
    await page.keyboard.press('Enter');
    await page.locator('pre[data-setup="apt-path"]').waitFor();
    const texts: Record<string, string> = {};
    for (const block of await page.locator('pre[data-setup]').all()) {
      texts[(await block.getAttribute('data-setup')) as string] = (await block.textContent()) ?? '';
    }
    return texts;
  };

  /** A pasted script, with only the system paths moved into the private root and sudo dropped. */
  const adapt = (script: string, from: string, to: string) => script.split(from).join(to).replace(/\bsudo /g, '');

  const pasteIntoApt = async (script: string) => {
    const apt = await AptRoot.create(directory);
    const adapted = adapt(script, '/etc/apt/', `${apt.root}/etc/apt/`);
    const result = await run('bash', ['-euo', 'pipefail', '-c', adapted], {
      env: { ...process.env, APT_CONFIG: path.join(apt.root, 'apt.conf'), LC_ALL: 'C' }, timeout: 120_000,
    }).then(({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? -1, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }));
    expect(result.code, result.output).to.equal(0);
    expect(result.output, result.output).not.to.match(/^(W|E|Err):/m);
    expect(await apt.candidate(PACKAGE)).to.equal('2.0.0');
    return apt;
  };

  it('shows the setup for a portal link; its apt texts (token in the URL, and auth.conf) and the .repo work as pasted', async () => {
    const watched = await openPage(browser, app.config.publicBaseUrl);
    const { page } = watched;
    await page.goto(`/portal#token=${token}`);
    const texts = await openSetup(page);
    expect(texts['apt-path']).to.include(`/t/${token}/v1/repos/${applicationId}/apt stable main`).and.to.include('gpg --dearmor');
    expect(texts['apt-basic']).to.include(`login ${customer.customerId} password ${token}`).and.to.include(`/etc/apt/auth.conf.d/${applicationId}.conf`);
    expect(texts['apt-basic']).not.to.include('/t/');
    expect(texts['apt-deb822']).to.include('Signed-By: /etc/apt/keyrings/');
    expect(texts['rpm-repo']).to.include('repo_gpgcheck=1').and.to.include('\ngpgcheck=1').and.to.include(`gpgkey=${app.config.publicBaseUrl}/t/${token}/`);
    await checkAndPhotograph(page, 'portal-repository-setup');
    watched.assertProblemFree();
    await watched.close();

    await pasteIntoApt(texts['apt-path']);
    const basic = await pasteIntoApt(texts['apt-basic']);
    // The token stays out of sources.list in the auth.conf form.
    const sources = await fsp.readFile(path.join(basic.root, `etc/apt/sources.list.d/${applicationId}.list`), 'utf8');
    expect(sources).not.to.include(token);

    const dnf = await DnfRoot.create(directory);
    const script = adapt(texts['rpm-repo'], '/etc/yum.repos.d/', `${dnf.root}/etc/yum.repos.d/`);
    // The text writes the .repo file, then runs dnf makecache: the root's dnf runs that.
    const [write, makecache] = [script.slice(0, script.lastIndexOf('\n')), script.slice(script.lastIndexOf('\n') + 1)];
    expect(makecache).to.equal('dnf makecache');
    await run('bash', ['-euo', 'pipefail', '-c', write]);
    const made = await dnf.dnf(['makecache']);
    expect(made.code, made.output).to.equal(0);
    const listed = await dnf.dnf(['list', '--available', PACKAGE]);
    expect(listed.code, listed.output).to.equal(0);
    expect(listed.output).to.include('2.0.1-1');
  });

  it('signed in with an API key, the texts leave a place for an access token (apt and dnf cannot send the key)', async () => {
    const watched = await openPage(browser, app.config.publicBaseUrl, { viewport: { width: 390, height: 844 } });
    const { page } = watched;
    await page.goto('/portal');
    await page.getByLabel('Your API key').fill(customer.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const texts = await openSetup(page);
    expect(texts['apt-path']).to.include('/t/<access token>/');
    expect(texts['apt-basic']).to.include(`login ${customer.customerId} password <access token>`);
    expect(Object.values(texts).join('\n')).not.to.include(customer.apiKey);
    expect(await page.getByText('ask your vendor for one').count()).to.equal(1);
    watched.assertProblemFree();
    await watched.close();
  });
});
