import { expect } from 'chai';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { buildDirectory, electronBuilderOutput, sparkleOutput, squirrelOutput, tauriOutput, velopackOutput } from '../support/build-outputs';
import { CliResult, CliUser, errorOf, eventsOf } from '../support/cli-process';
import { electronUpdateClient, ElectronPlatform } from '../support/electron-updater-client';
import { createApplication, createCustomer } from '../support/factories';
import { generateSparkleKey, sparkleVerifies } from '../support/sparkle-signer';
import { generateTauriKey, TauriSigningKey } from '../support/tauri-signer';
import { TauriUpdateClient } from '../support/tauri-update-client';
import { startTestApp, TestApp } from '../support/test-app';
import { TransferProxy } from '../support/transfer-proxy';

const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

interface PlannedEntry { path: string | null; fileName: string; platform: string; arch: string; fileType: string; purpose: string; attachedTo?: string }

describe('bds publish', function () {
  this.timeout(120_000);
  let app: TestApp;
  let proxy: TransferProxy;
  /** The CLI talks to the service through the proxy: what it sent is counted there. */
  let admin: CliUser;
  let tauriKey: TauriSigningKey;

  before(async () => {
    proxy = await TransferProxy.start();
    app = await startTestApp({ env: { PUBLIC_BASE_URL: proxy.url } });
    proxy.forwardTo(app.baseUrl);
    admin = new CliUser({ BDS_URL: proxy.url, BDS_API_KEY: app.adminKey });
    tauriKey = await generateTauriKey(buildDirectory('tauri-key'));
  });
  afterEach(() => proxy.clearRule());
  after(async () => {
    admin?.remove();
    // The proxy first: a part it held open from a killed run would keep the service's close waiting.
    await proxy?.close();
    await app?.close();
  });

  async function customerOf(applicationId: string) {
    const customer = await createCustomer(app);
    expect((await app.http.patch(`/v1/management/applications/${applicationId}`, { customerIds: [customer.customerId] })).status).to.equal(200);
    return customer;
  }

  async function versionsOf(applicationId: string) {
    return (await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions as { version: string; status: string; bundleVersion: string | null; minimumSystemVersion: string | null; files: { fileName: string; fileType: string; platform: string; arch: string; status: string; checksum: string }[] }[];
  }

  const planOf = (result: CliResult) => eventsOf(result).find((event) => event.event === 'plan') as unknown as { version: string; tools: string[]; files: PlannedEntry[]; skipped: { path: string; reason: string }[] };

  /** Runs a publish that must be refused: exit 2, the problems named, and not one request that changes anything sent. */
  async function refused(applicationId: string, directory: string, extra: string[] = []) {
    const posts = proxy.idempotencyKeys.length;
    const puts = proxy.storedPuts;
    const result = await admin.run(['publish', applicationId, directory, '--json', ...extra]);
    expect(result.code, result.stderr).to.equal(2);
    expect(proxy.idempotencyKeys.length, 'POSTs sent').to.equal(posts);
    expect(proxy.storedPuts, 'bytes stored').to.equal(puts);
    expect(await versionsOf(applicationId), 'no version').to.deep.equal([]);
    const error = errorOf(result);
    expect(error.code).to.equal('PUBLISH_REFUSED');
    return (error.problems as { path: string; message: string }[]).map((problem) => problem.message);
  }

  describe('electron-builder', () => {
    async function electron(applicationId: string, apiKey: string, platform: ElectronPlatform) {
      return electronUpdateClient({ feedUrl: `${app.baseUrl}/v1/updates/${applicationId}/electron`, version: '1.0.0', platform, authorization: `Bearer ${apiKey}` });
    }

    it('plans every artifact with its target, type and purpose, publishes them together, and electron-updater updates on each system', async () => {
      const { applicationId } = await createApplication(app, { defaultVersionStatus: 'draft' });
      const customer = await customerOf(applicationId);
      const build = await electronBuilderOutput('1.2.0');

      const dry = await admin.run(['publish', applicationId, build.directory, '--dry-run', '--json']);
      expect(dry.code, dry.stderr).to.equal(0);
      const plan = planOf(dry);
      expect(plan).to.include({ version: '1.2.0' });
      expect(plan.tools).to.deep.equal(['electron-builder']);
      const shape = plan.files.map(({ fileName, platform, arch, fileType }) => [fileName, platform, arch, fileType]);
      expect(shape).to.have.deep.members([
        ['Bds-Demo-Setup-1.2.0.exe', 'windows', 'x64', 'MAIN'],
        ['Bds Demo-1.2.0.dmg', 'macos', 'x64', 'MAIN'],
        ['Bds Demo-1.2.0-mac.zip', 'macos', 'x64', 'UPDATE'],
        ['Bds Demo-1.2.0.AppImage', 'linux', 'x64', 'MAIN'],
        ['bds-demo_1.2.0_amd64.deb', 'linux', 'x64', 'OTHER'],
        ['Bds-Demo-Setup-1.2.0.exe.blockmap', 'windows', 'x64', 'BLOCKMAP'],
        ['Bds Demo-1.2.0-mac.zip.blockmap', 'macos', 'x64', 'BLOCKMAP'],
      ]);
      expect(plan.files.find((file) => file.fileName.endsWith('mac.zip'))?.purpose).to.match(/macOS update archive/);
      expect(plan.skipped.map((file) => file.path)).to.include.members(['latest.yml', 'latest-mac.yml', 'builder-debug.yml', 'win-unpacked/Bds Demo.exe']);
      expect(eventsOf(dry).pop()).to.include({ event: 'done', dryRun: true });
      expect(await versionsOf(applicationId), 'a dry run sends nothing').to.deep.equal([]);

      // The human plan lists the purposes; --status published overrides the application's draft default.
      const published = await admin.run(['publish', applicationId, build.directory, '--status', 'published']);
      expect(published.code, published.stderr).to.equal(0);
      expect(published.stdout).to.match(/Windows installer/).and.match(/blockmap of Bds-Demo-Setup-1\.2\.0\.exe/);
      expect(published.stdout).to.match(/Published .* 1\.2\.0: 7 files/);
      const [version] = await versionsOf(applicationId);
      expect(version).to.include({ version: '1.2.0', status: 'published' });
      expect(version.files.map((file) => file.fileName)).to.have.members(plan.files.map((file) => file.fileName));

      for (const [platform, name] of [['win32', 'Bds-Demo-Setup-1.2.0.exe'], ['darwin', 'Bds Demo-1.2.0-mac.zip'], ['linux', 'Bds Demo-1.2.0.AppImage']] as const) {
        const client = await electron(applicationId, customer.apiKey, platform);
        try {
          const found = await client.check();
          expect(found?.updateInfo.version, platform).to.equal('1.2.0');
          expect(found?.updateInfo.files.map((file) => decodeURIComponent(file.url)), platform).to.include(`1.2.0/${name}`);
          // The suite's Linux client is DebUpdater, which installs a .deb: the AppImage is checked, not installed.
          if (platform === 'linux') continue;
          const [downloaded] = await client.download();
          expect(fs.readFileSync(downloaded).equals(build.bytes.get(name)!), platform).to.equal(true);
        } finally {
          await client.close();
        }
      }

      // Run again: identical files, nothing sent.
      const posts = proxy.idempotencyKeys.length;
      const again = await admin.run(['publish', applicationId, build.directory]);
      expect(again.code, again.stderr).to.equal(0);
      expect(again.stdout).to.match(/Already published: .* 1\.2\.0 holds these 7 files, identical; nothing was sent/);
      expect(proxy.idempotencyKeys.length).to.equal(posts);

      // Another build of the same version: refused, naming the local path and the stored file.
      const rebuilt = await electronBuilderOutput('1.2.0');
      const result = await admin.run(['publish', applicationId, rebuilt.directory, '--json']);
      expect(result.code).to.equal(2);
      const problems = (errorOf(result).problems as { message: string }[]).map((problem) => problem.message).join('\n');
      expect(problems).to.include(path.join(rebuilt.directory, 'Bds-Demo-Setup-1.2.0.exe')).and.match(/differs from Bds-Demo-Setup-1\.2\.0\.exe already in version 1\.2\.0/);
      expect(proxy.idempotencyKeys.length).to.equal(posts);
    });

    it('the status defaults to the application\'s defaultVersionStatus: a draft stays invisible to customers', async () => {
      const { applicationId } = await createApplication(app, { defaultVersionStatus: 'draft' });
      const customer = await customerOf(applicationId);
      const build = await electronBuilderOutput('2.0.0');
      const result = await admin.run(['publish', applicationId, build.directory]);
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout).to.match(/as a draft with 7 files: publish with bds versions update/);
      expect((await versionsOf(applicationId))[0]).to.include({ status: 'draft' });
      const res = await fetch(`${app.baseUrl}/v1/updates/${applicationId}/electron/latest.yml`, { headers: { authorization: `Bearer ${customer.apiKey}` } });
      expect(res.status).to.equal(404);
    });

    it('refuses before sending a byte: a mac build without its zip, a sha512 that differs, two versions, a file no tool wrote', async () => {
      const { applicationId } = await createApplication(app);
      const noZip = await electronBuilderOutput('1.0.0', { withoutZip: true });
      expect((await refused(applicationId, noZip.directory)).join('\n')).to.match(/Bds Demo-1\.0\.0\.dmg: a macOS build with no \.zip for update clients.*add "zip" to mac\.target/);

      const changed = await electronBuilderOutput('1.0.0');
      fs.appendFileSync(path.join(changed.directory, 'Bds Demo-1.0.0.AppImage'), 'x');
      expect((await refused(applicationId, changed.directory)).join('\n')).to.match(/Bds Demo-1\.0\.0\.AppImage does not have the sha512 latest-linux\.yml gives it/);

      const two = await electronBuilderOutput('1.0.0');
      await electronBuilderOutput('1.1.0', { directory: path.join(two.directory, 'next') });
      expect((await refused(applicationId, two.directory)).join('\n')).to.match(/two versions in one directory: 1\.0\.0 \(latest-linux\.yml\), 1\.1\.0 \(next\/latest-linux\.yml\)/);

      const stray = await electronBuilderOutput('1.0.0');
      fs.writeFileSync(path.join(stray.directory, 'notes.bin'), 'what is this');
      expect((await refused(applicationId, stray.directory)).join('\n')).to.match(/notes\.bin was written by none of the recognised tools.*--include.*--exclude/);
      const excluded = await admin.run(['publish', applicationId, stray.directory, '--exclude', 'notes.bin', '--dry-run', '--json']);
      expect(excluded.code, excluded.stderr).to.equal(0);
      expect(planOf(excluded).files.map((file) => file.fileName)).to.not.include('notes.bin');
      const included = await admin.run(['publish', applicationId, stray.directory, '--include', '*.bin', '--dry-run', '--json']);
      expect(planOf(included).files.find((file) => file.fileName === 'notes.bin')).to.include({ fileType: 'OTHER' });

      const wrongVersion = await refused(applicationId, (await electronBuilderOutput('1.0.0')).directory, ['--version', '9.9.9']);
      expect(wrongVersion.join('\n')).to.match(/--version 9\.9\.9 differs from the version the build wrote \(1\.0\.0/);
    });

    it('killed (SIGKILL) mid-publish: customers see nothing, and the same command resumes and publishes the whole release', async () => {
      const { applicationId } = await createApplication(app);
      const customer = await customerOf(applicationId);
      const build = await electronBuilderOutput('3.0.0', { size: 12 * 1024 * 1024 });
      const args = ['publish', applicationId, build.directory, '--status', 'published', '--concurrency', '1', '--json'];
      const stalled = proxy.holdAfter({ method: 'PUT' }, 1);
      const first = admin.start(args);
      try {
        await stalled;
      } finally {
        await first.kill();
        proxy.clearRule();
      }
      const [draft] = await versionsOf(applicationId);
      expect(draft?.status ?? 'none', 'the version is not offered').to.not.equal('published');
      const feed = await fetch(`${app.baseUrl}/v1/updates/${applicationId}/electron/latest-linux.yml`, { headers: { authorization: `Bearer ${customer.apiKey}` } });
      expect(feed.status, 'no channel file for a partial version').to.equal(404);

      const second = await admin.run(args);
      expect(second.code, second.stderr).to.equal(0);
      const events = eventsOf(second);
      const firstUpload = first.output().split('\n').map((line) => line.trim()).filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>).find((event) => event.event === 'start' && event.uploadId)?.uploadId;
      expect(events.find((event) => event.event === 'start' && event.uploadId === firstUpload), 'the interrupted upload is taken up again').to.include({ resumed: true });
      expect(events.pop()).to.include({ event: 'done', status: 'published' });
      const [version] = await versionsOf(applicationId);
      expect(version.files.filter((file) => file.status === 'available')).to.have.length(7);
    });

    it('Ctrl-C mid-publish ends with 130, says the version stays a draft, and the same command finishes it', async () => {
      const { applicationId } = await createApplication(app);
      const build = await electronBuilderOutput('4.0.0', { size: 12 * 1024 * 1024 });
      const args = ['publish', applicationId, build.directory, '--status', 'published', '--concurrency', '1'];
      const stalled = proxy.holdAfter({ method: 'PUT' }, 1);
      const first = admin.start(args);
      try {
        await stalled;
        first.signal('SIGINT');
        const exit = await first.exitWithin(15_000);
        expect(exit.code).to.equal(130);
        expect(first.stderr).to.match(/version 4\.0\.0 stays a draft, invisible to customers; run the same command again/);
      } finally {
        await first.kill();
        proxy.clearRule();
      }
      const second = await admin.run(args);
      expect(second.code, second.stderr).to.equal(0);
      expect((await versionsOf(applicationId))[0]).to.include({ status: 'published' });
    });
  });

  describe('Tauri', () => {
    it('publishes the bundles with their signatures, and the Tauri updater updates on each system', async () => {
      const { applicationId } = await createApplication(app, { updateSigningKey: tauriKey.publicKey });
      const customer = await customerOf(applicationId);
      const build = await tauriOutput('1.2.0', tauriKey);
      const result = await admin.run(['publish', applicationId, build.directory, '--json']);
      expect(result.code, result.stderr).to.equal(0);
      const plan = planOf(result);
      const shape = plan.files.map(({ fileName, platform, arch, fileType }) => [fileName, platform, arch, fileType]);
      expect(shape).to.have.deep.members([
        ['BdsDemo_1.2.0_x64-setup.exe', 'windows', 'x64', 'MAIN'],
        ['BdsDemo_1.2.0_x64_en-US.msi', 'windows', 'x64', 'OTHER'],
        ['BdsDemo.app.tar.gz', 'macos', 'arm64', 'MAIN'],
        ['BdsDemo_1.2.0_aarch64.dmg', 'macos', 'arm64', 'OTHER'],
        ['bds-demo_1.2.0_amd64.AppImage', 'linux', 'x64', 'MAIN'],
        ['bds-demo_1.2.0_amd64.deb', 'linux', 'x64', 'OTHER'],
        ['BdsDemo_1.2.0_x64-setup.exe.sig', 'windows', 'x64', 'SIGNATURE'],
        ['BdsDemo_1.2.0_x64_en-US.msi.sig', 'windows', 'x64', 'OTHER'],
        ['BdsDemo.app.tar.gz.sig', 'macos', 'arm64', 'SIGNATURE'],
        ['bds-demo_1.2.0_amd64.AppImage.sig', 'linux', 'x64', 'SIGNATURE'],
      ]);
      expect(plan.files.find((file) => file.fileName === 'BdsDemo.app.tar.gz.sig')?.purpose).to.equal('Tauri signature of BdsDemo.app.tar.gz');
      expect((await versionsOf(applicationId))[0]).to.include({ status: 'published' });

      for (const [target, arch, name] of [['windows', 'x86_64', 'BdsDemo_1.2.0_x64-setup.exe'], ['darwin', 'aarch64', 'BdsDemo.app.tar.gz'], ['linux', 'x86_64', 'bds-demo_1.2.0_amd64.AppImage']]) {
        const client = new TauriUpdateClient({
          endpoint: `${app.baseUrl}/v1/updates/${applicationId}/tauri/{{target}}/{{arch}}/{{current_version}}`,
          target, arch, currentVersion: '1.0.0', headers: { Authorization: `Bearer ${customer.apiKey}` }, pubkey: tauriKey.publicKey,
        });
        const update = await client.check();
        expect(update?.version, target).to.equal('1.2.0');
        expect((await client.download(update!)).equals(build.bytes.get(name)!), target).to.equal(true);
      }
    });

    it('refuses a bundle without .sig while the application has a key, and a signature made with another key', async () => {
      const { applicationId } = await createApplication(app, { updateSigningKey: tauriKey.publicKey });
      const unsigned = await tauriOutput('1.0.0', null);
      expect((await refused(applicationId, unsigned.directory)).join('\n')).to.match(/a Tauri bundle without \.sig while the application has an update-signing key: set bundle\.createUpdaterArtifacts/);
      const otherKey = await generateTauriKey(buildDirectory('tauri-other-key'), 'other');
      const foreign = await tauriOutput('1.0.0', otherKey);
      expect((await refused(applicationId, foreign.directory)).join('\n')).to.match(/nsis\/BdsDemo_1\.0\.0_x64-setup\.exe\.sig does not verify against BdsDemo_1\.0\.0_x64-setup\.exe under the application's update-signing key: the signature was made with key/);
    });
  });

  describe('a signing-key change', () => {
    it('warns before sending that old-key installs have no path forward, and publishes a bridge signed with the retired key', async () => {
      const oldKey = await generateTauriKey(buildDirectory('tauri-retired-key'), 'retired');
      const { applicationId } = await createApplication(app, { updateSigningKey: oldKey.publicKey });
      expect((await admin.run(['publish', applicationId, (await tauriOutput('1.0.0', oldKey)).directory, '--json'])).code).to.equal(0);
      expect((await app.http.patch(`/v1/management/applications/${applicationId}`, { updateSigningKey: tauriKey.publicKey })).status).to.equal(200);

      // A dry run of a new-key release: the warning comes before anything is sent.
      const dry = await admin.run(['publish', applicationId, (await tauriOutput('2.0.0', tauriKey)).directory, '--dry-run']);
      expect(dry.code, dry.stderr).to.equal(0);
      expect(dry.stderr).to.match(/Warning: installs of \S+ 1\.0\.0 trust the retired update-signing key [0-9A-F]{16} and have no path forward/);

      // The bridge, signed with the retired key, verifies and is published; the warning is gone.
      const bridge = await admin.run(['publish', applicationId, (await tauriOutput('1.1.0', oldKey)).directory]);
      expect(bridge.code, bridge.stderr).to.equal(0);
      expect(bridge.stderr).to.match(/Warning: installs of/);
      const after = await admin.run(['publish', applicationId, (await tauriOutput('2.0.0', tauriKey)).directory]);
      expect(after.code, after.stderr).to.equal(0);
      expect(after.stderr).not.to.match(/Warning/);
    });
  });

  describe('Velopack and Squirrel.Windows', () => {
    it('publishes Velopack\'s release (earlier packages left aside) and the feed offers it with the packages\' SHA1', async () => {
      const { applicationId } = await createApplication(app);
      const customer = await customerOf(applicationId);
      const build = await velopackOutput('1.2.0', '1.1.0');
      const result = await admin.run(['publish', applicationId, build.directory, '--json']);
      expect(result.code, result.stderr).to.equal(0);
      const plan = planOf(result);
      expect(plan.files.map(({ fileName, fileType }) => [fileName, fileType])).to.have.deep.members([
        ['MyApp-1.2.0-full.nupkg', 'UPDATE'], ['MyApp-1.2.0-delta.nupkg', 'UPDATE'], ['MyApp-win-Setup.exe', 'MAIN'], ['MyApp-win-Portable.zip', 'OTHER'],
      ]);
      expect(plan.skipped.find((file) => file.path === 'MyApp-1.1.0-full.nupkg')?.reason).to.match(/earlier release \(1\.1\.0\)/);
      const headers = { authorization: `Bearer ${customer.apiKey}` };
      const feed = await (await fetch(`${app.baseUrl}/v1/updates/${applicationId}/velopack/releases.win.json?id=MyApp&localVersion=1.0.0`, { headers })).json() as { Assets: { FileName: string; SHA1: string; Version: string }[] };
      const full = feed.Assets.find((asset) => asset.FileName === 'MyApp-1.2.0-full.nupkg');
      expect(full).to.include({ Version: '1.2.0' });
      expect(full!.SHA1.toLowerCase()).to.equal(sha1(build.bytes.get('MyApp-1.2.0-full.nupkg')!));
    });

    it('publishes electron-forge\'s squirrel.windows output, and RELEASES lists the new full package', async () => {
      const { applicationId } = await createApplication(app);
      const customer = await customerOf(applicationId);
      const build = await squirrelOutput('1.2.0');
      // electron-forge's make folder, as `bds publish <app> out/make` reads it: the arch is the folder's name.
      const result = await admin.run(['publish', applicationId, path.resolve(build.directory, '..', '..'), '--json']);
      expect(result.code, result.stderr).to.equal(0);
      expect(planOf(result).files.map(({ fileName, fileType, arch }) => [fileName, fileType, arch])).to.have.deep.members([
        ['MyApp-1.2.0-full.nupkg', 'UPDATE', 'x64'], ['MyApp-1.2.0-delta.nupkg', 'UPDATE', 'x64'], ['MyApp-1.2.0 Setup.exe', 'MAIN', 'x64'], ['MyApp-setup.msi', 'OTHER', 'x64'],
      ]);
      const releases = await (await fetch(`${app.baseUrl}/v1/updates/${applicationId}/squirrel-windows/RELEASES?arch=amd64`, { headers: { authorization: `Bearer ${customer.apiKey}` } })).text();
      expect(releases).to.include('MyApp-1.2.0-full.nupkg');
      const line = releases.split('\n').find((entry) => entry.includes('MyApp-1.2.0-full.nupkg'))!;
      expect(line.split(/\s+/)[0].toLowerCase()).to.equal(sha1(build.bytes.get('MyApp-1.2.0-full.nupkg')!));
    });

    it('refuses a nupkg missing from RELEASES', async () => {
      const { applicationId } = await createApplication(app);
      const build = await squirrelOutput('1.0.0', { unlisted: ['MyApp-1.0.0-delta.nupkg'] });
      expect((await refused(applicationId, build.directory)).join('\n')).to.match(/MyApp-1\.0\.0-delta\.nupkg is missing from .*RELEASES: Squirrel clients would never find it/);
    });
  });

  describe('Sparkle', () => {
    it('publishes the newest archive and its delta with their edSignatures, and the appcast offers them verified', async () => {
      const key = generateSparkleKey();
      const { applicationId } = await createApplication(app, { sparklePublicKey: key.publicKey });
      const customer = await customerOf(applicationId);
      const build = await sparkleOutput(key, { version: '2.1.0', build: '210' }, { version: '2.0.0', build: '200' });
      const result = await admin.run(['publish', applicationId, build.directory, '--json']);
      expect(result.code, result.stderr).to.equal(0);
      const plan = planOf(result);
      expect(plan.files.map(({ fileName, fileType }) => [fileName, fileType])).to.have.deep.members([
        ['BdsDemo-2.1.0.zip', 'MAIN'], ['BdsDemo210-200.delta', 'OTHER'], ['BdsDemo-2.1.0.zip.sig', 'SIGNATURE'], ['BdsDemo210-200.delta.sig', 'SIGNATURE'],
      ]);
      expect(plan.skipped.find((file) => file.path === 'BdsDemo-2.0.0.zip')?.reason).to.match(/earlier release/);
      expect((await versionsOf(applicationId))[0]).to.include({ version: '2.1.0', bundleVersion: '210', minimumSystemVersion: '11.0' });

      const res = await fetch(`${app.baseUrl}/v1/updates/${applicationId}/sparkle/stable/appcast.xml`, { headers: { authorization: `Bearer ${customer.apiKey}` } });
      const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(await res.text()) as { rss: { channel: { item: Record<string, any> } } };
      const item = parsed.rss.channel.item;
      expect(String(item['sparkle:version'])).to.equal('210');
      const download = await fetch(item.enclosure.url, { headers: { authorization: `Bearer ${customer.apiKey}` } });
      const bytes = Buffer.from(await download.arrayBuffer());
      expect(bytes.equals(build.bytes.get('BdsDemo-2.1.0.zip')!)).to.equal(true);
      expect(sparkleVerifies(key.publicKey, bytes, item.enclosure['sparkle:edSignature'])).to.equal(true);
    });

    it('refuses an edSignature that does not verify under the application\'s key', async () => {
      const key = generateSparkleKey();
      const { applicationId } = await createApplication(app, { sparklePublicKey: key.publicKey });
      const build = await sparkleOutput(key, { version: '2.1.0', build: '210' }, { version: '2.0.0', build: '200' }, { badSignature: true });
      expect((await refused(applicationId, build.directory)).join('\n')).to.match(/the sparkle:edSignature of BdsDemo-2\.1\.0\.zip in appcast\.xml does not verify under the application's sparklePublicKey/);
    });
  });

  it('--help lists the recognised tools', async () => {
    const help = await admin.run(['publish', '--help']);
    expect(help.stdout).to.match(/Recognised build tools:/).and.match(/electron-builder/).and.match(/Tauri v1\/v2/).and.match(/Velopack/).and.match(/Squirrel\.Windows/).and.match(/Sparkle/);
  });
});
