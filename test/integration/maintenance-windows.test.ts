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

/**
 * Maintenance windows: a customer (or token) with `updatesUntil` and `versionRange` is offered, by the
 * real update clients, the latest link, the listing and exact downloads, the newest release inside the
 * window and never a newer one.
 */
describe('maintenance windows', function () {
  this.timeout(60_000);
  let app: TestApp;
  let directory: string;
  let key: TauriSigningKey;
  let electronApp: string;
  let tauriApp: string;
  /** An instant after 1.0.0, 1.5.0 and 2.0.0 were published and before 2.1.0 and 3.0.0 were. */
  let between: Date;
  const tauriBuilds = new Map<string, { bytes: Buffer; signature: string }>();

  async function publish(applicationId: string, builds: Build[]): Promise<void> {
    const { store, storage } = app.core;
    for (const build of builds) {
      const now = new Date();
      const fileId = newId('fil');
      const storageKey = fileStorageKey(applicationId, fileId);
      await storage.put(storageKey, Readable.from([build.bytes]));
      await store.versions.upsertVersion(applicationId, build.version, { initialStatus: 'published' }, now);
      await store.versions.insertFile({
        fileId, applicationId, version: build.version, fileName: build.fileName, fileSize: build.bytes.length,
        contentType: 'application/octet-stream', checksum: null, fileType: build.fileType ?? 'MAIN', status: 'pending',
        storageKey, platform: build.platform, arch: build.arch, createdAt: now, updatedAt: now,
      });
      await store.versions.setFileStatus(fileId, 'pending', 'available', formatChecksum(sha256(build.bytes)), now);
      await store.versions.setFileDigests(fileId, {
        sha512: createHash('sha512').update(build.bytes).digest('base64'), sha1: createHash('sha1').update(build.bytes).digest('hex'),
      });
    }
  }

  async function release(version: string): Promise<void> {
    await publish(electronApp, [{ version, fileName: `app_${version}_amd64.deb`, platform: 'linux', arch: 'x64', bytes: randomBytes(10_000) }]);
    const bytes = randomBytes(12_000);
    const file = path.join(directory, `${version}.AppImage.tar.gz`);
    await fsp.writeFile(file, bytes);
    const signature = await tauriSign(key, file);
    tauriBuilds.set(version, { bytes, signature: signature.trim() });
    await publish(tauriApp, [
      { version, fileName: 'app.AppImage.tar.gz', platform: 'linux', arch: 'x64', bytes },
      { version, fileName: 'app.AppImage.tar.gz.sig', platform: 'linux', arch: 'x64', bytes: Buffer.from(signature), fileType: 'SIGNATURE' },
    ]);
  }

  before(async () => {
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-maintenance-'));
    key = await generateTauriKey(directory);
    app = await startTestApp({ workers: false });
    electronApp = (await createApplication(app)).applicationId;
    tauriApp = (await createApplication(app, { updateSigningKey: key.publicKey })).applicationId;
    for (const version of ['1.0.0', '1.5.0', '2.0.0']) await release(version);
    between = new Date();
    // Publication instants are milliseconds: the next ones are strictly after `between`.
    while (Date.now() <= between.getTime()) await new Promise((resolve) => setImmediate(resolve));
    for (const version of ['2.1.0', '3.0.0']) await release(version);
  });
  after(async () => {
    await app?.close();
    await fsp.rm(directory, { recursive: true, force: true });
  });

  async function customerWith(window: { updatesUntil?: string | null; versionRange?: string | null }) {
    const customer = await createCustomer(app);
    for (const applicationId of [electronApp, tauriApp]) {
      const granted = await app.http.request('PUT', `/v1/management/customers/${customer.customerId}/applications/${applicationId}`, { json: {} });
      expect(granted.status, granted.raw.toString()).to.be.oneOf([200, 201, 204]);
    }
    if (Object.keys(window).length > 0) {
      const patched = await app.http.patch(`/v1/management/customers/${customer.customerId}`, window);
      expect(patched.status, patched.raw.toString()).to.equal(200);
    }
    return customer;
  }

  async function electronOffer(authorization: string, running: string, feedBase = app.baseUrl): Promise<string | null> {
    const client = await electronUpdateClient({ feedUrl: `${feedBase}/v1/updates/${electronApp}/electron`, version: running, platform: 'linux', authorization });
    try {
      const checked = await client.check();
      if (!checked?.isUpdateAvailable) return null;
      const [downloaded] = await client.download();
      expect((await fsp.readFile(downloaded)).length).to.equal(10_000);
      return checked.updateInfo.version;
    } finally {
      await client.close();
    }
  }

  async function tauriOffer(headers: Record<string, string>, running: string, base = app.baseUrl): Promise<string | null> {
    const client = new TauriUpdateClient({
      endpoint: `${base}/v1/updates/${tauriApp}/tauri/{{target}}/{{arch}}/{{current_version}}`,
      target: 'linux', arch: 'x86_64', currentVersion: running, headers, pubkey: key.publicKey,
    });
    const update = await client.check();
    if (!update) return null;
    // The client verifies the download against the signature under the app's key.
    expect(await client.download(update)).to.deep.equal(tauriBuilds.get(update.version)?.bytes);
    return update.version;
  }

  it('offers a customer without a window the newest release', async () => {
    const customer = await customerWith({});
    expect(await electronOffer(`Bearer ${customer.apiKey}`, '1.0.0')).to.equal('3.0.0');
    expect(await tauriOffer({ Authorization: `Bearer ${customer.apiKey}` }, '1.0.0')).to.equal('3.0.0');
  });

  it('offers every feed, the latest link and the listing the newest release published before updatesUntil, and refuses a newer exact version', async () => {
    const customer = await customerWith({ updatesUntil: between.toISOString() });
    const bearer = `Bearer ${customer.apiKey}`;
    expect(await electronOffer(bearer, '1.0.0')).to.equal('2.0.0');
    expect(await tauriOffer({ Authorization: bearer }, '1.0.0')).to.equal('2.0.0');
    // Running the last entitled release (or a newer one it got before): nothing newer.
    expect(await electronOffer(bearer, '2.0.0')).to.equal(null);
    expect(await tauriOffer({ Authorization: bearer }, '2.0.0')).to.equal(null);

    const latest = await app.http.get(`/v1/downloads/latest/${electronApp}/linux/x64`, { key: customer.apiKey });
    expect(latest.status, latest.raw.toString()).to.equal(302);
    expect(latest.headers.get('location')).to.contain('app_2.0.0_amd64.deb');

    const listed = await app.http.get(`/v1/downloads/releases?applicationId=${electronApp}`, { key: customer.apiKey });
    expect(listed.status).to.equal(200);
    expect(listed.body.data.releases.map((entry: { version: string }) => entry.version)).to.deep.equal(['2.0.0', '1.5.0', '1.0.0']);

    const exact = await app.http.get(`/v1/downloads/url?applicationId=${electronApp}&version=3.0.0&platform=linux&arch=x64`, { key: customer.apiKey });
    expect([exact.status, exact.body.error.code]).to.deep.equal([403, 'FORBIDDEN']);
    expect(exact.body.error.message).to.contain('maintenance window');
    const older = await app.http.get(`/v1/downloads/url?applicationId=${electronApp}&version=1.5.0&platform=linux&arch=x64`, { key: customer.apiKey });
    expect(older.status).to.equal(200);

    const me = await app.http.get('/v1/me', { key: customer.apiKey });
    expect(me.body.data.maintenance).to.deep.equal({ updatesUntil: between.toISOString(), versionRanges: [] });
  });

  it('offers the newest release inside versionRange; a token narrows its customer further, never widens it', async () => {
    const customer = await customerWith({ versionRange: '<3' });
    const bearer = `Bearer ${customer.apiKey}`;
    expect(await electronOffer(bearer, '1.0.0')).to.equal('2.1.0');
    expect(await tauriOffer({ Authorization: bearer }, '1.0.0')).to.equal('2.1.0');

    const created = await app.http.post(`/v1/management/customers/${customer.customerId}/tokens`, { versionRange: '1.x' });
    expect(created.status, created.raw.toString()).to.equal(201);
    expect(created.body.data.versionRange).to.equal('1.x');
    const { token } = created.body.data;
    expect(await tauriOffer({}, '1.0.0', `${app.baseUrl}/t/${token}`)).to.equal('1.5.0');
    expect(await electronOffer(`Bearer ${token}`, '1.0.0')).to.equal('1.5.0');

    // A token whose range is wider than its customer's is still held to the customer's.
    const wide = (await app.http.post(`/v1/management/customers/${customer.customerId}/tokens`, { versionRange: '>=1' })).body.data;
    expect(await tauriOffer({}, '1.0.0', `${app.baseUrl}/t/${wide.token}`)).to.equal('2.1.0');

    // Both a date and a range on the token.
    const dated = (await app.http.post(`/v1/management/customers/${customer.customerId}/tokens`, { updatesUntil: between.toISOString(), versionRange: '>=1.5' })).body.data;
    expect(await electronOffer(`Bearer ${dated.token}`, '1.0.0')).to.equal('2.0.0');

    // The window lifted: the newest release again, on the next check.
    const lifted = await app.http.patch(`/v1/management/customers/${customer.customerId}`, { versionRange: null });
    expect([lifted.status, lifted.body.data.versionRange]).to.deep.equal([200, null]);
    expect(await electronOffer(bearer, '1.0.0')).to.equal('3.0.0');
  });

  it('refuses a range semver cannot read with 422 and the envelope, changing nothing', async () => {
    const customer = await customerWith({ versionRange: '<2' });
    for (const versionRange of ['not a range', '>=one', '1.2.3.4', 'v1..2']) {
      const refused = await app.http.patch(`/v1/management/customers/${customer.customerId}`, { versionRange });
      expect([refused.status, refused.body.error.code], versionRange).to.deep.equal([422, 'INVALID_VERSION_RANGE']);
      expect(refused.body.error.details).to.deep.equal([{ field: 'versionRange', message: 'must be a semver range such as <3, 2.x or >=1.2.0 <2.0.0' }]);
      const token = await app.http.post(`/v1/management/customers/${customer.customerId}/tokens`, { versionRange });
      expect(token.status).to.equal(422);
    }
    const created = await app.http.post('/v1/management/customers', { name: 'Ranged', tier: 'standard', versionRange: 'x.y.z' });
    expect([created.status, created.body.error.code]).to.deep.equal([422, 'INVALID_VERSION_RANGE']);
    const stored = await app.core.store.accounts.getCustomer(customer.customerId);
    expect(stored?.versionRange).to.equal('<2');
    expect(await app.core.store.accessTokens.listAccessTokens(customer.customerId)).to.deep.equal([]);
    // A malformed date is the validation's 400.
    const badDate = await app.http.patch(`/v1/management/customers/${customer.customerId}`, { updatesUntil: '2027-13-01' });
    expect([badDate.status, badDate.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
  });
});
