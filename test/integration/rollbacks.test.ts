import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { formatChecksum } from '../../shared/hashing';
import { newId } from '../../shared/ids';
import type { Arch, Platform } from '../../shared/releases/platforms';
import type { FileType } from '../../shared/releases/file-types';
import { fileStorageKey } from '../../shared/uploads/storage-keys';
import { electronUpdateClient } from '../support/electron-updater-client';
import { createApplication, createCustomer, sha256 } from '../support/factories';
import { SquirrelMacClient } from '../support/squirrel-mac-client';
import { generateTauriKey, tauriSign, TauriSigningKey } from '../support/tauri-signer';
import { TauriUpdateClient } from '../support/tauri-update-client';
import { startTestApp, TestApp } from '../support/test-app';

interface Build {
  version: string;
  fileName: string;
  platform: Platform;
  arch: Arch;
  bytes: Buffer;
  fileType?: FileType;
}

/** Yanking with `rollbackTo`: installs running the yanked release are offered the earlier one, as each real client takes a downgrade. */
describe('rollbacks: a release yanked with rollbackTo', function () {
  this.timeout(60_000);
  let app: TestApp;
  let directory: string;
  let key: TauriSigningKey;
  let customer: { customerId: string; apiKey: string };
  const contents = new Map<string, Buffer>();

  /** Stored as the upload API stores them; `draft` for a release the gateway has seen the application of, then published through the API. */
  async function publish(applicationId: string, builds: Build[], status: 'published' | 'draft' = 'published'): Promise<void> {
    const { store, storage } = app.core;
    for (const build of builds) {
      const now = new Date();
      const fileId = newId('fil');
      const storageKey = fileStorageKey(applicationId, fileId);
      await storage.put(storageKey, Readable.from([build.bytes]));
      await store.versions.upsertVersion(applicationId, build.version, { initialStatus: status }, now);
      await store.versions.insertFile({
        fileId, applicationId, version: build.version, fileName: build.fileName, fileSize: build.bytes.length,
        contentType: 'application/octet-stream', checksum: null, fileType: build.fileType ?? 'MAIN', status: 'pending',
        storageKey, platform: build.platform, arch: build.arch, createdAt: now, updatedAt: now,
      });
      await store.versions.setFileStatus(fileId, 'pending', 'available', formatChecksum(sha256(build.bytes)), now);
      await store.versions.setFileDigests(fileId, {
        sha512: createHash('sha512').update(build.bytes).digest('base64'), sha1: createHash('sha1').update(build.bytes).digest('hex'),
      });
      if ((build.fileType ?? 'MAIN') === 'MAIN') contents.set(`${applicationId}/${build.version}`, build.bytes);
    }
  }

  async function applicationFor(builds: (version: string) => Promise<Build[]>, versions: string[], overrides: Record<string, unknown> = {}) {
    const { applicationId } = await createApplication(app, { customerIds: [customer.customerId], ...overrides });
    for (const version of versions) await publish(applicationId, await builds(version));
    return applicationId;
  }

  const yank = (applicationId: string, version: string, body: Record<string, unknown>) =>
    app.http.patch(`/v1/management/applications/${applicationId}/versions/${version}`, { status: 'yanked', ...body });

  before(async () => {
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-rollbacks-'));
    key = await generateTauriKey(directory);
    app = await startTestApp({ workers: false });
    customer = await createCustomer(app);
  });
  after(async () => {
    await app?.close();
    await fsp.rm(directory, { recursive: true, force: true });
  });

  const debBuild = async (version: string): Promise<Build[]> => [{ version, fileName: `app_${version}_amd64.deb`, platform: 'linux', arch: 'x64', bytes: randomBytes(8_000) }];

  async function tauriBuild(version: string): Promise<Build[]> {
    const bytes = randomBytes(9_000);
    const file = path.join(directory, `${randomBytes(4).toString('hex')}.tar.gz`);
    await fsp.writeFile(file, bytes);
    const signature = Buffer.from(await tauriSign(key, file));
    return [
      { version, fileName: 'app.AppImage.tar.gz', platform: 'linux', arch: 'x64', bytes },
      { version, fileName: 'app.AppImage.tar.gz.sig', platform: 'linux', arch: 'x64', bytes: signature, fileType: 'SIGNATURE' },
    ];
  }

  it('electron-updater: the channel file offers the rollback target, which an app with allowDowngrade installs; others stay', async () => {
    const applicationId = await applicationFor(debBuild, ['1.0.0', '1.1.0']);
    const yanked = await yank(applicationId, '1.1.0', { yankReason: 'crashes on start', rollbackTo: '1.0.0' });
    expect([yanked.status, yanked.body.data.rollbackTo], yanked.raw.toString()).to.deep.equal([200, '1.0.0']);

    const check = async (running: string, allowDowngrade?: boolean) => {
      const client = await electronUpdateClient({
        feedUrl: `${app.baseUrl}/v1/updates/${applicationId}/electron`, version: running, platform: 'linux', authorization: `Bearer ${customer.apiKey}`, allowDowngrade,
      });
      try {
        const checked = await client.check();
        if (!checked?.isUpdateAvailable) return { offered: checked?.updateInfo.version ?? null, installed: null };
        const [file] = await client.download();
        return { offered: checked.updateInfo.version, installed: await fsp.readFile(file) };
      } finally {
        await client.close();
      }
    };
    const rolledBack = await check('1.1.0', true);
    expect(rolledBack.offered).to.equal('1.0.0');
    expect(rolledBack.installed).to.deep.equal(contents.get(`${applicationId}/1.0.0`));
    // Without allowDowngrade the app keeps the yanked release (it is told of 1.0.0 and declines it).
    expect(await check('1.1.0', false)).to.deep.equal({ offered: '1.0.0', installed: null });
    expect((await check('1.0.0', true)).installed).to.equal(null);
  });

  it('Tauri: an install of the yanked version is answered the target, which an app whose version comparator accepts an older version installs', async () => {
    const applicationId = await applicationFor(tauriBuild, ['1.0.0', '1.1.0'], { updateSigningKey: key.publicKey });
    const client = (running: string, comparator?: (current: string, remote: string) => boolean) => new TauriUpdateClient({
      endpoint: `${app.baseUrl}/v1/updates/${applicationId}/tauri/{{target}}/{{arch}}/{{current_version}}`,
      target: 'linux', arch: 'x86_64', currentVersion: running, headers: { Authorization: `Bearer ${customer.apiKey}` }, pubkey: key.publicKey,
      versionComparator: comparator,
    });
    const anyOther = (current: string, remote: string) => current !== remote;
    // Yanked without a rollback: an install of it is up to date (204).
    expect((await yank(applicationId, '1.1.0', {})).status).to.equal(200);
    expect(await client('1.1.0', anyOther).check()).to.equal(null);
    const republished = await app.http.patch(`/v1/management/applications/${applicationId}/versions/1.1.0`, { status: 'published' });
    expect(republished.body.data).to.include({ status: 'published', rollbackTo: null });

    expect((await yank(applicationId, '1.1.0', { rollbackTo: '1.0.0' })).status).to.equal(200);
    const rollback = client('1.1.0', anyOther);
    const update = await rollback.check();
    expect(update?.version).to.equal('1.0.0');
    // The client verifies the older build's signature under the app's key before installing it.
    expect(await rollback.download(update!)).to.deep.equal(contents.get(`${applicationId}/1.0.0`));
    // The plugin's default comparator (newer only) declines it, as the server cannot make it take one.
    expect(await client('1.1.0').check()).to.equal(null);
    expect(await client('1.0.0', anyOther).check()).to.equal(null);

    // A fix published after the yank goes forward, not back.
    await publish(applicationId, await tauriBuild('1.1.1'), 'draft');
    expect((await app.http.patch(`/v1/management/applications/${applicationId}/versions/1.1.1`, { status: 'published' })).status).to.equal(200);
    expect((await client('1.1.0').check())?.version).to.equal('1.1.1');
  });

  it('Squirrel.Mac: an install of the yanked version is given the target, which it installs as any answer', async () => {
    const zip = async (version: string): Promise<Build[]> => [{ version, fileName: `App-${version}-mac.zip`, platform: 'macos', arch: 'universal', bytes: randomBytes(7_000) }];
    const applicationId = await applicationFor(zip, ['4.0.0', '4.1.0']);
    expect((await yank(applicationId, '4.1.0', { rollbackTo: '4.0.0' })).status).to.equal(200);
    const feed = (running: string) => new SquirrelMacClient(`${app.baseUrl}/v1/updates/${applicationId}/squirrel-mac/${running}`, { Authorization: `Bearer ${customer.apiKey}` });
    const update = await feed('4.1.0').check();
    expect(update?.name).to.equal('4.0.0');
    expect(await feed('4.1.0').download(update!)).to.deep.equal(contents.get(`${applicationId}/4.0.0`));
    expect(await feed('4.0.0').check()).to.equal(null);
  });

  it("Velopack: the feed for an install of the yanked version lists the target's full package, which AllowVersionDowngrade installs; Squirrel.Windows stays", async () => {
    const nupkg = async (version: string): Promise<Build[]> => [{ version, fileName: `MyApp-${version}-full.nupkg`, platform: 'windows', arch: 'x64', bytes: randomBytes(6_000) }];
    const applicationId = await applicationFor(nupkg, ['0.9.0', '1.0.0', '1.1.0']);
    expect((await yank(applicationId, '1.1.0', { rollbackTo: '0.9.0' })).status).to.equal(200);
    const feed = async (localVersion: string) => {
      const response = await fetch(`${app.baseUrl}/v1/updates/${applicationId}/velopack/releases.win.json?localVersion=${localVersion}&id=MyApp`, {
        headers: { Authorization: `Bearer ${customer.apiKey}` },
      });
      expect(response.status).to.equal(200);
      return ((await response.json()) as { Assets: Array<{ Type: string; Version: string; FileName: string }> }).Assets.map((asset) => [asset.Type, asset.Version]);
    };
    // The install of the yanked 1.1.0 is offered 0.9.0, its rollback, not 1.0.0, the newest offered.
    expect(await feed('1.1.0')).to.deep.equal([['Full', '0.9.0']]);
    expect(await feed('0.8.0')).to.deep.equal([['Full', '1.0.0']]);
    expect(await feed('1.0.0')).to.deep.equal([['Full', '1.0.0']]);
  });

  it('refuses a rollback target that is no earlier published version (422), or rollbackTo without a yank (400), changing nothing', async () => {
    const applicationId = await applicationFor(debBuild, ['2.0.0', '2.1.0', '2.2.0']);
    await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0`, { status: 'yanked' });
    for (const [target, reason] of [['2.2.0', /does not rank below/], ['2.1.0', /does not rank below/], ['9.9.9', /no published version/], ['2.0.0', /no published version/]] as const) {
      const refused = await yank(applicationId, '2.1.0', { rollbackTo: target });
      expect([refused.status, refused.body.error.code], target).to.deep.equal([422, 'INVALID_ROLLBACK_TARGET']);
      expect(refused.body.error.message).to.match(reason);
      expect(refused.body.error.details[0].field).to.equal('rollbackTo');
    }
    const withoutYank = await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.1.0`, { rollbackTo: '2.0.0' });
    expect([withoutYank.status, withoutYank.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
    const stored = await app.core.store.versions.getVersion(applicationId, '2.1.0');
    expect([stored?.status, stored?.rollbackTo]).to.deep.equal(['published', null]);
  });
});
