import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { squirrelOutput } from '../support/build-outputs';
import { createApplication, createCustomer } from '../support/factories';
import { DIST_DIR } from '../support/node-process';
import { onDemandFile } from '../support/on-demand';
import { startTestApp, TestApp } from '../support/test-app';

/** Forge's ForgeMakeResult, as its make step hands it to the publishers. */
interface MakeResult { artifacts: string[]; packageJSON: { name: string; productName: string; version: string }; platform: string; arch: string }

interface ForgePublisher {
  readonly name: string;
  readonly platforms: string[];
  publish(options: { dir: string; makeResults: MakeResult[]; forgeConfig: object; setStatusLine(line: string): void }): Promise<void>;
}

/**
 * The forge publisher (`cli/publish/forge-publisher.ts`) as electron-forge's publish step calls it:
 * an instance of a class derived from the real `@electron-forge/publisher-base` (installed on
 * demand), constructed with the configuration a forge config gives, its `publish` handed the make
 * results of several makers (files laid out as they write them under out/make) at once.
 */
describe('electron-forge publisher', function () {
  this.timeout(120_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    delete process.env.BDS_API_KEY;
    await app?.close();
  });

  /* eslint-disable @typescript-eslint/no-require-imports */
  const publisherBase = () => require(onDemandFile('@electron-forge/publisher-base')) as { PublisherBase: new (...args: unknown[]) => object };
  const forgePublisher = () => require(path.join(DIST_DIR, 'cli', 'publish', 'forge-publisher.js')).default as new (config: object, platforms?: string[]) => ForgePublisher;
  /* eslint-enable @typescript-eslint/no-require-imports */

  /** out/make after `electron-forge make` with maker-squirrel, maker-zip (darwin), maker-dmg, maker-deb and maker-rpm. */
  async function forgeMake(version: string, options: { withoutZip?: boolean } = {}) {
    const squirrel = await squirrelOutput(version);
    const makeDir = path.resolve(squirrel.directory, '..', '..');
    const packageJSON = { name: 'myapp', productName: 'MyApp', version };
    const artifact = (relative: string) => {
      const file = path.join(makeDir, relative);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, randomBytes(24 * 1024));
      return file;
    };
    const makeResults: MakeResult[] = [
      { artifacts: fs.readdirSync(squirrel.directory).map((name) => path.join(squirrel.directory, name)), packageJSON, platform: 'win32', arch: 'x64' },
      { artifacts: [artifact(`MyApp-${version}-arm64.dmg`)], packageJSON, platform: 'darwin', arch: 'arm64' },
      { artifacts: [artifact(`deb/x64/myapp_${version}_amd64.deb`)], packageJSON, platform: 'linux', arch: 'x64' },
      { artifacts: [artifact(`rpm/x64/myapp-${version}-1.x86_64.rpm`)], packageJSON, platform: 'linux', arch: 'x64' },
    ];
    if (!options.withoutZip) makeResults.push({ artifacts: [artifact(`zip/darwin/arm64/MyApp-darwin-arm64-${version}.zip`)], packageJSON, platform: 'darwin', arch: 'arm64' });
    return { makeDir, makeResults, squirrel };
  }

  const versionsOf = async (applicationId: string) => (await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions as { version: string; status: string; files: { fileName: string; fileType: string; platform: string; arch: string; status: string }[] }[];

  it('is a forge publisher: derived from the real PublisherBase, which forge recognises', () => {
    const Publisher = forgePublisher();
    const publisher = new Publisher({ url: app.baseUrl, applicationId: 'any' }) as ForgePublisher & { __isElectronForgePublisher?: boolean };
    expect(publisher).to.be.instanceOf(publisherBase().PublisherBase);
    expect(publisher.__isElectronForgePublisher).to.equal(true);
    expect(publisher.name).to.equal('bds');
    expect(publisher.platforms).to.include.members(['win32', 'darwin', 'linux']);
  });

  it('publishes every maker\'s artifacts with their targets in one version, published in one change, and Squirrel\'s RELEASES lists the package', async () => {
    const { applicationId } = await createApplication(app, { defaultVersionStatus: 'draft' });
    const customer = await createCustomer(app);
    await app.http.patch(`/v1/management/applications/${applicationId}`, { customerIds: [customer.customerId] });
    const { makeDir, makeResults, squirrel } = await forgeMake('1.2.0');
    process.env.BDS_API_KEY = app.adminKey;
    const Publisher = forgePublisher();
    const publisher = new Publisher({ url: app.baseUrl, applicationId, channel: 'stable', status: 'published' });
    const lines: string[] = [];
    await publisher.publish({ dir: path.dirname(path.dirname(makeDir)), makeResults, forgeConfig: {}, setStatusLine: (line) => lines.push(line) });

    const [stored] = await versionsOf(applicationId);
    expect(stored).to.include({ version: '1.2.0', status: 'published' });
    expect(stored.files.map(({ fileName, fileType, platform, arch, status }) => [fileName, fileType, platform, arch, status])).to.have.deep.members([
      ['MyApp-1.2.0-full.nupkg', 'UPDATE', 'windows', 'x64', 'available'],
      ['MyApp-1.2.0-delta.nupkg', 'UPDATE', 'windows', 'x64', 'available'],
      ['MyApp-1.2.0 Setup.exe', 'MAIN', 'windows', 'x64', 'available'],
      ['MyApp-setup.msi', 'OTHER', 'windows', 'x64', 'available'],
      ['MyApp-1.2.0-arm64.dmg', 'MAIN', 'macos', 'arm64', 'available'],
      ['MyApp-darwin-arm64-1.2.0.zip', 'UPDATE', 'macos', 'arm64', 'available'],
      ['myapp_1.2.0_amd64.deb', 'MAIN', 'linux', 'x64', 'available'],
      ['myapp-1.2.0-1.x86_64.rpm', 'OTHER', 'linux', 'x64', 'available'],
    ]);
    expect(lines).to.deep.equal([`planning ${applicationId} 1.2.0 from 9 artifacts`, `sending 8 files to ${applicationId} 1.2.0`]);

    const releases = await (await fetch(`${app.baseUrl}/v1/updates/${applicationId}/squirrel-windows/RELEASES?arch=amd64`, { headers: { authorization: `Bearer ${customer.apiKey}` } })).text();
    const line = releases.split('\n').find((entry) => entry.includes('MyApp-1.2.0-full.nupkg'));
    expect(line?.split(/\s+/)[0].toLowerCase()).to.equal(createHash('sha1').update(squirrel.bytes.get('MyApp-1.2.0-full.nupkg')!).digest('hex'));

    // Published again (a rerun of the publish step): nothing changes.
    await publisher.publish({ dir: makeDir, makeResults, forgeConfig: {}, setStatusLine: () => undefined });
    expect((await versionsOf(applicationId))[0].files).to.have.length(8);
  });

  it('refuses a mac build without its zip before sending a byte, naming the file and the maker to add', async () => {
    const { applicationId } = await createApplication(app);
    const { makeResults } = await forgeMake('2.0.0', { withoutZip: true });
    process.env.BDS_API_KEY = app.adminKey;
    const publisher = new (forgePublisher())({ url: app.baseUrl, applicationId });
    let refusal: Error | undefined;
    try {
      await publisher.publish({ dir: '.', makeResults, forgeConfig: {}, setStatusLine: () => undefined });
    } catch (error) {
      refusal = error as Error;
    }
    expect(refusal?.message).to.match(/nothing was sent; one problem:\n {2}- MyApp-2\.0\.0-arm64\.dmg: a macOS build with no \.zip for update clients .*: add @electron-forge\/maker-zip for darwin to the makers and make again/);
    expect(await versionsOf(applicationId)).to.deep.equal([]);
  });

  it('refuses make results of two versions, and a missing key, before sending a byte', async () => {
    const { applicationId } = await createApplication(app);
    const first = await forgeMake('3.0.0');
    const second = await forgeMake('3.1.0');
    process.env.BDS_API_KEY = app.adminKey;
    const publisher = new (forgePublisher())({ url: app.baseUrl, applicationId });
    const failureOf = (promise: Promise<void>) => promise.then(() => null, (error: Error) => error.message);
    expect(await failureOf(publisher.publish({ dir: '.', makeResults: [...first.makeResults, ...second.makeResults.slice(1, 2)], forgeConfig: {}, setStatusLine: () => undefined })))
      .to.match(/the make results name versions 3\.0\.0, 3\.1\.0: publish one version's make output at a time/);
    delete process.env.BDS_API_KEY;
    expect(await failureOf(publisher.publish({ dir: '.', makeResults: first.makeResults, forgeConfig: {}, setStatusLine: () => undefined })))
      .to.equal('the bds forge publisher: set BDS_API_KEY to a publish-scoped admin key');
    expect(await versionsOf(applicationId)).to.deep.equal([]);
  });
});
