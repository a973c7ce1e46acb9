import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { isInRollout } from '../../shared/releases/rollout';
import { AptRoot, debIdentity } from '../support/apt-client';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { buildDeb } from '../support/linux-packages';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The apt repository with Debian's real apt-get, in private roots: packages built by dpkg-deb for
 * two versions and two architectures, uploaded through the API; apt-get update verifies InRelease
 * with the key the service serves, download and upgrade -s see what the release rules offer.
 */
describe('apt repository with the real apt-get', function () {
  this.timeout(180_000);
  let app: TestApp;
  let directory: string;
  let applicationId: string;
  let customer: { customerId: string; apiKey: string };
  let token: string;
  const debs = new Map<string, string>();
  const PACKAGE = 'acme-tool';

  const createToken = async (customerId: string) => {
    const created = await app.http.post(`/v1/management/customers/${customerId}/tokens`, {});
    expect(created.status, created.raw.toString()).to.equal(201);
    return (created.body.data as { token: string }).token;
  };
  const repositoryUrl = (withToken = token) => `${app.baseUrl}${withToken ? `/t/${withToken}` : ''}/v1/repos/${applicationId}/apt`;
  const upload = async (version: string, arch: 'amd64' | 'arm64') => {
    const content = await fsp.readFile(debs.get(`${version}/${arch}`) as string);
    return uploadSmallFile(app, { applicationId, version, content, fileName: `${PACKAGE}_${version}_${arch}.deb`, platform: 'linux', arch: arch === 'amd64' ? 'x64' : 'arm64' });
  };
  const keyOf = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(`${url}/key.asc`, init);
    expect(response.status).to.equal(200);
    return Buffer.from(await response.arrayBuffer());
  };
  /** A private apt root trusting the served key, its sources.list naming the repository. */
  const aptRoot = async (arch = 'amd64', url = repositoryUrl()) => {
    const apt = await AptRoot.create(directory, arch);
    const keyring = await apt.trustKey(await keyOf(url));
    await apt.setSource(`deb [signed-by=${keyring}] ${url} stable main`);
    return apt;
  };
  const update = async (apt: AptRoot) => {
    const result = await apt.aptGet(['update']);
    expect(result.code, result.output).to.equal(0);
    expect(result.output, result.output).not.to.match(/^(W|E|Err):/m);
  };
  const patchVersion = async (version: string, patch: Record<string, unknown>) => {
    const response = await app.http.patch(`/v1/management/applications/${applicationId}/versions/${version}`, patch);
    expect(response.status, response.raw.toString()).to.equal(200);
  };

  before(async () => {
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-apt-'));
    for (const version of ['1.0.0', '1.1.0']) {
      for (const arch of ['amd64', 'arm64']) debs.set(`${version}/${arch}`, await buildDeb(directory, { name: PACKAGE, version, arch }));
    }
    app = await startTestApp({ workers: false });
    customer = await createCustomer(app);
    ({ applicationId } = await createApplication(app, { customerIds: [customer.customerId] }));
    token = await createToken(customer.customerId);
    await upload('1.0.0', 'amd64');
    await upload('1.0.0', 'arm64');
  });
  after(async () => {
    await app?.close();
    await fsp.rm(directory, { recursive: true, force: true });
  });

  it('refuses at upload a .deb whose control file contradicts the version or the arch, naming both', async () => {
    const content = await fsp.readFile(debs.get('1.0.0/amd64') as string);
    const send = (version: string, arch: string) => app.http.request('POST', '/v1/management/upload', {
      body: (() => {
        const form = new FormData();
        form.set('applicationId', applicationId);
        form.set('version', version);
        form.set('platform', 'linux');
        form.set('arch', arch);
        form.set('file', new Blob([content]), `${PACKAGE}_${version}_${arch}.deb`);
        return form;
      })(),
    });
    const wrongVersion = await send('3.0.0', 'x64');
    expect(wrongVersion.status).to.equal(400);
    expect(wrongVersion.raw.toString()).to.include('1.0.0').and.to.include('3.0.0');
    const wrongArch = await send('1.0.0-rc.9', 'arm64');
    expect(wrongArch.status).to.equal(400);
    const archRefused = await send('1.0.0', 'arm64');
    expect(archRefused.status).to.equal(400);
    expect(archRefused.raw.toString()).to.include('amd64').and.to.include('arm64');
    // Nothing was stored: the version still has its two packages.
    const [stored] = (await app.core.store.versions.listVersions(applicationId)).filter((version) => version.version === '1.0.0');
    expect(stored.files.filter((file) => file.status === 'available')).to.have.length(2);
    expect((await app.core.store.versions.listVersions(applicationId)).map((version) => version.version)).not.to.include('3.0.0');
  });

  it('apt-get update verifies InRelease with the served key; download fetches the newest offered version for each arch', async () => {
    const apt = await aptRoot();
    await update(apt);
    expect(await apt.candidate(PACKAGE)).to.equal('1.0.0');
    const downloaded = await apt.aptGet(['download', PACKAGE]);
    expect(downloaded.code, downloaded.output).to.equal(0);
    expect(await debIdentity(path.join(apt.root, 'downloads', `${PACKAGE}_1.0.0_amd64.deb`))).to.deep.equal({ version: '1.0.0', arch: 'amd64' });

    const arm = await aptRoot('arm64');
    await update(arm);
    expect((await arm.aptGet(['download', PACKAGE])).code).to.equal(0);
    expect(await debIdentity(path.join(arm.root, 'downloads', `${PACKAGE}_1.0.0_arm64.deb`))).to.deep.equal({ version: '1.0.0', arch: 'arm64' });
  });

  it('offers a new release to apt-get upgrade, install and download after it is published', async () => {
    const apt = await aptRoot();
    await apt.setInstalled([{ name: PACKAGE, version: '1.0.0', arch: 'amd64' }]);
    await update(apt);
    expect((await apt.aptGet(['upgrade', '-s'])).output).not.to.include(`Inst ${PACKAGE}`);

    await upload('1.1.0', 'amd64');
    await upload('1.1.0', 'arm64');
    await update(apt);
    const upgrade = await apt.aptGet(['upgrade', '-s']);
    expect(upgrade.code, upgrade.output).to.equal(0);
    expect(upgrade.output).to.match(new RegExp(`Inst ${PACKAGE} \\[1\\.0\\.0\\] \\(1\\.1\\.0 `));
    const install = await apt.aptGet(['install', '-s', PACKAGE]);
    expect(install.output).to.match(new RegExp(`Inst ${PACKAGE} \\[1\\.0\\.0\\] \\(1\\.1\\.0 `));
    expect((await apt.aptGet(['download', PACKAGE])).code).to.equal(0);
    expect(await debIdentity(path.join(apt.root, 'downloads', `${PACKAGE}_1.1.0_amd64.deb`))).to.deep.equal({ version: '1.1.0', arch: 'amd64' });
  });

  it('keeps a customer outside a staged rollout on the older version, and drops a yanked version', async () => {
    // A customer the 1 % rollout of 1.1.0 leaves out.
    let outside: { customerId: string; apiKey: string } | undefined;
    for (let attempt = 0; !outside; attempt += 1) {
      const candidate = await createCustomer(app);
      if (!isInRollout(candidate.customerId, applicationId, '1.1.0', 1)) outside = candidate;
    }
    const granted = await app.http.request('PUT', `/v1/management/customers/${outside.customerId}/applications/${applicationId}`, { json: {} });
    expect(granted.status, granted.raw.toString()).to.equal(200);
    const outsideToken = await createToken(outside.customerId);

    await patchVersion('1.1.0', { rolloutPercentage: 1 });
    const outsider = await aptRoot('amd64', repositoryUrl(outsideToken));
    await update(outsider);
    expect(await outsider.candidate(PACKAGE)).to.equal('1.0.0');

    await patchVersion('1.1.0', { rolloutPercentage: 100 });
    await update(outsider);
    expect(await outsider.candidate(PACKAGE)).to.equal('1.1.0');

    await patchVersion('1.1.0', { status: 'yanked', yankReason: 'crashes on start' });
    await update(outsider);
    expect(await outsider.candidate(PACKAGE)).to.equal('1.0.0');
    // Its pool link is gone too, as its downloads are.
    const pool = await fetch(`${repositoryUrl(outsideToken)}/pool/1.1.0/${PACKAGE}_1.1.0_amd64.deb`, { redirect: 'manual' });
    expect(pool.status).to.equal(410);
    await patchVersion('1.1.0', { status: 'published' });
  });

  it('takes HTTP Basic credentials from auth.conf: the customer id and an access token', async () => {
    const url = repositoryUrl('');
    const apt = await AptRoot.create(directory);
    const keyring = await apt.trustKey(await keyOf(url, { headers: { Authorization: `Basic ${Buffer.from(`${customer.customerId}:${token}`).toString('base64')}` } }));
    await apt.setSource(`deb [signed-by=${keyring}] ${url} stable main`);
    const unauthenticated = await apt.aptGet(['update']);
    expect(unauthenticated.output).to.match(/401/);
    await apt.setAuth(`machine http://${new URL(url).host}${new URL(url).pathname} login ${customer.customerId} password ${token}`);
    await update(apt);
    expect(await apt.candidate(PACKAGE)).to.be.a('string');
    // Another customer's login with this token is refused.
    const other = await createCustomer(app);
    await apt.setAuth(`machine http://${new URL(url).host}${new URL(url).pathname} login ${other.customerId} password ${token}`);
    const refused = await apt.aptGet(['update']);
    expect(refused.output).to.match(/401/);
  });

  it('refuses a repository signed by another key, and a tampered InRelease', async () => {
    // Another application's key: apt-get finds no key it trusts for the signature.
    const other = await createApplication(app, { customerIds: [customer.customerId] });
    const wrongKey = await keyOf(`${app.baseUrl}/t/${token}/v1/repos/${other.applicationId}/apt`);
    const apt = await AptRoot.create(directory);
    const keyring = await apt.trustKey(wrongKey);
    await apt.setSource(`deb [signed-by=${keyring}] ${repositoryUrl()} stable main`);
    const wrong = await apt.aptGet(['update']);
    expect(wrong.output).to.match(/NO_PUBKEY|not signed/);
    expect(await apt.candidate(PACKAGE)).to.equal(null);

    // A proxy that changes one digest of InRelease: the signature no longer verifies.
    const proxy = http.createServer((request, response) => {
      void (async () => {
        const upstream = await fetch(`${app.baseUrl}${request.url}`, { redirect: 'manual' });
        let body = Buffer.from(await upstream.arrayBuffer());
        if (request.url?.endsWith('/InRelease')) body = Buffer.from(body.toString('utf8').replace(/^ ([0-9a-f])/m, (_, digit: string) => ` ${digit === 'a' ? 'b' : 'a'}`));
        response.writeHead(upstream.status, { 'Content-Type': upstream.headers.get('content-type') ?? 'text/plain' });
        response.end(body);
      })();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (proxy.address() as { port: number }).port;
      const tampered = await aptRoot();
      await tampered.setSource(`deb [signed-by=${path.join(tampered.root, 'etc/apt/keyrings/repository.gpg')}] http://127.0.0.1:${port}/t/${token}/v1/repos/${applicationId}/apt stable main`);
      const result = await tampered.aptGet(['update']);
      expect(result.output).to.match(/BADSIG|not signed|invalid/i);
      expect(await tampered.candidate(PACKAGE)).to.equal(null);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('rotates the signing key with an overlap: a client trusting the old key still verifies, key.asc serves both; an imported gpg key signs next', async () => {
    const rotated = await createApplication(app, { customerIds: [customer.customerId] });
    const url = `${app.baseUrl}/t/${token}/v1/repos/${rotated.applicationId}/apt`;
    const content = await fsp.readFile(debs.get('1.0.0/amd64') as string);
    await uploadSmallFile(app, { applicationId: rotated.applicationId, version: '1.0.0', content, fileName: `${PACKAGE}_1.0.0_amd64.deb`, platform: 'linux', arch: 'x64' });
    const trustingOld = await aptRoot('amd64', url);
    await update(trustingOld);
    const before = (await app.http.get(`/v1/management/applications/${rotated.applicationId}/repositories`)).body.data;
    expect(before.keys).to.have.length(1);
    expect(before.channels[0].packages.map((pkg: { packageName: string; packageArch: string }) => `${pkg.packageName}/${pkg.packageArch}`)).to.deep.equal([`${PACKAGE}/amd64`]);

    const rotation = await app.http.post(`/v1/management/applications/${rotated.applicationId}/repositories/rotate-key`, {});
    expect(rotation.status, rotation.raw.toString()).to.equal(200);
    const [current, previous] = rotation.body.data.keys as Array<{ fingerprint: string; retiresAt: string | null }>;
    expect(current.retiresAt).to.equal(null);
    expect(previous.fingerprint).to.equal(before.keys[0].fingerprint);
    expect(Date.parse(previous.retiresAt as string) - Date.now()).to.be.greaterThan(29 * 24 * 3600 * 1000);
    // Still verifies with the old key alone, and with the new key alone.
    await update(trustingOld);
    const trustingNew = await aptRoot('amd64', url);
    const served = await keyOf(url);
    const servedFile = path.join(directory, `served-${rotated.applicationId}.asc`);
    await fsp.writeFile(servedFile, served);
    const { stdout } = await promisify(execFile)('gpg', ['--batch', '--with-colons', '--show-keys', servedFile]);
    expect(stdout.match(/^fpr:/gm)).to.have.length(2);
    await update(trustingNew);

    // The vendor's own key, made by gpg, imported: it signs from now on.
    const home = await fsp.mkdtemp(path.join(directory, 'gnupg-'));
    const gpg = (args: string[]) => promisify(execFile)('gpg', ['--homedir', home, '--batch', ...args]);
    await gpg(['--passphrase', '', '--quick-gen-key', 'Vendor Repository <repo@example.com>', 'ed25519', 'sign', 'never']);
    const exported = (await gpg(['--armor', '--pinentry-mode', 'loopback', '--passphrase', '', '--export-secret-keys'])).stdout;
    const imported = await app.http.request('PUT', `/v1/management/applications/${rotated.applicationId}/repositories/key`, { json: { privateKey: exported } });
    expect(imported.status, imported.raw.toString()).to.equal(200);
    expect(imported.body.data.keys[0]).to.deep.include({ origin: 'imported', retiresAt: null });
    const vendorKey = (await gpg(['--armor', '--export'])).stdout;
    const trustingVendor = await AptRoot.create(directory);
    const keyring = await trustingVendor.trustKey(vendorKey);
    await trustingVendor.setSource(`deb [signed-by=${keyring}] ${url} stable main`);
    await update(trustingVendor);
    // A public key is no private key: refused, nothing changed.
    const refused = await app.http.request('PUT', `/v1/management/applications/${rotated.applicationId}/repositories/key`, { json: { privateKey: vendorKey } });
    expect(refused.status).to.equal(400);
    expect((await app.http.get(`/v1/management/applications/${rotated.applicationId}/repositories`)).body.data.keys).to.have.length(3);
  });

  it("gives another customer's token nothing: no index, no key, no package", async () => {
    const stranger = await createCustomer(app);
    const strangerToken = await createToken(stranger.customerId);
    const url = repositoryUrl(strangerToken);
    for (const file of ['key.asc', 'dists/stable/InRelease', 'dists/stable/main/binary-amd64/Packages', `pool/1.0.0/${PACKAGE}_1.0.0_amd64.deb`]) {
      const response = await fetch(`${url}/${file}`, { redirect: 'manual' });
      expect(response.status, file).to.equal(404);
    }
    const apt = await AptRoot.create(directory);
    await apt.setSource(`deb [trusted=yes] ${url} stable main`);
    const result = await apt.aptGet(['update']);
    expect(result.code, result.output).not.to.equal(0);
    expect(result.output, result.output).to.match(/404|does not have a Release file/);
    expect(await apt.candidate(PACKAGE)).to.equal(null);
  });
  it('fetches indexes by hash (Acquire-By-Hash), and still serves the previous suite\'s by hash after an index changed', async () => {
    const apt = await aptRoot();
    // apt's own account of its requests: every Packages index is asked for under by-hash/SHA256.
    const updated = await apt.aptGet(['update', '-o', 'Debug::Acquire::http=true']);
    expect(updated.code, updated.output).to.equal(0);
    const requested = [...updated.output.matchAll(/^GET (\S+) HTTP/gm)].map((match) => match[1]);
    const indexRequests = requested.filter((line) => line.includes('/dists/stable/main/binary-amd64/'));
    expect(indexRequests, requested.join('\n')).to.have.length.above(0);
    for (const line of indexRequests) expect(line).to.match(/\/by-hash\/SHA256\/[0-9a-f]{64}$/);
    expect(await apt.candidate(PACKAGE)).not.to.equal(null);

    // A client that read this InRelease asks for its hashes after a new release changed the index.
    const release = await fetch(`${repositoryUrl()}/dists/stable/Release`).then((response) => response.text());
    const listed = /^ ([0-9a-f]{64}) +\d+ main\/binary-amd64\/Packages$/m.exec(release);
    expect(listed, release).not.to.equal(null);
    expect(release).to.match(/^Acquire-By-Hash: yes$/m);
    const olderHash = listed![1];
    const byHash = (hash: string) => fetch(`${repositoryUrl()}/dists/stable/main/binary-amd64/by-hash/SHA256/${hash}`);
    const older = await byHash(olderHash);
    expect(older.status).to.equal(200);
    const olderBytes = Buffer.from(await older.arrayBuffer());
    const newer = await buildDeb(directory, { name: PACKAGE, version: '9.0.0', arch: 'amd64' });
    await uploadSmallFile(app, { applicationId, version: '9.0.0', content: await fsp.readFile(newer), fileName: `${PACKAGE}_9.0.0_amd64.deb`, platform: 'linux', arch: 'x64' });
    const changed = await fetch(`${repositoryUrl()}/dists/stable/Release`).then((response) => response.text());
    expect(changed).not.to.include(olderHash);
    const previous = await byHash(olderHash);
    expect(previous.status).to.equal(200);
    expect(Buffer.from(await previous.arrayBuffer()).equals(olderBytes)).to.equal(true);
    // Neither suite's hash, a wrong directory, or a malformed hash: refused.
    expect((await byHash('0'.repeat(64))).status).to.equal(404);
    expect((await fetch(`${repositoryUrl()}/dists/stable/main/binary-arm64/by-hash/SHA256/${olderHash}`)).status).to.equal(404);
    expect((await byHash('ABC')).status).to.equal(400);
    // Another customer gets nothing by hash.
    const stranger = await createCustomer(app);
    expect((await fetch(`${repositoryUrl(await createToken(stranger.customerId))}/dists/stable/main/binary-amd64/by-hash/SHA256/${olderHash}`)).status).to.equal(404);
    await update(apt);
    expect(await apt.candidate(PACKAGE)).to.equal('9.0.0');
  });
});
