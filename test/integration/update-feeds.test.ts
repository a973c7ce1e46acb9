import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parse as parseYaml } from 'yaml';
import { formatChecksum } from '../../shared/hashing';
import { newId } from '../../shared/ids';
import type { Arch, Platform } from '../../shared/releases/platforms';
import type { InitialReleaseStatus } from '../../shared/store/models';
import type { FileType } from '../../shared/releases/file-types';
import { fileStorageKey } from '../../shared/uploads/storage-keys';
import { electronUpdateClient, ElectronPlatform } from '../support/electron-updater-client';
import { createApplication, createCustomer, sha256, smallUploadForm, uploadSmallFile } from '../support/factories';
import { createBucket } from '../support/s3-bucket';
import { s3Environment, S3rverProcess, startS3rver } from '../support/s3rver';
import { SquirrelMacClient } from '../support/squirrel-mac-client';
import { generateTauriKey, tauriSign, TauriSigningKey } from '../support/tauri-signer';
import { TauriUpdateClient } from '../support/tauri-update-client';
import { startTestApp, TestApp } from '../support/test-app';

interface Build {
  version: string;
  fileName: string;
  platform: Platform;
  arch: Arch;
  bytes?: Buffer;
  fileType?: FileType;
  channel?: string;
  status?: InitialReleaseStatus;
  /** false: stored before SHA-512 was kept, and not reached by the digest backfill yet. */
  sha512?: false;
}

const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

