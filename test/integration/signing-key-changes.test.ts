import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parsePublicKey } from '../../shared/signing/minisign';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { generateTauriKey, tauriSign, TauriSigningKey } from '../support/tauri-signer';
import { TauriUpdateClient } from '../support/tauri-update-client';
import { startTestApp, TestApp } from '../support/test-app';

/** A Tauri app's update key changes: installs built with the old key are steered through a bridge release signed with it. */
describe('signing-key changes: Tauri installs through a bridge release', function () {
  this.timeout(120_000);
  let app: TestApp;
  let directory: string;
  let oldKey: TauriSigningKey;
  let newKey: TauriSigningKey;
  let customer: { customerId: string; apiKey: string };
  const builds = new Map<string, Buffer>();

  before(async () => {
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-signing-keys-'));
    [oldKey, newKey] = [await generateTauriKey(directory, 'old'), await generateTauriKey(directory, 'new')];
    app = await startTestApp({ workers: false });
    customer = await createCustomer(app);
  });
  after(async () => {
    await app?.close();
    await fsp.rm(directory, { recursive: true, force: true });
  });

  /** Uploads a Linux build and its `tauri signer sign` signature through the upload API, which verifies it. */
  async function release(applicationId: string, version: string, key: TauriSigningKey): Promise<void> {
    const bytes = randomBytes(9_000);
    const file = path.join(directory, `${version}-${randomBytes(4).toString('hex')}.tar.gz`);
    await fsp.writeFile(file, bytes);
    const signature = Buffer.from(await tauriSign(key, file));
    const target = { applicationId, version, platform: 'linux', arch: 'x64' };
    await uploadSmallFile(app, { ...target, content: bytes, fileName: 'app.AppImage.tar.gz', fileType: 'MAIN' });
    await uploadSmallFile(app, { ...target, content: signature, fileName: 'app.AppImage.tar.gz.sig', fileType: 'SIGNATURE' });
    builds.set(version, bytes);
  }

  const install = (applicationId: string, running: string, key: TauriSigningKey, versionComparator?: (current: string, remote: string) => boolean) => new TauriUpdateClient({
    endpoint: `${app.baseUrl}/v1/updates/${applicationId}/tauri/{{target}}/{{arch}}/{{current_version}}`,
    target: 'linux', arch: 'x86_64', currentVersion: running, headers: { Authorization: `Bearer ${customer.apiKey}` }, pubkey: key.publicKey,
    versionComparator,
  });
  /** A rollback is a downgrade: an app takes one only with a comparator that accepts an older version. */
  const anyOther = (current: string, remote: string): boolean => current !== remote;

  const managed = async (applicationId: string) => (await app.http.get(`/v1/management/applications/${applicationId}`)).body.data;

  it('offers old-key installs only the bridge, new-key installs the newest, and warns until a bridge exists', async () => {
    const oldId = parsePublicKey(oldKey.publicKey).keyId;
    const newId = parsePublicKey(newKey.publicKey).keyId;
    const { applicationId } = await createApplication(app, { customerIds: [customer.customerId], updateSigningKey: oldKey.publicKey });
    await release(applicationId, '1.0.0', oldKey);

    const changed = await app.http.patch(`/v1/management/applications/${applicationId}`, { updateSigningKey: newKey.publicKey });
    expect(changed.status, changed.raw.toString()).to.equal(200);
    expect(changed.body.data.retiredSigningKeys).to.have.length(1);
    expect(changed.body.data.retiredSigningKeys[0]).to.include({ kind: 'minisign', key: oldKey.publicKey, keyId: oldId });

    // A release signed only under the new key: never offered to an old-key install, which stays up to date.
    await release(applicationId, '2.0.0', newKey);
    expect(await install(applicationId, '1.0.0', oldKey).check()).to.equal(null);
    const before = await managed(applicationId);
    expect(before.versions.map((v: { version: string; signedUnder: unknown }) => [v.version, v.signedUnder])).to.deep.equal([
      ['2.0.0', { minisign: newId, sparkle: null }], ['1.0.0', { minisign: oldId, sparkle: null }],
    ]);
    expect(before.strandedInstalls).to.deep.equal([{ kind: 'minisign', keyId: oldId, versions: ['1.0.0'] }]);

    // The bridge: signed with the old key (it verifies under the retired key) after the change.
    await release(applicationId, '1.1.0', oldKey);
    expect((await managed(applicationId)).strandedInstalls).to.deep.equal([]);
    const oldInstall = install(applicationId, '1.0.0', oldKey);
    const bridge = await oldInstall.check();
    expect(bridge?.version).to.equal('1.1.0');
    // The client verifies the bridge under the key it was built with before installing it.
    expect(await oldInstall.download(bridge!)).to.deep.equal(builds.get('1.1.0'));

    // The bridge ships the new key: its installs are offered the newest release, which verifies under it.
    const bridged = install(applicationId, '1.1.0', newKey);
    const newest = await bridged.check();
    expect(newest?.version).to.equal('2.0.0');
    expect(await bridged.download(newest!)).to.deep.equal(builds.get('2.0.0'));
    expect(await install(applicationId, '2.0.0', newKey).check()).to.equal(null);

    // Later new-key releases still reach old installs only through the bridge.
    await release(applicationId, '3.0.0', newKey);
    expect((await install(applicationId, '1.0.0', oldKey).check())?.version).to.equal('1.1.0');
    expect((await install(applicationId, '2.0.0', newKey).check())?.version).to.equal('3.0.0');
  });

  it('rolls an install back only to a release its key verifies', async () => {
    const { applicationId } = await createApplication(app, { customerIds: [customer.customerId], updateSigningKey: oldKey.publicKey });
    await release(applicationId, '1.0.0', oldKey);
    expect((await app.http.patch(`/v1/management/applications/${applicationId}`, { updateSigningKey: newKey.publicKey })).status).to.equal(200);
    await release(applicationId, '2.0.0', newKey);
    await release(applicationId, '2.1.0', newKey);
    const yank = (rollbackTo: string) => app.http.patch(`/v1/management/applications/${applicationId}/versions/2.1.0`, { status: 'yanked', rollbackTo });

    // 1.0.0 was signed under the retired key: a 2.1.0 install (new key) would reject it, so it is not offered.
    expect((await yank('1.0.0')).status).to.equal(200);
    expect(await install(applicationId, '2.1.0', newKey, anyOther).check()).to.equal(null);

    // 2.0.0 verifies under the key the install trusts: offered, and installed.
    expect((await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.1.0`, { status: 'published' })).status).to.equal(200);
    expect((await yank('2.0.0')).status).to.equal(200);
    const rolledBack = install(applicationId, '2.1.0', newKey, anyOther);
    const target = await rolledBack.check();
    expect(target?.version).to.equal('2.0.0');
    expect(await rolledBack.download(target!)).to.deep.equal(builds.get('2.0.0'));
  });
});
