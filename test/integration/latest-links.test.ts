import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createApplication, createCustomer, sha256, storeRelease, uploadSmallFile } from '../support/factories';
import { createBucket } from '../support/s3-bucket';
import { s3Environment, S3rverProcess, startS3rver } from '../support/s3rver';
import { startTestApp, TestApp } from '../support/test-app';

type Customer = { customerId: string; apiKey: string };

/**
 * "Latest for my OS" links, GET /v1/downloads/latest/{applicationId}/{platform}[/{arch}]: a 302 to
 * the newest build offered to the customer, with the platform and arch aliases, the file type chosen
 * by the query or the last segment's extension, and one download event per redirect.
 */
for (const storage of ['embedded store', 'S3'] as const) {
  describe(`latest links (${storage})`, function () {
    this.timeout(60_000);
    let app: TestApp;
    let s3: S3rverProcess | undefined;
    let alice: Customer;

    before(async () => {
      if (storage === 'S3') s3 = await startS3rver();
      app = await startTestApp({ workers: false, env: s3 ? s3Environment(s3, 'latest-links') : {} });
      if (app.config.s3) await createBucket(app.config.s3);
      alice = await createCustomer(app, { tier: 'standard' });
    });
    after(async () => {
      await app.close();
      await s3?.stop();
    });

    const latest = (customer: Customer, path: string) => app.http.get(`/v1/downloads/latest/${path}`, { key: customer.apiKey });
    const downloadEvents = async (applicationId: string) => app.core.store.activity.listEvents({ applicationId, type: 'download', limit: 100 });

    it('redirects to the newest build for the platform and arch, by any alias, with one download event; the bytes are the upload', async () => {
      const { applicationId } = await createApplication(app, { customerIds: [alice.customerId] });
      const arm = randomBytes(1800);
      await uploadSmallFile(app, { applicationId, version: '1.0.0', platform: 'macos', arch: 'arm64', fileName: 'App-1.0.0-arm64.dmg' });
      await uploadSmallFile(app, { applicationId, version: '1.1.0', platform: 'macos', arch: 'arm64', fileName: 'App-1.1.0-arm64.dmg', content: arm });
      await uploadSmallFile(app, { applicationId, version: '1.1.0', platform: 'linux', arch: 'x64', fileName: 'app-1.1.0.AppImage' });

      for (const path of ['macos/arm64', 'mac/aarch64', 'darwin/ARM64', 'OSX/arm64']) {
        const res = await latest(alice, `${applicationId}/${path}`);
        expect(res.status, path).to.equal(302);
        expect(res.headers.get('cache-control'), path).to.equal('no-store');
        expect(res.headers.get('location'), path).to.equal(res.body.data.downloadUrl);
      }
      const res = await latest(alice, `${applicationId}/mac/arm64`);
      const bytes = Buffer.from(await (await fetch(res.headers.get('location') as string)).arrayBuffer());
      expect(sha256(bytes)).to.equal(sha256(arm));
      // Repeats of one customer's download of one file within the window count once, as for download URLs.
      const events = await downloadEvents(applicationId);
      expect(events.map((event) => [event.version, event.customerId, event.platform, event.arch])).to.deep.equal([['1.1.0', alice.customerId, 'macos', 'arm64']]);

      for (const path of ['linux/x64', 'linux/amd64', 'linux/x86_64', 'linux']) {
        expect((await latest(alice, `${applicationId}/${path}`)).status, path).to.equal(302);
      }
      expect((await downloadEvents(applicationId)).length).to.equal(2);
    });

    it('chooses among a version\'s files by file type, from the query or the last segment, the MAIN file by default', async () => {
      const { applicationId } = await createApplication(app, { customerIds: [alice.customerId] });
      await uploadSmallFile(app, { applicationId, version: '2.0.0', platform: 'macos', arch: 'universal', fileName: 'App-2.0.0.dmg' });
      await uploadSmallFile(app, { applicationId, version: '2.0.0', platform: 'macos', arch: 'universal', fileName: 'App-2.0.0-mac.zip', fileType: 'UPDATE' });
      await uploadSmallFile(app, { applicationId, version: '2.1.0', platform: 'macos', arch: 'universal', fileName: 'App-2.1.0.dmg' });
      const pick = async (path: string) => {
        const res = await latest(alice, `${applicationId}/${path}`);
        return res.status === 302 ? new URL(res.body.data.downloadUrl).pathname.split('/').pop() ?? '' : `${res.status} ${res.body.error.code}`;
      };
      const fileName = async (path: string) => {
        const res = await latest(alice, `${applicationId}/${path}`);
        if (res.status !== 302) return `${res.status} ${res.body.error.code}`;
        const head = await fetch(res.headers.get('location') as string);
        await head.arrayBuffer();
        return /filename="([^"]+)"/.exec(head.headers.get('content-disposition') ?? '')?.[1];
      };
      // A universal build answers both Mac arches; the MAIN file (the installer) is the default.
      expect(await fileName('mac/arm64')).to.equal('App-2.1.0.dmg');
      expect(await fileName('mac/x64')).to.equal('App-2.1.0.dmg');
      expect(await fileName('mac')).to.equal('App-2.1.0.dmg');
      // The .zip is only in 2.0.0: the newest release that has one answers.
      expect(await fileName('mac/arm64.zip')).to.equal('App-2.0.0-mac.zip');
      expect(await fileName('mac.ZIP')).to.equal('App-2.0.0-mac.zip');
      expect(await fileName('mac/x64?fileType=zip')).to.equal('App-2.0.0-mac.zip');
      expect(await fileName('mac/x64.dmg?fileType=DMG')).to.equal('App-2.1.0.dmg');
      expect(await pick('mac/arm64.pkg')).to.equal('404 NO_MATCHING_BUILD');
      const conflict = await latest(alice, `${applicationId}/mac/arm64.dmg?fileType=zip`);
      expect([conflict.status, conflict.body.error.details]).to.deep.equal([400, [{ field: 'fileType', message: "names another file type than the path's extension (dmg)" }]]);
    });

    it('applies the release rules: channel, tier, drafts and yanked versions never', async () => {
      const standard = await createCustomer(app, { tier: 'standard' });
      const { applicationId } = await createApplication(app, { customerIds: [standard.customerId] });
      const spec = (createdAt: number, extra: object = {}) => ({ createdAt, files: [{ platform: 'windows' as const, arch: 'x64' as const, fileName: 'Setup.exe' }], ...extra });
      await storeRelease(app.core.store, applicationId, '1.0.0', spec(1));
      await storeRelease(app.core.store, applicationId, '1.1.0', spec(2, { status: 'yanked' }));
      await storeRelease(app.core.store, applicationId, '1.2.0', spec(3, { status: 'draft' }));
      await storeRelease(app.core.store, applicationId, '1.3.0', spec(4, { requiredTier: 'premium' }));
      await storeRelease(app.core.store, applicationId, '1.4.0-beta.1', spec(5, { channel: 'beta' }));
      const versionOf = async (path: string) => {
        const res = await latest(standard, `${applicationId}/${path}`);
        return res.status === 302 ? (await downloadEvents(applicationId))[0].version : res.status;
      };
      expect(await versionOf('win/x64')).to.equal('1.0.0');
      expect(await versionOf('windows/amd64?channel=beta')).to.equal('1.4.0-beta.1');
      const none = await latest(standard, `${applicationId}/linux/x64`);
      expect(none.status).to.equal(404);
      expect(none.body.error).to.deep.equal({ code: 'NO_MATCHING_BUILD', message: `no build of ${applicationId} is available for channel stable, platform linux, arch x64` });
      const outsider = await createCustomer(app);
      expect((await latest(outsider, `${applicationId}/windows/x64`)).body.error.code).to.equal('NOT_FOUND');
    });

    it('refuses an unknown platform, arch or file type with 400 naming the choices, and a missing key with 401', async () => {
      const { applicationId } = await createApplication(app, { customerIds: [alice.customerId] });
      const platform = await latest(alice, `${applicationId}/beos`);
      expect(platform.status).to.equal(400);
      expect(platform.body.error.details[0].field).to.equal('platform');
      expect(platform.body.error.details[0].message).to.match(/^is not a known platform: one of macos, mac, darwin, osx, windows, win/);
      const arch = await latest(alice, `${applicationId}/linux/sparc`);
      expect(arch.body.error.details).to.have.length(1);
      expect(arch.body.error.details[0]).to.include({ field: 'arch' });
      expect(arch.body.error.details[0].message).to.include('x86_64');
      for (const path of ['linux/any', 'any', 'linux.x64/x64', 'linux/x64.', 'linux/x64.a$b', `linux/x64?fileType=${'a'.repeat(17)}`, 'linux/x64?version=1']) {
        expect((await latest(alice, `${applicationId}/${path}`)).status, path).to.equal(400);
      }
      expect((await app.http.get(`/v1/downloads/latest/${applicationId}/linux/x64`, { key: null })).status).to.equal(401);
    });
  });
}
