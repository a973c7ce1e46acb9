import { expect } from 'chai';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DnfRoot, rpmIdentity } from '../support/dnf-client';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { buildRpm } from '../support/linux-packages';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The rpm repository with Debian's real dnf in private install roots: packages built by rpmbuild for
 * two versions and two architectures, uploaded through the API; dnf makecache verifies repomd.xml's
 * signature (repo_gpgcheck=1) with the key the .repo file names, download and check-update see what
 * the release rules offer.
 */
describe('rpm repository with the real dnf', function () {
  this.timeout(300_000);
  let app: TestApp;
  let directory: string;
  let applicationId: string;
  let token: string;
  const rpms = new Map<string, string>();
  const PACKAGE = 'acme-tool';

  const createToken = async (customerId: string) => {
    const created = await app.http.post(`/v1/management/customers/${customerId}/tokens`, {});
    expect(created.status, created.raw.toString()).to.equal(201);
    return (created.body.data as { token: string }).token;
  };
  const repositoryUrl = (withToken = token) => `${app.baseUrl}/t/${withToken}/v1/repos/${applicationId}/rpm`;
  const upload = async (version: string, arch: 'x86_64' | 'aarch64') => {
    const file = rpms.get(`${version}/${arch}`) as string;
    return uploadSmallFile(app, { applicationId, version, content: await fsp.readFile(file), fileName: path.basename(file), platform: 'linux', arch: arch === 'x86_64' ? 'x64' : 'arm64' });
  };
  /** A private root with the channel's .repo file as the service answers it. */
  const dnfRoot = async (url = repositoryUrl()) => {
    const dnf = await DnfRoot.create(directory);
    const repoFile = await fetch(`${url}/stable/${applicationId}.repo`);
    expect(repoFile.status).to.equal(200);
    const text = await repoFile.text();
    expect(text).to.include('repo_gpgcheck=1').and.to.include('\ngpgcheck=1');
    expect(text).to.match(new RegExp(`^gpgkey=http://\\S+${new URL(url).pathname}/key\\.asc$`, 'm'));
    await dnf.setRepoFile(`${applicationId}.repo`, text);
    return dnf;
  };
  const makecache = async (dnf: DnfRoot) => {
    const result = await dnf.dnf(['makecache']);
    expect(result.code, result.output).to.equal(0);
    return result;
  };

  before(async () => {
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-rpm-'));
    for (const version of ['1.0.0', '1.1.0']) {
      for (const arch of ['x86_64', 'aarch64']) rpms.set(`${version}/${arch}`, await buildRpm(directory, { name: PACKAGE, version, arch }));
    }
    app = await startTestApp({ workers: false });
    const customer = await createCustomer(app);
    ({ applicationId } = await createApplication(app, { customerIds: [customer.customerId] }));
    token = await createToken(customer.customerId);
    await upload('1.0.0', 'x86_64');
    await upload('1.0.0', 'aarch64');
  });
  after(async () => {
    await app?.close();
    await fsp.rm(directory, { recursive: true, force: true });
  });

  it('refuses at upload an .rpm whose header contradicts the version or the arch', async () => {
    const file = rpms.get('1.0.0/x86_64') as string;
    const content = await fsp.readFile(file);
    const send = (version: string, arch: string) => app.http.request('POST', '/v1/management/upload', {
      body: (() => {
        const form = new FormData();
        form.set('applicationId', applicationId);
        form.set('version', version);
        form.set('platform', 'linux');
        form.set('arch', arch);
        form.set('file', new Blob([content]), path.basename(file));
        return form;
      })(),
    });
    const wrongVersion = await send('2.0.0', 'x64');
    expect(wrongVersion.status).to.equal(400);
    expect(wrongVersion.raw.toString()).to.include('1.0.0-1').and.to.include('2.0.0');
    const wrongArch = await send('1.0.0', 'arm64');
    expect(wrongArch.status).to.equal(400);
    expect(wrongArch.raw.toString()).to.include('x86_64').and.to.include('arm64');
  });

  it('dnf makecache verifies repomd.xml with the served key; download fetches the newest offered version', async () => {
    const dnf = await dnfRoot();
    await makecache(dnf);
    for (const arch of ['x86_64', 'aarch64']) {
      const downloaded = await dnf.dnf(['download', `--arch=${arch}`, `--destdir=${path.join(dnf.root, 'downloads', arch)}`, PACKAGE]);
      expect(downloaded.code, downloaded.output).to.equal(0);
      const files = await fsp.readdir(path.join(dnf.root, 'downloads', arch));
      expect(files).to.deep.equal([`${PACKAGE}-1.0.0-1.${arch}.rpm`]);
      expect(await rpmIdentity(path.join(dnf.root, 'downloads', arch, files[0]))).to.equal(`${PACKAGE} 1.0.0-1 ${arch}`);
    }
  });

  it('check-update offers a new release once it is published, and no longer once it is yanked', async () => {
    const dnf = await dnfRoot();
    await dnf.markInstalled(rpms.get('1.0.0/x86_64') as string);
    await makecache(dnf);
    expect((await dnf.dnf(['check-update'])).code).to.equal(0);

    await upload('1.1.0', 'x86_64');
    await upload('1.1.0', 'aarch64');
    const offered = await dnf.dnf(['check-update', '--refresh']);
    expect(offered.code, offered.output).to.equal(100);
    expect(offered.output).to.match(new RegExp(`${PACKAGE}\\.x86_64\\s+1\\.1\\.0-1`));

    const yanked = await app.http.patch(`/v1/management/applications/${applicationId}/versions/1.1.0`, { status: 'yanked', yankReason: 'broken' });
    expect(yanked.status).to.equal(200);
    expect((await dnf.dnf(['check-update', '--refresh'])).code).to.equal(0);
    const published = await app.http.patch(`/v1/management/applications/${applicationId}/versions/1.1.0`, { status: 'published' });
    expect(published.status).to.equal(200);
  });

  it('refuses metadata signed by another key, and a customer without access gets nothing', async () => {
    const other = await createApplication(app);
    const otherCustomer = await createCustomer(app);
    const granted = await app.http.request('PUT', `/v1/management/customers/${otherCustomer.customerId}/applications/${other.applicationId}`, { json: {} });
    expect(granted.status).to.equal(200);
    const otherToken = await createToken(otherCustomer.customerId);
    const dnf = await dnfRoot();
    // The .repo names this repository's metadata with the other application's key.
    const text = (await fetch(`${repositoryUrl()}/stable/${applicationId}.repo`).then((response) => response.text()))
      .replace(/^gpgkey=.*$/m, `gpgkey=${app.baseUrl}/t/${otherToken}/v1/repos/${other.applicationId}/rpm/key.asc`);
    await dnf.setRepoFile(`${applicationId}.repo`, text);
    const refused = await dnf.dnf(['makecache']);
    expect(refused.code, refused.output).not.to.equal(0);
    expect(refused.output).to.match(/GPG|signature/i);

    for (const file of ['key.asc', 'stable/repodata/repomd.xml', 'stable/repodata/primary.xml.gz', `stable/${applicationId}.repo`, `stable/packages/1.0.0/${PACKAGE}-1.0.0-1.x86_64.rpm`]) {
      const response = await fetch(`${repositoryUrl(otherToken)}/${file}`, { redirect: 'manual' });
      expect(response.status, file).to.equal(404);
    }
  });
});
