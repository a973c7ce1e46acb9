import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { CatalogCache } from '../../gateway/releases/catalog-cache';
import {
  FileRequest,
  LatestRelease,
  OfferedRelease,
  ReleaseCaller,
  ReleaseCatalog,
  ReleaseSelector,
} from '../../gateway/releases/release-catalog';
import { isPending } from '../../gateway/http/eventually';
import { invalidationChannel, InvalidationBus } from '../../shared/cache/invalidation-bus';
import { AppError } from '../../shared/errors';
import { createLogger } from '../../shared/logger';
import { createGatewayConnection, createSubscriberConnection, waitForReady } from '../../shared/redis/connections';
import { rolloutBucket } from '../../shared/releases/rollout';
import { releaseFileId, ReleaseSpec, storeRelease } from '../support/factories';
import { application } from '../support/records';
import { rejectionOf } from '../support/rejection';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The release catalogue on the real store and invalidation bus, with records written through the
 * store: which versions and files each customer is offered and granted, and that a change through the
 * bus on another gateway is seen by the very next question.
 */
describe('release catalogue', () => {
  let app: TestApp;
  const connections: Redis[] = [];
  const buses: InvalidationBus[] = [];
  let releases: ReleaseCatalog;
  let counter = 0;

  before(async () => {
    app = await startTestApp({ workers: false });
    ({ releases } = await gateway());
  });
  after(async () => {
    await Promise.all(buses.map((bus) => bus.close()));
    for (const connection of connections) connection.disconnect();
    await app.close();
  });

  /** One gateway's catalogue: its own bus on the app's channel, and its own caches. */
  async function gateway() {
    const publisher = createGatewayConnection(app.config.redisUrl as string);
    const subscriber = createSubscriberConnection(app.config.redisUrl as string);
    connections.push(publisher, subscriber);
    await Promise.all([waitForReady(publisher), waitForReady(subscriber)]);
    const bus = new InvalidationBus(publisher, subscriber, invalidationChannel(app.config.redisPrefix), createLogger('silent', 'test'));
    await bus.start();
    buses.push(bus);
    const cache = new CatalogCache(app.core.store, bus);
    return { catalog: cache, releases: new ReleaseCatalog(cache, app.config) };
  }

  const customer = (customerId: string, tier = 'standard'): ReleaseCaller => ({ customerId, tier });
  const alice = customer('alice');

  async function newApplication(customerIds = ['alice', 'bob', 'carol']): Promise<string> {
    const applicationId = `catalog-${(counter += 1)}`;
    await app.core.store.applications.createApplication(application(applicationId, { customerIds }));
    return applicationId;
  }

  const release = (applicationId: string, version: string, spec?: ReleaseSpec) => storeRelease(app.core.store, applicationId, version, spec);

  /** The catalogue answers at once, throwing its refusals, when it has the records: as a promise either way. */
  const settled = async <T>(ask: () => T | Promise<T>): Promise<T> => ask();
  const latest = (caller: ReleaseCaller, selector: ReleaseSelector) => settled(() => releases.latest(caller, selector));
  const listed = (caller: ReleaseCaller, selector: ReleaseSelector) => settled(() => releases.releases(caller, selector));
  const offered = async (caller: ReleaseCaller, selector: ReleaseSelector) => (await listed(caller, selector)).map(named);
  const grant = (caller: ReleaseCaller, request: FileRequest) => settled(() => releases.grant(caller, request));
  const named = (offer: OfferedRelease) => offer.version.version;
  const latestName = (found: LatestRelease) => (found.kind === 'none' ? null : found.release.version.version);
  async function refusal(caller: ReleaseCaller, request: FileRequest): Promise<AppError> {
    const error = await rejectionOf(grant(caller, request));
    expect(error).to.be.instanceOf(AppError);
    return error as AppError;
  }

  it('offers published versions newest first by the version order, never drafts or yanked ones', async () => {
    const applicationId = await newApplication();
    await release(applicationId, '1.10.0', { createdAt: 1 });
    await release(applicationId, '1.9.0', { createdAt: 2 });
    await release(applicationId, '2.0.0-rc.1', { createdAt: 3 });
    await release(applicationId, '2.0.0', { createdAt: 4, status: 'draft' });
    await release(applicationId, '1.11.0', { createdAt: 5, status: 'yanked' });
    await release(applicationId, 'nightly', { createdAt: 6 });

    expect(await offered(alice, { applicationId })).to.deep.equal(['2.0.0-rc.1', '1.10.0', '1.9.0', 'nightly']);
    const newest = await latest(alice, { applicationId });
    expect(newest.kind).to.equal('found');
    expect(latestName(newest)).to.equal('2.0.0-rc.1');
    const granted = await grant(alice, { applicationId, version: 'latest' });
    expect(granted.version.version).to.equal('2.0.0-rc.1');
    expect(granted.file.fileName).to.equal('2.0.0-rc.1-any-any-0.bin');
  });

  it('grants exact versions: drafts as absent (404), yanked ones 410, the rest as before', async () => {
    const applicationId = await newApplication();
    await release(applicationId, '1.0.0');
    await release(applicationId, '1.1.0', { status: 'yanked' });
    await release(applicationId, '1.2.0', { status: 'draft' });
    expect((await grant(alice, { applicationId, version: '1.0.0' })).file.fileId).to.equal(releaseFileId(applicationId, '1.0.0', 0));
    const yanked = await refusal(alice, { applicationId, version: '1.1.0' });
    expect([yanked.status, yanked.code]).to.deep.equal([410, 'GONE']);
    expect(yanked.message).to.equal('version 1.1.0 has been withdrawn');
    const yankedFile = await refusal(alice, { applicationId, version: '1.1.0', fileId: releaseFileId(applicationId, '1.1.0', 0) });
    expect(yankedFile.status).to.equal(410);
    for (const version of ['1.2.0', '9.9.9']) {
      const absent = await refusal(alice, { applicationId, version });
      expect([absent.status, absent.message], version).to.deep.equal([404, 'version not found']);
    }
  });

  it('cascades channels: a channel sees itself and every more stable one, the most stable by default', async () => {
    const applicationId = await newApplication();
    await release(applicationId, '1.0.0', { channel: 'stable' });
    await release(applicationId, '1.1.0-rc.1', { channel: 'rc' });
    await release(applicationId, '1.1.0-beta.2', { channel: 'beta' });
    await release(applicationId, '1.2.0-alpha.1', { channel: 'alpha' });
    await release(applicationId, '0.9.0-dev', { channel: 'dev' });

    expect(await offered(alice, { applicationId })).to.deep.equal(['1.0.0']);
    expect(await offered(alice, { applicationId, channel: 'stable' })).to.deep.equal(['1.0.0']);
    expect(await offered(alice, { applicationId, channel: 'beta' })).to.deep.equal(['1.1.0-rc.1', '1.1.0-beta.2', '1.0.0']);
    expect(await offered(alice, { applicationId, channel: 'dev' })).to.deep.equal(['1.2.0-alpha.1', '1.1.0-rc.1', '1.1.0-beta.2', '1.0.0', '0.9.0-dev']);
    expect(latestName(await latest(alice, { applicationId, channel: 'rc' }))).to.equal('1.1.0-rc.1');
    expect(latestName(await latest(alice, { applicationId, channel: 'alpha' }))).to.equal('1.2.0-alpha.1');
    // An exact version is granted whatever its channel.
    expect((await grant(alice, { applicationId, version: '1.2.0-alpha.1' })).version.channel).to.equal('alpha');
  });

  it('offers only versions at or below the customer\'s tier, and refuses an exact one above it with 403', async () => {
    const applicationId = await newApplication();
    await release(applicationId, '1.0.0');
    await release(applicationId, '2.0.0', { requiredTier: 'premium' });
    await release(applicationId, '3.0.0-beta.1', { requiredTier: 'enterprise', channel: 'beta' });

    expect(await offered(customer('alice', 'standard'), { applicationId, channel: 'beta' })).to.deep.equal(['1.0.0']);
    expect(await offered(customer('bob', 'premium'), { applicationId, channel: 'beta' })).to.deep.equal(['2.0.0', '1.0.0']);
    expect(await offered(customer('carol', 'enterprise'), { applicationId, channel: 'beta' })).to.deep.equal(['3.0.0-beta.1', '2.0.0', '1.0.0']);
    expect((await grant(customer('alice', 'standard'), { applicationId, version: 'latest' })).version.version).to.equal('1.0.0');
    const tier = await refusal(customer('alice', 'standard'), { applicationId, version: '2.0.0' });
    expect([tier.status, tier.message]).to.deep.equal([403, 'tier access required']);
  });

  it('offers a staged version as latest only inside its rollout; an exact request works for everyone', async () => {
    const applicationId = await newApplication([]);
    const version = '2.0.0';
    const percentage = 50;
    // Customers whose buckets for this version fall on either side of the percentage.
    const candidates = Array.from({ length: 100 }, (_, n) => `cust-${n}`);
    const inside = candidates.find((id) => rolloutBucket(id, applicationId, version) < percentage) as string;
    const outside = candidates.find((id) => rolloutBucket(id, applicationId, version) >= percentage) as string;
    await app.core.store.applications.updateApplication(applicationId, { customerIds: [inside, outside] }, new Date());
    await release(applicationId, '1.0.0');
    await release(applicationId, version, { rolloutPercentage: percentage });

    expect(latestName(await latest(customer(inside), { applicationId }))).to.equal(version);
    expect(latestName(await latest(customer(outside), { applicationId }))).to.equal('1.0.0');
    expect(await offered(customer(inside), { applicationId })).to.deep.equal([version, '1.0.0']);
    expect(await offered(customer(outside), { applicationId })).to.deep.equal(['1.0.0']);
    expect((await grant(customer(outside), { applicationId, version })).version.version).to.equal(version);
  });

  describe('platforms and architectures', () => {
    let applicationId: string;
    before(async () => {
      applicationId = await newApplication();
      await release(applicationId, '1.0.0', { files: [{ platform: 'linux', arch: 'arm64' }] });
      await release(applicationId, '2.0.0', {
        files: [
          { platform: 'windows', arch: 'x64', fileName: 'setup-x64.exe' },
          { platform: 'windows', arch: 'arm64', fileName: 'setup-arm64.exe' },
          { platform: 'macos', arch: 'universal', fileName: 'App.zip' },
          { platform: 'windows', arch: 'x64', fileType: 'SIGNATURE', fileName: 'setup-x64.exe.sig' },
          { platform: 'any', arch: 'any', fileType: 'DOCUMENTATION', fileName: 'manual.pdf' },
        ],
      });
    });

    it('resolves latest to the newest version with a matching MAIN file, the closest fit winning', async () => {
      const pick = async (selector: Omit<ReleaseSelector, 'applicationId'>) => {
        const granted = await grant(alice, { applicationId, version: 'latest', ...selector });
        return `${granted.version.version} ${granted.file.fileName}`;
      };
      expect(await pick({ platform: 'windows', arch: 'x64' })).to.equal('2.0.0 setup-x64.exe');
      expect(await pick({ platform: 'windows', arch: 'arm64' })).to.equal('2.0.0 setup-arm64.exe');
      expect(await pick({ platform: 'macos' })).to.equal('2.0.0 App.zip');
      expect(await pick({ platform: 'macos', arch: 'arm64' })).to.equal('2.0.0 App.zip');
      // 2.0.0 has nothing for Linux: the newest version that has is offered.
      expect(await pick({ platform: 'linux' })).to.equal('1.0.0 1.0.0-linux-arm64-0.bin');
      expect(await pick({ platform: 'linux', arch: 'arm64' })).to.equal('1.0.0 1.0.0-linux-arm64-0.bin');
      const none = await refusal(alice, { applicationId, version: 'latest', platform: 'linux', arch: 'x64' });
      expect([none.status, none.message]).to.deep.equal([404, `no version of ${applicationId} is available for channel stable, platform linux, arch x64`]);
    });

    it('answers several MAIN files and no selector that decides as ambiguous, 400 naming the choices', async () => {
      const found = await latest(alice, { applicationId, platform: 'windows' });
      expect(found.kind).to.equal('ambiguous');
      expect(found.kind === 'ambiguous' && found.choices.map((f) => f.fileName)).to.deep.equal(['setup-x64.exe', 'setup-arm64.exe']);
      const ambiguous = await refusal(alice, { applicationId, version: 'latest' });
      expect([ambiguous.status, ambiguous.code]).to.deep.equal([400, 'BAD_REQUEST']);
      expect(ambiguous.message).to.equal('version 2.0.0 has several MAIN files for this request; select one with platform and arch: '
        + 'windows/x64 (setup-x64.exe), windows/arm64 (setup-arm64.exe), macos/universal (App.zip)');
      expect(ambiguous.details).to.deep.equal([
        { field: 'platform', message: 'one of: windows, macos' },
        { field: 'arch', message: 'one of: x64, arm64, universal' },
      ]);
      const exact = await refusal(alice, { applicationId, version: '2.0.0', platform: 'windows' });
      expect(exact.details).to.deep.equal([{ field: 'arch', message: 'one of: x64, arm64' }]);
    });

    it('grants an exact version\'s MAIN file by the selectors, and any of its files by id', async () => {
      expect((await grant(alice, { applicationId, version: '2.0.0', platform: 'macos' })).file.fileName).to.equal('App.zip');
      expect((await grant(alice, { applicationId, version: '1.0.0' })).file.fileName).to.equal('1.0.0-linux-arm64-0.bin');
      const sig = releaseFileId(applicationId, '2.0.0', 3);
      expect((await grant(alice, { applicationId, version: '2.0.0', fileId: sig })).file.fileName).to.equal('setup-x64.exe.sig');
      const missing = await refusal(alice, { applicationId, version: '2.0.0', platform: 'linux' });
      expect([missing.status, missing.message]).to.deep.equal([404, 'version 2.0.0 has no MAIN file for platform linux']);
    });

    it('lists each offered version with its available files that match the selectors', async () => {
      const windows = await listed(alice, { applicationId, platform: 'windows', arch: 'x64' });
      expect(windows.map((r) => [r.version.version, r.files.map((f) => f.fileName)])).to.deep.equal([
        ['2.0.0', ['setup-x64.exe', 'setup-x64.exe.sig', 'manual.pdf']],
      ]);
      const all = await listed(alice, { applicationId });
      expect(all.map((r) => [r.version.version, r.files.length])).to.deep.equal([['2.0.0', 5], ['1.0.0', 1]]);
    });
  });

  it('refuses an application that is unknown, deleted or does not list the customer alike, with 404', async () => {
    const applicationId = await newApplication(['bob']);
    await release(applicationId, '1.0.0');
    const deleted = await newApplication();
    await release(deleted, '1.0.0');
    await app.core.store.applications.softDeleteApplication(deleted, new Date());
    for (const id of [applicationId, deleted, 'no-such-application']) {
      const refused = await refusal(alice, { applicationId: id, version: '1.0.0' });
      expect([refused.status, refused.message], id).to.deep.equal([404, `application ${id} not found`]);
      expect(await rejectionOf(listed(alice, { applicationId: id })), id).to.be.instanceOf(AppError);
      expect(await rejectionOf(latest(alice, { applicationId: id })), id).to.be.instanceOf(AppError);
    }
  });

  it('answers from process memory once cached, and sees a change made through another gateway at once', async () => {
    const applicationId = await newApplication();
    await release(applicationId, '1.0.0');
    expect(latestName(await latest(alice, { applicationId }))).to.equal('1.0.0');
    const cached = releases.latest(alice, { applicationId });
    expect(isPending(cached), 'answered without waiting').to.equal(false);

    const other = await gateway();
    await other.catalog.change(applicationId, () => release(applicationId, '1.1.0'));
    expect(latestName(await latest(alice, { applicationId }))).to.equal('1.1.0');
    await other.catalog.change(applicationId, () => app.core.store.versions.transitionVersion(applicationId, '1.1.0', 'yanked', new Date()));
    expect(latestName(await latest(alice, { applicationId }))).to.equal('1.0.0');
    expect((await refusal(alice, { applicationId, version: '1.1.0' })).status).to.equal(410);
    await other.catalog.change(applicationId, () => app.core.store.applications.updateApplication(applicationId, { customerIds: ['bob'] }, new Date()));
    expect((await refusal(alice, { applicationId, version: 'latest' })).status).to.equal(404);
  });
});
