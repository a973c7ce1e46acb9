import { expect } from 'chai';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import IORedis from 'ioredis';
import { rollupChecks } from '../../shared/adoption/rollup-checks';
import { newEventId } from '../../shared/ids';
import { ALL } from '../../shared/store/models';
import { createCustomer, uploadSmallFile } from '../support/factories';
import { CliUser, errorOf, eventsOf, jsonOf } from '../support/cli-process';
import { pollUntil } from '../support/poll';
import { checkEvent } from '../support/records';
import { startTestApp, TestApp } from '../support/test-app';

let counter = 0;
const uniqueId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;
const today = () => new Date().toISOString().slice(0, 10);

/** The CLI's management commands: what the console offers, from a terminal. */
describe('bds CLI: managing applications, versions, files and customers', function () {
  this.timeout(60_000);
  let app: TestApp;
  let admin: CliUser;

  before(async () => {
    app = await startTestApp({ workers: false });
    admin = new CliUser({ BDS_URL: app.baseUrl, BDS_API_KEY: app.adminKey });
  });
  after(async () => {
    admin?.remove();
    await app?.close();
  });

  const run = async (args: string[]) => {
    const result = await admin.run(args);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).to.equal(0);
    return result;
  };
  const write = (name: string, content: string | Buffer) => {
    const file = path.join(admin.home, name);
    fs.writeFileSync(file, content);
    return file;
  };
  const newApp = async () => {
    const applicationId = uniqueId('cli-manage');
    await run(['apps', 'create', applicationId, '--name', 'Managed App']);
    return applicationId;
  };

  it('customers and tokens take a maintenance window (--updates-until, --version-range; none clears), a range semver cannot read exits with the 422', async () => {
    const customerId = uniqueId('cli-window');
    const created = jsonOf<Record<string, unknown>>(await run(['customers', 'create', '--id', customerId, '--name', 'Windowed', '--tier', 'standard', '--version-range', '<3', '--json']));
    expect(created).to.include({ versionRange: '<3', updatesUntil: null });
    const updated = jsonOf<Record<string, unknown>>(await run(['customers', 'update', customerId, '--updates-until', '2027-01-01T00:00:00Z', '--version-range', '2.x', '--json']));
    expect(updated).to.include({ versionRange: '2.x', updatesUntil: '2027-01-01T00:00:00.000Z' });
    const refused = await admin.run(['customers', 'update', customerId, '--version-range', 'not-a-range', '--json']);
    expect(refused.code).to.not.equal(0);
    expect(errorOf(refused)).to.include({ code: 'INVALID_VERSION_RANGE', status: 422 });
    expect((await app.core.store.accounts.getCustomer(customerId))?.versionRange).to.equal('2.x');
    const cleared = jsonOf<Record<string, unknown>>(await run(['customers', 'update', customerId, '--updates-until', 'none', '--version-range', 'none', '--json']));
    expect(cleared).to.include({ versionRange: null, updatesUntil: null });

    const token = jsonOf<Record<string, unknown>>(await run(['tokens', 'create', customerId, '--version-range', '1.x', '--updates-until', '2026-06-01T00:00:00Z', '--json']));
    expect(token).to.include({ versionRange: '1.x', updatesUntil: '2026-06-01T00:00:00.000Z' });
    const changed = jsonOf<Record<string, unknown>>(await run(['tokens', 'update', customerId, token.tokenId as string, '--version-range', 'none', '--json']));
    expect(changed).to.include({ versionRange: null, updatesUntil: '2026-06-01T00:00:00.000Z' });
  });

  it('versions update --status yanked --rollback-to names the version installs are offered back; a later or unknown one exits with the 422', async () => {
    const applicationId = await newApp();
    for (const version of ['1.0.0', '1.1.0']) {
      await uploadSmallFile(app, { applicationId, version, fileName: `app-${version}.AppImage`, platform: 'linux', arch: 'x64', content: randomBytes(2_000) });
    }
    const refused = await admin.run(['versions', 'update', applicationId, '1.0.0', '--status', 'yanked', '--rollback-to', '1.1.0', '--json']);
    expect(errorOf(refused)).to.include({ code: 'INVALID_ROLLBACK_TARGET', status: 422 });
    const usage = await admin.run(['versions', 'update', applicationId, '1.1.0', '--rollback-to', '1.0.0']);
    expect(usage.code).to.not.equal(0);
    expect(usage.stderr).to.match(/--rollback-to goes with --status yanked/);
    const yanked = jsonOf<Record<string, unknown>>(await run(['versions', 'update', applicationId, '1.1.0', '--status', 'yanked', '--yank-reason', 'crashes', '--rollback-to', '1.0.0', '--json']));
    expect(yanked).to.include({ status: 'yanked', rollbackTo: '1.0.0' });
  });

  it('apps update: licence text from @file with its revision, branding, default version status, keys from @file; --no-… clears each', async () => {
    const applicationId = await newApp();
    const licence = write('licence.md', '# Terms\n\nUse it kindly.\n');
    // A real Ed25519 public key (not every 32 bytes are one).
    const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    const sparkleKey = Buffer.from(jwk.x as string, 'base64url').toString('base64');
    const keyFile = write('sparkle.pub', `${sparkleKey}\n`);
    const updated = jsonOf<Record<string, unknown>>(await run([
      'apps', 'update', applicationId, '--licence', `@${licence}`, '--display-name', 'Managed App Pro', '--accent-colour', '#336699',
      '--support-url', 'https://support.example.com/help', '--drafts', '--sparkle-public-key', `@${keyFile}`, '--json',
    ]));
    expect(updated).to.include({
      licenceText: '# Terms\n\nUse it kindly.\n', licenceRevision: 1, displayName: 'Managed App Pro', accentColour: '#336699',
      supportUrl: 'https://support.example.com/help', defaultVersionStatus: 'draft', sparklePublicKey: sparkleKey,
    });
    // The same text at a higher revision asks every customer again.
    expect(jsonOf(await run(['apps', 'update', applicationId, '--licence', 'Use it kindly, v2.', '--licence-revision', '5', '--json']))).to.include({ licenceRevision: 5 });
    const human = await run(['apps', 'update', applicationId, '--no-licence', '--no-display-name', '--no-accent-colour', '--no-support-url', '--no-sparkle-public-key']);
    expect(human.stdout).to.match(/^licenceText: *$/m);
    expect(jsonOf(await run(['apps', 'show', applicationId, '--json']))).to.include({
      licenceText: null, licenceRevision: null, displayName: null, accentColour: null, supportUrl: null, sparklePublicKey: null,
    });
    // Refused by the service (1) with the field named, or by the CLI (2) before anything is sent.
    const badColour = await admin.run(['apps', 'update', applicationId, '--accent-colour', 'blue', '--json']);
    expect(badColour.code).to.equal(1);
    expect(JSON.stringify(errorOf(badColour))).to.include('accentColour');
    expect((await admin.run(['apps', 'update', applicationId, '--licence-revision', '0', '--json'])).code).to.equal(2);
    expect((await admin.run(['apps', 'update', applicationId, '--licence', '@/nonexistent/licence.md', '--json'])).code).to.equal(2);
  });

  it('versions update --yank-reason sends the reason with the yank; versions delete removes a draft and refuses a shipped version', async () => {
    const applicationId = await newApp();
    await run(['upload', applicationId, '1.0.0', write('a.AppImage', randomBytes(2_000)), '--status', 'published']);
    await run(['upload', applicationId, '2.0.0', write('b.AppImage', randomBytes(2_000)), '--status', 'draft']);
    const yanked = jsonOf<{ status: string; yankReason: string }>(await run(['versions', 'update', applicationId, '1.0.0', '--status', 'yanked', '--yank-reason', 'crashes at start', '--json']));
    expect(yanked).to.include({ status: 'yanked', yankReason: 'crashes at start' });
    expect((await admin.run(['versions', 'update', applicationId, '1.0.0', '--yank-reason', 'alone', '--json'])).code, 'a reason without a yank').to.equal(2);

    const shipped = await admin.run(['versions', 'delete', applicationId, '1.0.0', '--json']);
    expect(shipped.code).to.equal(1);
    expect(errorOf(shipped)).to.include({ status: 409 });
    const deleted = jsonOf<{ version: string; deletedFileIds: string[] }>(await run(['versions', 'delete', applicationId, '2.0.0', '--json']));
    expect(deleted.version).to.equal('2.0.0');
    expect(deleted.deletedFileIds).to.have.length(1);
    const listed = jsonOf<{ versions: { version: string }[] }>(await run(['versions', 'list', applicationId, '--json']));
    expect(listed.versions.map((v) => v.version)).to.deep.equal(['1.0.0']);
  });

  it('versions update --rollout-plan sets a plan; versions rollout health shows it, stop ends it, resume refuses a plan that is not halted', async () => {
    const applicationId = await newApp();
    await run(['upload', applicationId, '1.0.0', write('plan.AppImage', randomBytes(2_000)), '--status', 'published']);
    const plan = '{"steps":[{"percentage":5,"after":"0h"},{"percentage":100,"after":"3d"}],"halt":{"minOffered":50,"minSuccessRate":0.9,"maxFailureReports":10}}';
    const set = jsonOf<{ rolloutPercentage: number }>(await run(['versions', 'update', applicationId, '1.0.0', '--rollout-plan', plan, '--json']));
    expect(set.rolloutPercentage).to.equal(5);
    expect((await admin.run(['versions', 'update', applicationId, '1.0.0', '--rollout-plan', '{not json', '--json'])).code, 'not JSON').to.equal(2);
    const health = jsonOf<{ figures: { offered: number }; rolloutPlan: { status: string; step: number } }>(await run(['versions', 'rollout', 'health', applicationId, '1.0.0', '--json']));
    expect(health.figures.offered).to.equal(0);
    expect(health.rolloutPlan).to.include({ status: 'running', step: 0 });
    const printed = await run(['versions', 'rollout', 'health', applicationId, '1.0.0']);
    expect(printed.stdout).to.include('offered 0').and.include('plan running at step 1 of 2');
    const resumed = await admin.run(['versions', 'rollout', 'resume', applicationId, '1.0.0', '--json']);
    expect(resumed.code).to.equal(1);
    expect(errorOf(resumed)).to.include({ status: 409 });
    const stopped = jsonOf<{ status: string }>(await run(['versions', 'rollout', 'stop', applicationId, '1.0.0', '--json']));
    expect(stopped.status).to.equal('stopped');
  });

  it("files delete takes the file's name (or its id) and removes a draft's file; a shipped version's file is refused", async () => {
    const applicationId = await newApp();
    await run(['upload', applicationId, '1.0.0', write('keep.AppImage', randomBytes(2_000)), '--status', 'draft']);
    await run(['upload', applicationId, '1.0.0', write('notes.txt', 'read me'), '--file-type', 'DOCUMENTATION']);
    const human = await run(['files', 'delete', applicationId, '1.0.0', 'notes.txt']);
    expect(human.stdout).to.include('file notes.txt of').and.include('deleted');
    const unknown = await admin.run(['files', 'delete', applicationId, '1.0.0', 'notes.txt', '--json']);
    expect(unknown.code).to.equal(2);
    expect(errorOf(unknown).message).to.include('keep.AppImage');
    await run(['versions', 'update', applicationId, '1.0.0', '--status', 'published']);
    const files = jsonOf<{ versions: { files: { fileId: string }[] }[] }>(await run(['versions', 'list', applicationId, '--json'])).versions[0].files;
    const refused = await admin.run(['files', 'delete', applicationId, '1.0.0', files[0].fileId, '--json']);
    expect(refused.code).to.equal(1);
    expect(errorOf(refused)).to.include({ status: 409 });
  });

  it('customers delete revokes its keys: the next request with one is refused', async () => {
    const customer = await createCustomer(app);
    const deleted = jsonOf<{ customerId: string; revokedKeys: number }>(await run(['customers', 'delete', customer.customerId, '--json']));
    expect(deleted).to.include({ customerId: customer.customerId, revokedKeys: 1 });
    const user = new CliUser({ BDS_URL: app.baseUrl, BDS_API_KEY: customer.apiKey });
    try {
      expect((await user.run(['releases', 'anything', '--json'])).code).to.equal(1);
    } finally {
      user.remove();
    }
    expect((await admin.run(['customers', 'show', customer.customerId, '--json'])).code).to.equal(1);
    expect((await admin.run(['customers', 'delete', customer.customerId, '--json'])).code).to.equal(1);
  });

  it('share create picks this machine\'s build like download, for an application with several platforms', async () => {
    const applicationId = await newApp();
    const customer = await createCustomer(app);
    await run(['customers', 'grant', customer.customerId, applicationId]);
    const host = ({ win32: 'windows', darwin: 'macos', linux: 'linux' } as Record<string, string>)[process.platform];
    for (const [name, platform] of [['app.AppImage', 'linux'], ['setup.exe', 'windows'], ['app.zip', 'macos']]) {
      await run(['upload', applicationId, '1.0.0', write(name, randomBytes(1_500)), '--platform', platform, '--arch', process.arch === 'arm64' ? 'arm64' : 'x64', '--status', 'published']);
    }
    const user = new CliUser({ BDS_URL: app.baseUrl, BDS_API_KEY: customer.apiKey });
    try {
      const files = jsonOf<{ versions: { files: { fileId: string; fileName: string }[] }[] }>(await run(['versions', 'list', applicationId, '--json'])).versions[0].files;
      const idOf = (name: string) => files.find((f) => f.fileName === name)?.fileId;
      const created = jsonOf<{ fileId: string; shareUrl: string }>(await user.run(['share', 'create', applicationId, '--json']));
      expect(created.fileId).to.equal(idOf({ linux: 'app.AppImage', windows: 'setup.exe', macos: 'app.zip' }[host] as string));
      const windows = jsonOf<{ fileId: string }>(await user.run(['share', 'create', applicationId, '--platform', 'windows', '--json']));
      expect(windows.fileId).to.equal(idOf('setup.exe'));
      expect((await user.run(['share', 'create', applicationId, '--file-id', 'file_x', '--platform', 'linux', '--json'])).code).to.equal(2);
    } finally {
      user.remove();
    }
  });

  it('upload of a macOS .dmg as MAIN with no .zip beside it says at once that update clients skip the version, and how to fix it', async () => {
    const applicationId = await newApp();
    const dmg = write('App-1.0.0-arm64.dmg', randomBytes(2_000));
    const human = await run(['upload', applicationId, '1.0.0', dmg, '--platform', 'macos', '--arch', 'arm64', '--status', 'draft']);
    expect(human.stderr).to.match(/update clients will skip 1\.0\.0: no \.zip for macos\/arm64/)
      .and.include(`bds upload ${applicationId} 1.0.0 <App.zip> --file-type UPDATE --platform macos --arch arm64`);
    // The warning comes before the upload's own lines.
    expect(human.stderr.indexOf('update clients will skip')).to.be.below(human.stderr.length);
    const json = await run(['upload', applicationId, '1.1.0', write('App-1.1.0.dmg', randomBytes(2_000)), '--platform', 'macos', '--status', 'draft', '--json']);
    const events = eventsOf(json);
    expect(events[0]).to.include({ event: 'warning' });
    expect(String(events[0].message)).to.include('no .zip for macos/x64');
    // With the zip there first, nothing to say.
    await run(['upload', applicationId, '2.0.0', write('App-2.0.0-mac.zip', randomBytes(2_000)), '--platform', 'macos', '--arch', 'x64', '--file-type', 'UPDATE', '--status', 'draft']);
    const quiet = await run(['upload', applicationId, '2.0.0', write('App-2.0.0.dmg', randomBytes(2_000)), '--platform', 'macos', '--arch', 'x64']);
    expect(quiet.stderr).not.to.include('update clients will skip');
  });

  describe('stats adoption', () => {
    let redis: IORedis;
    before(() => {
      redis = new IORedis(app.config.redisUrl as string);
    });
    after(() => redis.disconnect());

    it('takes --from, --to and --channel (the parent stats command has options of the same names) and names each channel\'s latest release', async () => {
      const applicationId = await newApp();
      await run(['upload', applicationId, '1.0.0', write('s.AppImage', randomBytes(1_000)), '--channel', 'stable', '--status', 'published']);
      await run(['upload', applicationId, '2.0.0-beta.1', write('b.AppImage', randomBytes(1_000)), '--channel', 'beta', '--status', 'published']);
      const installs: [string, string][] = [['stable', '1.0.0'], ['stable', '1.0.0'], ['stable', '0.9.0'], ['beta', '2.0.0-beta.1']];
      await app.core.store.adoption.insertCheckEvents(installs.map(([channel, runningVersion], i) => checkEvent(newEventId(new Date()), {
        applicationId, channel, runningVersion, installHash: `cli_install_${i}`, timestamp: new Date(),
      })));
      await pollUntil(async () => {
        while ((await rollupChecks(app.core.store, redis, app.config.redisPrefix, 1_000)) > 0);
        const [all] = await app.core.store.adoption.listAdoptionCounts(applicationId, { channel: ALL, platform: ALL, arch: ALL, from: today(), to: today() });
        return all?.checks === installs.length ? all : undefined;
      }, 20_000, 'the checks counted');
      type Days = { days: { date: string; activeInstalls: number; onLatest: number; latest: Record<string, string> }[] };
      const stable = jsonOf<Days>(await run(['stats', 'adoption', applicationId, '--from', today(), '--to', today(), '--channel', 'stable', '--json']));
      expect(stable.days).to.have.length(1);
      expect(stable.days[0]).to.deep.include({ activeInstalls: 3, onLatest: 2, latest: { stable: '1.0.0' } });
      const all = jsonOf<Days>(await run(['stats', 'adoption', applicationId, '--from', today(), '--json']));
      expect(all.days[0]).to.deep.include({ activeInstalls: 4, onLatest: 3, latest: { stable: '1.0.0', beta: '2.0.0-beta.1' } });
      const human = await run(['stats', 'adoption', applicationId, '--from', today(), '--to', today()]);
      expect(human.stdout).to.include('latest (per channel)').and.include('stable 1.0.0, beta 2.0.0-beta.1');
      // Refused as the API refuses it: the options reach it.
      expect((await admin.run(['stats', 'adoption', applicationId, '--channel', 'nightly', '--json'])).code).to.equal(1);
    });
  });
});
