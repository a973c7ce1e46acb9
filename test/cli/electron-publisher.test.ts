import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { buildDirectory, electronBuilderOutput } from '../support/build-outputs';
import { CliUser } from '../support/cli-process';
import { electronUpdateClient } from '../support/electron-updater-client';
import { createApplication, createCustomer, storeRelease } from '../support/factories';
import { DIST_DIR } from '../support/node-process';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The electron-builder publisher (`cli/publish/electron-publisher.ts`) as electron-builder runs it:
 * app-builder-lib's PublishManager, with `publish: {provider: "custom", url, applicationId, channel}`, finds
 * `build/electron-publisher-custom.js` in the project's build resources and hands it each artifact
 * electron-builder announces (here the files of a dist/ laid out as it writes them; no Electron
 * binary is packaged).
 */
describe('electron-builder publisher (provider "custom")', function () {
  this.timeout(120_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    delete process.env.BDS_API_KEY;
    await app?.close();
  });

  it('electron-builder\'s publish path sends every artifact to a draft; bds publish then publishes it and electron-updater updates', async () => {
    const { applicationId } = await createApplication(app, { defaultVersionStatus: 'draft' });
    const customer = await createCustomer(app);
    await app.http.patch(`/v1/management/applications/${applicationId}`, { customerIds: [customer.customerId] });
    const projectDir = buildDirectory('electron-project');
    fs.writeFileSync(path.join(projectDir, 'package.json'), JSON.stringify({ name: 'bds-demo', productName: 'Bds Demo', version: '1.2.0', description: 'demo', author: 'Bds', devDependencies: { electron: '38.0.0' } }));
    fs.mkdirSync(path.join(projectDir, 'build'));
    // What the docs tell a vendor to put in the build resources: the module that ships with bds.
    fs.writeFileSync(path.join(projectDir, 'build', 'electron-publisher-custom.js'), `module.exports = require(${JSON.stringify(path.join(DIST_DIR, 'cli', 'publish', 'electron-publisher.js'))});\n`);
    const dist = await electronBuilderOutput('1.2.0', { directory: path.join(projectDir, 'dist') });
    process.env.BDS_API_KEY = app.adminKey;

    const publish = { provider: 'custom', url: app.baseUrl, applicationId, channel: 'stable' } as never;
    const { Arch, Packager, AppInfo, PublishManager } = appBuilderLib();
    const packager = new Packager({ projectDir, config: { publish } });
    await packager.validateConfig();
    packager._appInfo = new AppInfo(packager, null);
    const manager = new PublishManager(packager, { publish: 'always' });
    const artifacts = fs.readdirSync(dist.directory, { withFileTypes: true }).filter((entry) => entry.isFile() && !entry.name.startsWith('builder-')).map((entry) => entry.name);
    for (const name of artifacts) {
      await packager.emitArtifactCreated({ file: path.join(dist.directory, name), arch: Arch.x64, packager: null, target: null, publishConfig: publish, safeArtifactName: name.replace(/\s+/g, '-') });
    }
    await manager.awaitTasks();

    const versions = (await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions as { version: string; status: string; files: { fileName: string; fileType: string; platform: string }[] }[];
    expect(versions).to.have.length(1);
    expect(versions[0]).to.include({ version: '1.2.0', status: 'draft' });
    expect(versions[0].files.map((file) => [file.fileName, file.fileType, file.platform])).to.have.deep.members([
      ['Bds-Demo-Setup-1.2.0.exe', 'MAIN', 'windows'], ['Bds-Demo-Setup-1.2.0.exe.blockmap', 'BLOCKMAP', 'windows'],
      ['Bds Demo-1.2.0.dmg', 'MAIN', 'macos'], ['Bds Demo-1.2.0-mac.zip', 'UPDATE', 'macos'], ['Bds Demo-1.2.0-mac.zip.blockmap', 'BLOCKMAP', 'macos'],
      ['Bds Demo-1.2.0.AppImage', 'MAIN', 'linux'], ['bds-demo_1.2.0_amd64.deb', 'OTHER', 'linux'],
    ]);

    // The version is published in one change by bds publish over the same dist/: nothing is sent again.
    const admin = new CliUser({ BDS_URL: app.baseUrl, BDS_API_KEY: app.adminKey });
    try {
      const result = await admin.run(['publish', applicationId, dist.directory, '--status', 'published']);
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stderr).to.match(/7 of 7 files are already stored, identical: not sent again/);
    } finally {
      admin.remove();
    }
    const client = await electronUpdateClient({ feedUrl: `${app.baseUrl}/v1/updates/${applicationId}/electron`, version: '1.0.0', platform: 'win32', authorization: `Bearer ${customer.apiKey}` });
    try {
      expect((await client.check())?.updateInfo.version).to.equal('1.2.0');
      const [downloaded] = await client.download();
      expect(fs.readFileSync(downloaded).equals(dist.bytes.get('Bds-Demo-Setup-1.2.0.exe')!)).to.equal(true);
    } finally {
      await client.close();
    }
  });

  /**
   * A project whose publish configuration says `status: published`, its artifacts announced to
   * app-builder-lib's PublishManager, and the channel files as its update-info step leaves them
   * (`updateFileWriteTask`, which `createUpdateInfoTasks` fills during a build): PublishManager's
   * own `awaitTasks` awaits the uploads, then writes the channel files and hands them to the provider.
   */
  async function buildAndPublish(applicationId: string, version: string) {
    const projectDir = buildDirectory('electron-project');
    fs.writeFileSync(path.join(projectDir, 'package.json'), JSON.stringify({ name: 'bds-demo', productName: 'Bds Demo', version, description: 'demo', author: 'Bds', devDependencies: { electron: '38.0.0' } }));
    fs.mkdirSync(path.join(projectDir, 'build'));
    fs.writeFileSync(path.join(projectDir, 'build', 'electron-publisher-custom.js'), `module.exports = require(${JSON.stringify(path.join(DIST_DIR, 'cli', 'publish', 'electron-publisher.js'))});\n`);
    const dist = await electronBuilderOutput(version, { directory: path.join(projectDir, 'dist') });
    process.env.BDS_API_KEY = app.adminKey;
    const publish = { provider: 'custom', url: app.baseUrl, applicationId, channel: 'stable', status: 'published' } as never;
    const { Arch, Packager, AppInfo, PublishManager } = appBuilderLib();
    const packager = new Packager({ projectDir, config: { publish } });
    await packager.validateConfig();
    packager._appInfo = new AppInfo(packager, null);
    const manager = new PublishManager(packager, { publish: 'always' });
    const names = fs.readdirSync(dist.directory, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name);
    for (const name of names.filter((candidate) => !candidate.endsWith('.yml') && !candidate.startsWith('builder-'))) {
      await packager.emitArtifactCreated({ file: path.join(dist.directory, name), arch: Arch.x64, packager: null, target: null, publishConfig: publish, safeArtifactName: name.replace(/\s+/g, '-') });
    }
    for (const name of ['latest.yml', 'latest-mac.yml', 'latest-linux.yml']) {
      const info = parseYaml(fs.readFileSync(path.join(dist.directory, name), 'utf8')) as { files: { url: string }[] };
      manager.updateFileWriteTask.push({ file: path.join(dist.directory, name), info, publishConfiguration: publish, packager: null, arch: null });
    }
    await manager.awaitTasks();
  }

  it('with status: published, the version is published in one change when PublishManager hands over the channel files after every artifact', async () => {
    const { applicationId } = await createApplication(app, { defaultVersionStatus: 'draft' });
    await buildAndPublish(applicationId, '1.3.0');
    const [stored] = (await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions as { version: string; status: string; files: { fileName: string; status: string }[] }[];
    expect(stored).to.include({ version: '1.3.0', status: 'published' });
    expect(stored.files).to.have.length(7);
    expect(stored.files.every((file) => file.status === 'available')).to.equal(true);
  });

  it('with status: published, an artifact the service refuses fails the build before any channel file: the version stays a draft', async () => {
    const { applicationId } = await createApplication(app, { defaultVersionStatus: 'draft' });
    // A different file under the AppImage's name, already in the draft: its upload is refused (409).
    await storeRelease(app.core.store, applicationId, '1.4.0', { status: 'draft', files: [{ fileName: 'Bds Demo-1.4.0.AppImage', platform: 'linux', arch: 'x64' }] });
    const failure = await buildAndPublish(applicationId, '1.4.0').then(() => null, (error: Error) => error.message);
    expect(failure).to.match(/version 1\.4\.0 already has a MAIN file/);
    const [stored] = (await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions as { status: string }[];
    expect(stored).to.include({ status: 'draft' });
  });
});

/**
 * The part of app-builder-lib this test drives. It is installed by the test script on demand
 * (scripts/ensure-update-clients.sh), not by `npm install` (it brings electron-builder's 190 MB
 * helper binary), so it is loaded at run time and typed here by what the test calls.
 */
interface AppBuilderPackager {
  validateConfig(): Promise<void>;
  _appInfo: unknown;
  emitArtifactCreated(event: { file: string; arch: number; packager: null; target: null; publishConfig: unknown; safeArtifactName: string }): Promise<void>;
}
function appBuilderLib(): {
  Arch: { x64: number };
  Packager: new (options: { projectDir: string; config: { publish: unknown } }) => AppBuilderPackager;
  AppInfo: new (packager: AppBuilderPackager, version: null) => unknown;
  PublishManager: new (packager: AppBuilderPackager, options: { publish: 'always' }) => { awaitTasks(): Promise<void>; updateFileWriteTask: unknown[] };
} {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { Arch, Packager } = require('app-builder-lib');
  const { AppInfo } = require('app-builder-lib/out/appInfo');
  const { PublishManager } = require('app-builder-lib/out/publish/PublishManager');
  return { Arch, Packager, AppInfo, PublishManager };
}