for (const storage of ['embedded store', 'S3'] as const) {
  describe(`update feeds with the real clients (${storage})`, function () {
    this.timeout(60_000);
    let app: TestApp;
    let s3: S3rverProcess | undefined;
    let directory: string;
    let key: TauriSigningKey;

    before(async () => {
      directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-feeds-'));
      key = await generateTauriKey(directory);
      if (storage === 'S3') s3 = await startS3rver();
      app = await startTestApp({ workers: false, env: s3 ? s3Environment(s3, 'update-feeds') : {} });
      if (app.config.s3) await createBucket(app.config.s3);
    });
    after(async () => {
      await app.close();
      await s3?.stop();
      await fsp.rm(directory, { recursive: true, force: true });
    });

    /**
     * Publishes builds as the release API stores them (version with its channel and status, files
     * with platform, arch and both digests), before any client asks about the application.
     */
    async function publish(applicationId: string, builds: Build[]): Promise<Map<string, Buffer>> {
      const { store, storage: objects } = app.core;
      const contents = new Map<string, Buffer>();
      for (const build of builds) {
        const bytes = build.bytes ?? randomBytes(20_000 + Math.floor(Math.random() * 1000));
        const now = new Date();
        const fileId = newId('fil');
        const storageKey = fileStorageKey(applicationId, fileId);
        await objects.put(storageKey, Readable.from([bytes]));
        await store.versions.upsertVersion(applicationId, build.version, { channel: build.channel, initialStatus: build.status }, now);
        await store.versions.insertFile({
          fileId, applicationId, version: build.version, fileName: build.fileName, fileSize: bytes.length,
          contentType: 'application/octet-stream', checksum: null, fileType: build.fileType ?? 'MAIN', status: 'pending',
          storageKey, platform: build.platform, arch: build.arch, createdAt: now, updatedAt: now,
        });
        await store.versions.setFileStatus(fileId, 'pending', 'available', formatChecksum(sha256(bytes)), now);
        if (build.sha512 !== false) await store.versions.setFileDigests(fileId, { sha512: sha512(bytes), sha1: createHash('sha1').update(bytes).digest('hex') });
        contents.set(`${build.version}/${build.fileName}`, bytes);
      }
      return contents;
    }

    async function customerOf(applicationId: string) {
      const customer = await createCustomer(app);
      const patched = await app.http.patch(`/v1/management/applications/${applicationId}`, { customerIds: [customer.customerId] });
      expect(patched.status).to.equal(200);
      return customer;
    }

    const electronFeed = (applicationId: string) => `${app.baseUrl}/v1/updates/${applicationId}/electron`;

    async function electron(applicationId: string, apiKey: string, version: string, platform: ElectronPlatform, extra: { channel?: string; linuxArch?: string } = {}) {
      return electronUpdateClient({ feedUrl: electronFeed(applicationId), version, platform, authorization: `Bearer ${apiKey}`, ...extra });
    }

    describe('electron-updater', () => {
      it('finds the newer Linux build, downloads it through the redirect with its sha512 verified, and records one download', async () => {
        const { applicationId } = await createApplication(app);
        const contents = await publish(applicationId, [
          { version: '1.0.0', fileName: 'app_1.0.0_amd64.deb', platform: 'linux', arch: 'x64' },
          { version: '1.1.0', fileName: 'app_1.1.0_amd64.deb', platform: 'linux', arch: 'x64' },
          { version: '1.1.0', fileName: 'app_1.1.0_arm64.deb', platform: 'linux', arch: 'arm64' },
          { version: '1.2.0-beta.1', fileName: 'app_1.2.0-beta.1_amd64.deb', platform: 'linux', arch: 'x64', channel: 'beta' },
          { version: '2.0.0', fileName: 'app_2.0.0_amd64.deb', platform: 'linux', arch: 'x64', status: 'draft' },
        ]);
        const customer = await customerOf(applicationId);
        const client = await electron(applicationId, customer.apiKey, '1.0.0', 'linux');
        try {
          const checked = await client.check();
          expect(checked?.isUpdateAvailable).to.equal(true);
          expect(checked?.updateInfo.version).to.equal('1.1.0');
          const [downloaded] = await client.download();
          expect(await fsp.readFile(downloaded)).to.deep.equal(contents.get('1.1.0/app_1.1.0_amd64.deb'));
          const requests = client.executor.requests;
          expect(requests[0].url).to.match(/\/electron\/latest-linux\.yml$/);
          expect(requests[1].url).to.match(/\/electron\/1\.1\.0\/app_1\.1\.0_amd64\.deb$/);
          expect(requests.every((request, index) => index > 1 || request.authorization === `Bearer ${customer.apiKey}`)).to.equal(true);
          if (storage === 'S3') expect(requests[2].authorization, 'dropped on the redirect to S3').to.equal(undefined);
          const events = await app.core.store.activity.listEvents({ applicationId, type: 'download', limit: 10 });
          expect(events.map((event) => [event.version, event.customerId, event.platform])).to.deep.equal([['1.1.0', customer.customerId, 'linux']]);
        } finally {
          await client.close();
        }

        const upToDate = await electron(applicationId, customer.apiKey, '1.1.0', 'linux');
        expect((await upToDate.check())?.isUpdateAvailable).to.equal(false);
        await upToDate.close();

        const arm = await electron(applicationId, customer.apiKey, '1.0.0', 'linux', { linuxArch: 'arm64' });
        const armChecked = await arm.check();
        expect(arm.executor.requests[0].url).to.match(/latest-linux-arm64\.yml$/);
        expect(armChecked?.updateInfo.files.map((file) => file.url)).to.deep.equal(['1.1.0/app_1.1.0_arm64.deb']);
        const [armFile] = await arm.download();
        expect(await fsp.readFile(armFile)).to.deep.equal(contents.get('1.1.0/app_1.1.0_arm64.deb'));
        await arm.close();

        const beta = await electron(applicationId, customer.apiKey, '1.1.0', 'linux', { channel: 'beta' });
        const betaChecked = await beta.check();
        expect(beta.executor.requests[0].url).to.match(/\/beta-linux\.yml$/);
        expect(betaChecked?.updateInfo.version).to.equal('1.2.0-beta.1');
        await beta.close();
      });

      it('lists every Windows build of the newest version for NSIS, which takes the x64 one, and serves macOS to MacUpdater', async () => {
        const { applicationId } = await createApplication(app);
        const contents = await publish(applicationId, [
          { version: '3.0.0', fileName: 'App-Setup-3.0.0-arm64.exe', platform: 'windows', arch: 'arm64' },
          { version: '3.0.0', fileName: 'App-Setup-3.0.0-x64.exe', platform: 'windows', arch: 'x64' },
          { version: '3.0.0', fileName: 'App-3.0.0-mac.zip', platform: 'macos', arch: 'x64' },
          { version: '3.0.0', fileName: 'App-3.0.0-arm64-mac.zip', platform: 'macos', arch: 'arm64' },
        ]);
        const customer = await customerOf(applicationId);

        const windows = await electron(applicationId, customer.apiKey, '2.0.0', 'win32');
        const checked = await windows.check();
        expect(windows.executor.requests[0].url).to.match(/\/electron\/latest\.yml$/);
        expect(checked?.updateInfo.files.map((file) => file.url)).to.deep.equal(['3.0.0/App-Setup-3.0.0-x64.exe', '3.0.0/App-Setup-3.0.0-arm64.exe']);
        const [installer] = await windows.download();
        expect(await fsp.readFile(installer)).to.deep.equal(contents.get('3.0.0/App-Setup-3.0.0-x64.exe'));
        await windows.close();

        const mac = await electron(applicationId, customer.apiKey, '2.0.0', 'darwin');
        const macChecked = await mac.check();
        expect(mac.executor.requests[0].url).to.match(/\/electron\/latest-mac\.yml$/);
        expect(macChecked?.updateInfo.files).to.have.length(2);
        // On an Intel Mac (this machine is not arm64) MacUpdater leaves the arm64 zip out.
        const [zip] = await mac.download();
        expect(await fsp.readFile(zip)).to.deep.equal(contents.get('3.0.0/App-3.0.0-mac.zip'));
        await mac.close();
      });

      it('offers macOS only as a .zip: a version with only a .dmg is left out, its reason on the version, until its .zip is uploaded as UPDATE', async () => {
        const { applicationId } = await createApplication(app);
        await publish(applicationId, [
          { version: '4.0.0', fileName: 'App-4.0.0-mac.zip', platform: 'macos', arch: 'x64' },
          { version: '5.0.0', fileName: 'App-5.0.0.dmg', platform: 'macos', arch: 'x64' },
        ]);
        const customer = await customerOf(applicationId);
        const problemsOf = async (version: string) => ((await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions
          .find((v: { version: string }) => v.version === version) as { updateFeedProblems: string[] }).updateFeedProblems;
        const squirrel = () => new SquirrelMacClient(`${app.baseUrl}/v1/updates/${applicationId}/squirrel-mac/3.0.0`, { Authorization: `Bearer ${customer.apiKey}` });

        const before = await electron(applicationId, customer.apiKey, '3.0.0', 'darwin');
        const offered = await before.check();
        expect(offered?.updateInfo.version).to.equal('4.0.0');
        expect(offered?.updateInfo.files.map((file) => file.url)).to.deep.equal(['4.0.0/App-4.0.0-mac.zip']);
        await before.close();
        expect(await squirrel().check()).to.include({ name: '4.0.0' });
        expect(await problemsOf('5.0.0')).to.deep.equal([
          'no .zip for macos/x64: electron-updater and Squirrel.Mac cannot update to this version from App-5.0.0.dmg; upload the app as a .zip with fileType UPDATE beside it',
        ]);
        expect(await problemsOf('4.0.0')).to.deep.equal([]);

        // An UPDATE file is the macOS zip, nothing else.
        for (const refused of [{ fileName: 'App-5.0.0-update.dmg', platform: 'macos' }, { fileName: 'App-5.0.0.zip', platform: 'windows' }]) {
          const response = await app.http.request('POST', '/v1/management/upload', {
            body: smallUploadForm({ applicationId, version: '5.0.0', fileType: 'UPDATE', arch: 'x64', ...refused }),
          });
          expect(response.status, refused.fileName).to.equal(400);
          expect(response.body.error.details[0].field).to.equal('fileType');
        }
        // The upload's own answer says at once why the feeds leave its version out, and when they no longer do.
        const dmgAlone = await uploadSmallFile(app, { applicationId, version: '5.1.0', fileName: 'App-5.1.0.dmg', platform: 'macos', arch: 'x64', status: 'draft' });
        expect(dmgAlone.updateFeedProblems).to.deep.equal([
          'no .zip for macos/x64: electron-updater and Squirrel.Mac cannot update to this version from App-5.1.0.dmg; upload the app as a .zip with fileType UPDATE beside it',
        ]);
        const zip = randomBytes(30_000);
        const zipUpload = await uploadSmallFile(app, { applicationId, version: '5.0.0', fileName: 'App-5.0.0-mac.zip', fileType: 'UPDATE', platform: 'macos', arch: 'x64', content: zip });
        expect(zipUpload.updateFeedProblems).to.deep.equal([]);
        expect(await problemsOf('5.0.0')).to.deep.equal([]);

        const after = await electron(applicationId, customer.apiKey, '4.0.0', 'darwin');
        const updated = await after.check();
        expect(updated?.updateInfo.version).to.equal('5.0.0');
        expect(updated?.updateInfo.files.map((file) => file.url)).to.deep.equal(['5.0.0/App-5.0.0-mac.zip']);
        const [downloaded] = await after.download();
        expect(await fsp.readFile(downloaded)).to.deep.equal(zip);
        await after.close();
        const squirrelUpdate = await squirrel().check();
        expect(squirrelUpdate).to.include({ name: '5.0.0' });
        expect(await squirrel().download(squirrelUpdate!)).to.deep.equal(zip);
        // A person's download of the latest macOS build is still the .dmg.
        const latest = await app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=latest&platform=macos&arch=x64`, { key: customer.apiKey });
        expect(latest.body.data.fileName).to.equal('App-5.0.0.dmg');
      });

      it('leaves out files without a SHA-512 (the client verifies it): an older version with one is offered, else none', async () => {
        const { applicationId } = await createApplication(app);
        await publish(applicationId, [
          { version: '1.0.0', fileName: 'app_1.0.0_amd64.deb', platform: 'linux', arch: 'x64' },
          { version: '1.1.0', fileName: 'app_1.1.0_amd64.deb', platform: 'linux', arch: 'x64', sha512: false },
          { version: '1.1.0', fileName: 'App-1.1.0-mac.zip', platform: 'macos', arch: 'x64', sha512: false },
        ]);
        const customer = await customerOf(applicationId);
        const linux = await electron(applicationId, customer.apiKey, '0.9.0', 'linux');
        const checked = await linux.check();
        expect(checked?.updateInfo.version).to.equal('1.0.0');
        expect(checked?.updateInfo.files.map((file) => file.url)).to.deep.equal(['1.0.0/app_1.0.0_amd64.deb']);
        await linux.close();

        const mac = await electron(applicationId, customer.apiKey, '0.9.0', 'darwin');
        const failure = await mac.check().catch((error: Error & { code?: string }) => error);
        expect((failure as { code?: string }).code).to.equal('ERR_UPDATER_CHANNEL_FILE_NOT_FOUND');
        await mac.close();
      });

      it('answers YAML that electron-builder would write, with no-store, and the errors the client expects', async () => {
        const { applicationId } = await createApplication(app);
        const contents = await publish(applicationId, [{ version: '1.0.0', fileName: 'App Setup 1.0.0.exe', platform: 'windows', arch: 'x64' }]);
        await app.http.patch(`/v1/management/applications/${applicationId}/versions/1.0.0`, { releaseNotes: 'Fixes: "quotes"\nand lines' });
        const customer = await customerOf(applicationId);
        const bearer = { authorization: `Bearer ${customer.apiKey}` };
        const res = await fetch(`${electronFeed(applicationId)}/latest.yml?noCache=1a2b`, { headers: bearer });
        expect(res.status).to.equal(200);
        expect(res.headers.get('cache-control')).to.equal('no-store');
        expect(res.headers.get('content-type')).to.match(/^text\/yaml/);
        const info = parseYaml(await res.text(), { version: '1.1' });
        const bytes = contents.get('1.0.0/App Setup 1.0.0.exe') as Buffer;
        expect(info).to.deep.include({ version: '1.0.0', path: '1.0.0/App%20Setup%201.0.0.exe', sha512: sha512(bytes), releaseNotes: 'Fixes: "quotes"\nand lines' });
        expect(info.files).to.deep.equal([{ url: '1.0.0/App%20Setup%201.0.0.exe', sha512: sha512(bytes), size: bytes.length }]);
        expect(info.releaseDate).to.be.a('string');

        const statuses = async (url: string, headers: Record<string, string>) => {
          const answer = await fetch(url, { headers, redirect: 'manual' });
          return [answer.status, answer.headers.get('cache-control')];
        };
        const other = await createCustomer(app);
        expect(await statuses(`${electronFeed(applicationId)}/latest.yml`, { authorization: 'Bearer nope.nope' })).to.deep.equal([401, 'no-store']);
        expect(await statuses(`${electronFeed(applicationId)}/latest.yml`, {})).to.deep.equal([401, 'no-store']);
        expect(await statuses(`${electronFeed(applicationId)}/latest.yml`, { authorization: `Bearer ${other.apiKey}` })).to.deep.equal([404, 'no-store']);
        expect(await statuses(`${electronFeed('no-such-app')}/latest.yml`, bearer)).to.deep.equal([404, 'no-store']);
        expect(await statuses(`${electronFeed(applicationId)}/latest-linux.yml`, bearer)).to.deep.equal([404, 'no-store']);
        expect(await statuses(`${electronFeed(applicationId)}/nightly.yml`, bearer)).to.deep.equal([404, 'no-store']);
        expect(await statuses(`${electronFeed(applicationId)}/1.0.0/missing.exe`, bearer)).to.deep.equal([404, 'no-store']);
        expect(await statuses(`${electronFeed(applicationId)}/latest/App%20Setup%201.0.0.exe`, bearer), 'file links name exact versions').to.deep.equal([404, 'no-store']);
        expect(await statuses(`${electronFeed(applicationId)}/1.0.0/App%20Setup%201.0.0.exe`, bearer)).to.deep.equal([302, 'no-store']);

        const missing = await electron(applicationId, customer.apiKey, '0.9.0', 'linux');
        const failure = await missing.check().catch((error: Error & { code?: string }) => error);
        expect((failure as { code?: string }).code).to.equal('ERR_UPDATER_CHANNEL_FILE_NOT_FOUND');
        await missing.close();
      });
    });

    describe('every feed', () => {
      it('answers the next check with what an upload or a yank changed, as downloads do', async () => {
        const { applicationId } = await createApplication(app);
        const customer = await customerOf(applicationId);
        const headers = { authorization: `Bearer ${customer.apiKey}` };
        const upload = (version: string, fileName: string, platform: string, arch: string) =>
          uploadSmallFile(app, { applicationId, version, fileName, platform, arch });
        const channelFile = async () => parseYaml(await (await fetch(`${electronFeed(applicationId)}/latest-linux.yml`, { headers })).text(), { version: '1.1' }).version;
        const squirrel = async () => {
          const res = await fetch(`${app.baseUrl}/v1/updates/${applicationId}/squirrel-mac/1.0.0`, { headers });
          return res.status === 200 ? (await res.json() as { name: string }).name : res.status;
        };
        await upload('1.0.0', 'app_1.0.0_amd64.deb', 'linux', 'x64');
        await upload('1.0.0', 'App-1.0.0-mac.zip', 'macos', 'universal');
        expect([await channelFile(), await squirrel()]).to.deep.equal(['1.0.0', 204]);

        await upload('1.1.0', 'app_1.1.0_amd64.deb', 'linux', 'x64');
        await upload('1.1.0', 'App-1.1.0-mac.zip', 'macos', 'universal');
        expect([await channelFile(), await squirrel()]).to.deep.equal(['1.1.0', '1.1.0']);

        expect((await app.http.patch(`/v1/management/applications/${applicationId}/versions/1.1.0`, { status: 'yanked' })).status).to.equal(200);
        expect([await channelFile(), await squirrel()]).to.deep.equal(['1.0.0', 204]);
      });
    });

    describe('the API description', () => {
      it("describes every feed's answers: channel file, redirect, update and up to date", async () => {
        const { applicationId } = await createApplication(app);
        const customer = await customerOf(applicationId);
        await uploadSmallFile(app, { applicationId, version: '1.0.0', fileName: 'App-1.0.0-mac.zip', platform: 'macos', arch: 'universal' });
        await uploadSmallFile(app, { applicationId, version: '1.0.0', fileName: 'App-1.0.0-mac.zip.sig', platform: 'macos', arch: 'universal', fileType: 'SIGNATURE' });
        const feed = `/v1/updates/${applicationId}`;
        // The test client checks every answer against GET /v1/openapi.json and fails on any it does not allow.
        const answers = [
          [`${feed}/electron/latest-mac.yml`, 200],
          [`${feed}/electron/1.0.0/App-1.0.0-mac.zip`, 302],
          [`${feed}/tauri/darwin/aarch64/0.9.0`, 200],
          [`${feed}/tauri/darwin/aarch64/1.0.0`, 204],
          [`${feed}/squirrel-mac/0.9.0?arch=arm64`, 200],
          [`${feed}/squirrel-mac/1.0.0`, 204],
          [`${feed}/squirrel-mac/1.0.0?arch=ia32`, 400],
          [`${feed}/electron/nightly.yml`, 404],
        ] as const;
        for (const [path, status] of answers) {
          expect((await app.http.get(path, { key: customer.apiKey })).status, path).to.equal(status);
          expect((await app.http.request('HEAD', path, { key: customer.apiKey })).status, `HEAD ${path}`).to.equal(status);
        }
      });
    });

    describe('Tauri updater', () => {
      async function signedBuild(fileName: string, signWith: TauriSigningKey = key) {
        const bytes = randomBytes(30_000);
        const file = path.join(directory, `${randomBytes(4).toString('hex')}-${fileName}`);
        await fsp.writeFile(file, bytes);
        return { bytes, signature: Buffer.from(await tauriSign(signWith, file)) };
      }

      function tauriClient(applicationId: string, apiKey: string, currentVersion: string, target = 'linux', arch = 'x86_64') {
        return new TauriUpdateClient({
          endpoint: `${app.baseUrl}/v1/updates/${applicationId}/tauri/{{target}}/{{arch}}/{{current_version}}`,
          target, arch, currentVersion, headers: { Authorization: `Bearer ${apiKey}` }, pubkey: key.publicKey,
        });
      }

      it('offers the newest signed build, whose download the client verifies; 204 once up to date', async () => {
        const { applicationId } = await createApplication(app, { updateSigningKey: key.publicKey });
        const one = await signedBuild('app.AppImage.tar.gz');
        const two = await signedBuild('app.AppImage.tar.gz');
        await publish(applicationId, [
          { version: '1.0.0', fileName: 'app.AppImage.tar.gz', platform: 'linux', arch: 'x64', bytes: one.bytes },
          { version: '1.0.0', fileName: 'app.AppImage.tar.gz.sig', platform: 'linux', arch: 'x64', bytes: one.signature, fileType: 'SIGNATURE' },
          // Without its SHA-512 yet: Tauri verifies the signature, not a digest, so it is offered all the same.
          { version: '1.1.0', fileName: 'app.AppImage.tar.gz', platform: 'linux', arch: 'x64', bytes: two.bytes, sha512: false },
          { version: '1.1.0', fileName: 'app.AppImage.tar.gz.sig', platform: 'linux', arch: 'x64', bytes: two.signature, fileType: 'SIGNATURE' },
          // Newest, but unsigned: not offered to Tauri clients.
          { version: '1.2.0', fileName: 'app.AppImage.tar.gz', platform: 'linux', arch: 'x64' },
        ]);
        const customer = await customerOf(applicationId);
        const client = tauriClient(applicationId, customer.apiKey, '1.0.0');
        const update = await client.check();
        expect(update).to.include({ version: '1.1.0', signature: two.signature.toString('utf8').trim() });
        expect(update?.pubDate).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        expect(await client.download(update!)).to.deep.equal(two.bytes);
        if (storage === 'S3') expect(client.requests[client.requests.length - 1].authorization).to.equal(undefined);

        expect(await tauriClient(applicationId, customer.apiKey, '1.1.0').check()).to.equal(null);

        // With an access token in the path and no header, the answer's link keeps the token.
        const { token } = (await app.http.post(`/v1/management/customers/${customer.customerId}/tokens`, { applications: [applicationId], maxDownloads: 1 })).body.data;
        const viaPath = new TauriUpdateClient({
          endpoint: `${app.baseUrl}/t/${token}/v1/updates/${applicationId}/tauri/{{target}}/{{arch}}/{{current_version}}`,
          target: 'linux', arch: 'x86_64', currentVersion: '1.0.0', headers: {}, pubkey: key.publicKey,
        });
        const tokenUpdate = await viaPath.check();
        expect(tokenUpdate?.url).to.equal(`${app.config.publicBaseUrl}/t/${token}/v1/updates/${applicationId}/electron/1.1.0/app.AppImage.tar.gz`);
        expect(await viaPath.download(tokenUpdate!)).to.deep.equal(two.bytes);
        // The key's answer is the shared one, without the token.
        expect((await client.check())?.url).to.equal(`${app.config.publicBaseUrl}/v1/updates/${applicationId}/electron/1.1.0/app.AppImage.tar.gz`);
        expect(await tauriClient(applicationId, customer.apiKey, '1.1.1').check()).to.equal(null);
        // A number past 2^53 with a prerelease ranks by its value: no downgrade to 1.1.0.
        expect(await tauriClient(applicationId, customer.apiKey, '99999999999999999999999.0.0-rc.1').check()).to.equal(null);
        const raw = await fetch(`${app.baseUrl}/v1/updates/${applicationId}/tauri/linux/x86_64/1.1.0`, { headers: { authorization: `Bearer ${customer.apiKey}` } });
        expect([raw.status, raw.headers.get('cache-control')]).to.deep.equal([204, 'no-store']);
        // No build for that target: nothing newer is offered, which is no failure for the client.
        expect(await tauriClient(applicationId, customer.apiKey, '1.0.0', 'darwin', 'aarch64').check()).to.equal(null);
        await expectRejection(tauriClient(applicationId, customer.apiKey, '1.0.0', 'freebsd').check(), /\(404\)/);
      });

      it('answers a check spelled as declared (the hot lane) as the router answers other spellings', async () => {
        const { applicationId } = await createApplication(app);
        const build = await signedBuild('app.AppImage.tar.gz');
        await publish(applicationId, [
          { version: '1.1.0', fileName: 'app.AppImage.tar.gz', platform: 'linux', arch: 'x64', bytes: build.bytes },
          { version: '1.1.0', fileName: 'app.AppImage.tar.gz.sig', platform: 'linux', arch: 'x64', bytes: build.signature, fileType: 'SIGNATURE' },
        ]);
        const customer = await customerOf(applicationId);
        const answer = async (path: string) => {
          const res = await fetch(`${app.baseUrl}/v1/updates/${applicationId}/${path}`, { headers: { authorization: `Bearer ${customer.apiKey}` } });
          return [res.status, await res.text()];
        };
        const spellings = [
          ['tauri/linux/x86_64/1.0.0', 'tauri/linu%78/x86%5F64/1%2E0.0', 'tauri/linux/x86_64/1.0.0/'],
          ['tauri/linux/x86_64/1.1.0', 'tauri/%6Cinux/x86_64/1.1.0'],
          ['electron/latest-linux.yml', 'electron/latest-linux%2Eyml', 'electron/latest-linux.yml/'],
        ];
        for (const [declared, ...others] of spellings) {
          const expected = await answer(declared);
          expect(expected[0], declared).to.be.oneOf([200, 204]);
          for (const other of others) expect(await answer(other), other).to.deep.equal(expected);
        }
        for (const path of ['tauri/linux//x86_64/1.0.0', 'tauri/linux/x86_64', 'tauri/linux/x86_64/1.0.0/x', 'electron/latest-linux.yml/x']) {
          expect((await answer(path))[0], path).to.equal(404);
        }
      });

      it('has its client refuse a file that does not match its signature', async () => {
        // No key registered: the service takes the signature as given, and the client is the last check.
        const { applicationId } = await createApplication(app);
        const build = await signedBuild('app.msi.zip');
        const tampered = Buffer.from(build.bytes);
        tampered[100] ^= 1;
        await publish(applicationId, [
          { version: '2.0.0', fileName: 'app.msi.zip', platform: 'windows', arch: 'x64', bytes: tampered },
          { version: '2.0.0', fileName: 'app.msi.zip.sig', platform: 'windows', arch: 'x64', bytes: build.signature, fileType: 'SIGNATURE' },
        ]);
        const customer = await customerOf(applicationId);
        const client = tauriClient(applicationId, customer.apiKey, '1.0.0', 'windows', 'x86_64');
        const update = await client.check();
        expect(update?.version).to.equal('2.0.0');
        await expectRejection(client.download(update!), /signature verification failed/);
      });

      it('answers its checks and Squirrel.Mac\'s with 204 until a build for the platform is published (for Tauri, signed), and 404 to whoever may not use the application', async () => {
        const { applicationId } = await createApplication(app);
        const customer = await customerOf(applicationId);
        const other = await createCustomer(app);
        const check = async (path: string, apiKey = customer.apiKey) => {
          const res = await fetch(`${app.baseUrl}/v1/updates/${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
          return [res.status, res.headers.get('cache-control')];
        };
        const checks = (id: string) => [`${id}/tauri/darwin/aarch64/1.0.0`, `${id}/squirrel-mac/1.0.0?arch=arm64`];
        for (const path of checks(applicationId)) expect(await check(path), path).to.deep.equal([204, 'no-store']);
        for (const path of checks(applicationId)) expect(await check(path, other.apiKey), `another customer: ${path}`).to.deep.equal([404, 'no-store']);
        for (const path of checks('no-such-app')) expect(await check(path), path).to.deep.equal([404, 'no-store']);

        // A build for the platform, not yet signed: Squirrel.Mac takes it, Tauri is still offered nothing.
        const build = await signedBuild('App-1.1.0-arm64-mac.zip');
        // Through the API, as a vendor does: the feeds' caches learn of each upload.
        await uploadSmallFile(app, { applicationId, version: '1.1.0', fileName: 'App-1.1.0-arm64-mac.zip', platform: 'macos', arch: 'arm64', content: build.bytes });
        const [tauri, squirrel] = checks(applicationId);
        expect(await check(tauri)).to.deep.equal([204, 'no-store']);
        expect(await tauriClient(applicationId, customer.apiKey, '1.0.0', 'darwin', 'aarch64').check()).to.equal(null);
        expect((await check(squirrel))[0]).to.equal(200);
        await uploadSmallFile(app, { applicationId, version: '1.1.0', fileName: 'App-1.1.0-arm64-mac.zip.sig', platform: 'macos', arch: 'arm64', content: build.signature, fileType: 'SIGNATURE' });
        expect(await tauriClient(applicationId, customer.apiKey, '1.0.0', 'darwin', 'aarch64').check()).to.include({ version: '1.1.0' });
      });
    });

    describe('Squirrel.Mac', () => {
      it('answers 204 when up to date (equal versions included) and otherwise a pre-signed URL it downloads without headers', async () => {
        const { applicationId } = await createApplication(app);
        const contents = await publish(applicationId, [
          { version: '4.0.0', fileName: 'App-4.0.0-mac.zip', platform: 'macos', arch: 'universal' },
          { version: '4.1.0', fileName: 'App-4.1.0-arm64-mac.zip', platform: 'macos', arch: 'arm64' },
        ]);
        const customer = await customerOf(applicationId);
        const feed = (current: string, query = '') => new SquirrelMacClient(
          `${app.baseUrl}/v1/updates/${applicationId}/squirrel-mac/${current}${query}`, { Authorization: `Bearer ${customer.apiKey}` },
        );
        expect(await feed('4.0.0').check()).to.equal(null);
        expect(await feed('4.1.0', '?arch=arm64').check()).to.equal(null);
        const intel = await feed('3.9.0').check();
        expect(intel).to.include({ name: '4.0.0' });
        expect(await feed('3.9.0').download(intel!)).to.deep.equal(contents.get('4.0.0/App-4.0.0-mac.zip'));
        const arm = await feed('4.0.0', '?arch=arm64').check();
        expect(arm?.name).to.equal('4.1.0');
        expect(await feed('4.0.0').download(arm!)).to.deep.equal(contents.get('4.1.0/App-4.1.0-arm64-mac.zip'));
        const events = await app.core.store.activity.listEvents({ applicationId, type: 'download', limit: 10 });
        expect(events).to.have.length(2);
        await expectRejection(new SquirrelMacClient(`${app.baseUrl}/v1/updates/${applicationId}/squirrel-mac/1.0.0`, {}).check(), /\(401\)/);
      });
    });
  });
}

async function expectRejection(promise: Promise<unknown>, message: RegExp): Promise<void> {
  const outcome = await promise.then(() => undefined, (error: Error) => error);
  expect(outcome, 'expected a rejection').to.be.instanceOf(Error);
  expect((outcome as Error).message).to.match(message);
}
