import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Metadata, MetadataKind } from '@tufjs/models';
import { createApplication } from '../support/factories';
import { CliUser, errorOf, jsonOf } from '../support/cli-process';
import { startTestApp, TestApp } from '../support/test-app';

interface Made { root: { version: number; document: Record<string, unknown> }; rootKeyIds: string[]; keyFiles: string[] }

/** `bds tuf`: root keys made (or imported) and used on the vendor's machine; the service gets signed roots only. */
describe('bds tuf', function () {
  this.timeout(60_000);
  let app: TestApp;
  let admin: CliUser;
  let dir: string;

  before(async () => {
    app = await startTestApp({ workers: false });
    admin = new CliUser({ BDS_URL: app.baseUrl, BDS_API_KEY: app.adminKey });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-tuf-'));
  });
  after(async () => {
    admin?.remove();
    fs.rmSync(dir, { recursive: true, force: true });
    await app?.close();
  });

  it('shows the online keys, then init makes root 1 with a threshold of generated keys written 0600 and never sent', async () => {
    const { applicationId } = await createApplication(app);
    const shown = await admin.run(['tuf', 'show', applicationId]);
    expect(shown.code, shown.stderr).to.equal(0);
    expect(shown.stdout).to.include('no root yet: run bds tuf init').and.include('timestamp');

    const keysDir = path.join(dir, `${applicationId}-keys`);
    const tooHigh = await admin.run(['tuf', 'init', applicationId, '--keys-dir', keysDir, '--keys', '2', '--threshold', '3', '--json']);
    expect(tooHigh.code).to.equal(2);
    expect(errorOf(tooHigh)).to.include({ code: 'USAGE_ERROR' });

    const init = await admin.run(['tuf', 'init', applicationId, '--keys-dir', keysDir, '--keys', '3', '--threshold', '2', '--json']);
    expect(init.code, init.stderr).to.equal(0);
    const made = jsonOf<Made>(init);
    const root = Metadata.fromJSON(MetadataKind.Root, made.root.document as never);
    expect(root.signed.version).to.equal(1);
    expect(root.signed.roles.root.threshold).to.equal(2);
    expect([...root.signed.roles.root.keyIDs].sort()).to.deep.equal([...made.rootKeyIds].sort());
    root.verifyDelegate('root', root);
    for (const file of made.keyFiles) {
      expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
      expect(fs.readFileSync(file, 'utf8')).to.match(/^-----BEGIN PRIVATE KEY-----/);
    }
    expect(JSON.parse(fs.readFileSync(path.join(keysDir, '1.root.json'), 'utf8'))).to.deep.equal(made.root.document);
    const stored = JSON.stringify(await app.core.store.tuf.latestTufRoot(applicationId));
    expect(stored).to.not.include('PRIVATE KEY');

    const again = await admin.run(['tuf', 'init', applicationId, '--keys-dir', keysDir, '--json']);
    expect(again.code).to.equal(2);
    expect(errorOf(again).message ?? again.stderr).to.match(/bds tuf rotate/);
  });

  it('imports the vendor\'s own key, and rotate needs keys of the current root, signing root 2 with the old and new keys', async () => {
    const { applicationId } = await createApplication(app);
    const own = path.join(dir, `${applicationId}-own.pem`);
    fs.writeFileSync(own, generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    const notEd25519 = path.join(dir, `${applicationId}-p256.pem`);
    fs.writeFileSync(notEd25519, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }));
    expect((await admin.run(['tuf', 'init', applicationId, '--import-key', notEd25519])).code).to.equal(2);
    const rotateFirst = await admin.run(['tuf', 'rotate', applicationId, '--old-key', own, '--keys-dir', path.join(dir, 'unused')]);
    expect(rotateFirst.code, 'no root to rotate yet').to.equal(2);

    const init = await admin.run(['tuf', 'init', applicationId, '--import-key', own, '--json']);
    expect(init.code, init.stderr).to.equal(0);
    const v1 = jsonOf<Made>(init);
    expect(v1.keyFiles).to.deep.equal([]);

    const stranger = path.join(dir, `${applicationId}-stranger.pem`);
    fs.writeFileSync(stranger, generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }));
    const wrongOld = await admin.run(['tuf', 'rotate', applicationId, '--old-key', stranger, '--keys-dir', path.join(dir, `${applicationId}-new`), '--json']);
    expect(wrongOld.code).to.equal(2);
    expect(fs.existsSync(path.join(dir, `${applicationId}-new`)), 'nothing written for a refused rotation').to.equal(false);

    const rotated = await admin.run(['tuf', 'rotate', applicationId, '--old-key', own, '--keys-dir', path.join(dir, `${applicationId}-new`), '--json']);
    expect(rotated.code, rotated.stderr).to.equal(0);
    const v2 = jsonOf<Made>(rotated);
    const previous = Metadata.fromJSON(MetadataKind.Root, v1.root.document as never);
    const next = Metadata.fromJSON(MetadataKind.Root, v2.root.document as never);
    expect(next.signed.version).to.equal(2);
    previous.verifyDelegate('root', next);
    next.verifyDelegate('root', next);
    expect(next.signed.roles.root.keyIDs).to.deep.equal(v2.rootKeyIds).and.not.include(v1.rootKeyIds[0]);
    const shown = await admin.run(['tuf', 'show', applicationId, '--json']);
    expect(jsonOf<{ root: { version: number } }>(shown).root.version).to.equal(2);
  });

  it('encrypts new key files with the passphrase of --passphrase-env, and needs it to use them', async () => {
    const { applicationId } = await createApplication(app);
    const keysDir = path.join(dir, `${applicationId}-sealed`);
    const env = { TUF_ROOT_PASSPHRASE: 'correct horse battery staple' };
    const unset = await admin.run(['tuf', 'init', applicationId, '--keys-dir', keysDir, '--passphrase-env', 'TUF_ROOT_PASSPHRASE']);
    expect(unset.code, 'the variable is not set').to.equal(2);
    const init = await admin.run(['tuf', 'init', applicationId, '--keys-dir', keysDir, '--passphrase-env', 'TUF_ROOT_PASSPHRASE', '--json'], { env });
    expect(init.code, init.stderr).to.equal(0);
    const [keyFile] = jsonOf<Made>(init).keyFiles;
    expect(fs.readFileSync(keyFile, 'utf8')).to.match(/^-----BEGIN ENCRYPTED PRIVATE KEY-----/);

    const newDir = path.join(dir, `${applicationId}-sealed-2`);
    const withoutPassphrase = await admin.run(['tuf', 'rotate', applicationId, '--old-key', keyFile, '--keys-dir', newDir]);
    expect(withoutPassphrase.code).to.equal(2);
    expect(withoutPassphrase.stderr).to.include('--passphrase-env');
    const rotated = await admin.run(['tuf', 'rotate', applicationId, '--old-key', keyFile, '--keys-dir', newDir, '--passphrase-env', 'TUF_ROOT_PASSPHRASE', '--json'], { env });
    expect(rotated.code, rotated.stderr).to.equal(0);
    expect(jsonOf<Made>(rotated).root.version).to.equal(2);
  });
});
