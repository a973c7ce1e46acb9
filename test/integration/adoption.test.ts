import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import IORedis from 'ioredis';
import { rollupChecks } from '../../shared/adoption/rollup-checks';
import { newEventId } from '../../shared/ids';
import { ALL, UNKNOWN_VERSION } from '../../shared/store/models';
import { readStoredChecks } from '../../shared/store/sqlite/check-windows';
import { electronUpdateClient } from '../support/electron-updater-client';
import { createAdminKey, createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { NodeProcess } from '../support/node-process';
import { pollUntil } from '../support/poll';
import { checkEvent } from '../support/records';
import { SquirrelMacClient } from '../support/squirrel-mac-client';
import { TauriUpdateClient } from '../support/tauri-update-client';
import { startSecondGateway, startTestApp, TestApp } from '../support/test-app';

const DAY = 86_400_000;
const utcDay = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10);
const today = () => utcDay(0);

/** Folds every check stored so far, as the worker's job does, batch after batch. */
async function foldAllChecks(app: TestApp, redis: IORedis, batch = 1_000): Promise<void> {
  while ((await rollupChecks(app.core.store, redis, app.config.redisPrefix, batch)) > 0);
}

describe('adoption analytics', function () {
  this.timeout(120_000);
  let app: TestApp;
  let redis: IORedis;

  before(async () => {
    app = await startTestApp({ workers: false });
    redis = new IORedis(app.config.redisUrl as string);
  });
  after(async () => {
    redis.disconnect();
    await app.close();
  });

  describe('checks of the native feeds (Squirrel.Windows, Velopack, Sparkle)', () => {
    it('records each answered check with the running version its client sent and the version offered', async function () {
      const customer = await createCustomer(app);
      const { applicationId } = await createApplication(app, { customerIds: [customer.customerId] });
      for (const version of ['1.0.0', '1.1.0']) {
        // A release is offered with its installer (MAIN); the package beside it is what the clients update from.
        await uploadSmallFile(app, { applicationId, version, fileName: 'Setup.exe', platform: 'windows', arch: 'x64' });
        await uploadSmallFile(app, { applicationId, version, content: randomBytes(1_000), fileName: `App-${version}-full.nupkg`, platform: 'windows', arch: 'x64' });
      }
      const feed = `${app.baseUrl}/v1/updates/${applicationId}`;
      const get = async (url: string, headers: Record<string, string> = {}) => {
        const response = await fetch(url, { headers: { Authorization: `Bearer ${customer.apiKey}`, ...headers } });
        expect(response.status, url).to.equal(200);
        return response.text();
      };
      expect(await get(`${feed}/squirrel-windows/RELEASES?id=App&localVersion=1.0.0&arch=amd64`)).to.include('App-1.1.0-full.nupkg');
      expect(JSON.parse(await get(`${feed}/velopack/releases.win.json?id=App&localVersion=1.0.0`)).Assets[0]).to.include({ Version: '1.1.0' });
      // Nothing signed for Sparkle: an appcast without items, still an answered check.
      expect(await get(`${feed}/sparkle/stable/appcast.xml`, { 'User-Agent': 'App/100 Sparkle/2.6.4' })).not.to.include('<item>');
      await pollUntil(async () => {
        await foldAllChecks(app, redis);
        const [all] = await app.core.store.adoption.listAdoptionCounts(applicationId, { channel: ALL, platform: ALL, arch: ALL, from: today(), to: today() });
        return all?.checks === 3 ? all : undefined;
      }, 20_000, 'the three checks counted');
      if (app.core.store.kind !== 'sqlite') this.skip();
      const db = new Database(path.join(app.config.dataDir, 'store.sqlite'), { readonly: true });
      try {
        const rows = readStoredChecks(db).filter((c) => c.application_id === applicationId);
        expect(rows.map((r) => [r.client, r.platform, r.channel, r.running_version, r.offered_version])).to.deep.equal([
          ['squirrel-windows', 'windows', 'stable', '1.0.0', '1.1.0'],
          ['velopack', 'windows', 'stable', '1.0.0', '1.1.0'],
          ['sparkle', 'macos', 'stable', '100', null],
        ]);
      } finally {
        db.close();
      }
    });
  });

  describe('checks of the real update clients', () => {
    let applicationId: string;
    const customers: { customerId: string; apiKey: string }[] = [];
    const feed = () => `${app.baseUrl}/v1/updates/${applicationId}`;

    before(async () => {
      for (let i = 0; i < 3; i += 1) customers.push(await createCustomer(app));
      customers.sort((a, b) => (a.customerId < b.customerId ? -1 : 1));
      ({ applicationId } = await createApplication(app, { customerIds: customers.map((c) => c.customerId) }));
      const upload = (version: string, fileName: string, platform: 'linux' | 'macos') =>
        uploadSmallFile(app, { applicationId, version, content: randomBytes(2_000), fileName, platform, arch: 'x64' });
      await upload('1.0.0', 'app_1.0.0_amd64.deb', 'linux');
      await upload('1.1.0', 'app_1.1.0_amd64.deb', 'linux');
      await upload('1.1.0', 'App-1.1.0-mac.zip', 'macos');

      const [first, second, third] = customers;
      // The first customer: two electron-updater installs (each its own staging id), each checking twice.
      for (let install = 0; install < 2; install += 1) {
        const client = await electronUpdateClient({ feedUrl: `${feed()}/electron`, version: '1.0.0', platform: 'linux', authorization: `Bearer ${first.apiKey}` });
        try {
          for (let check = 0; check < 2; check += 1) expect((await client.check())?.updateInfo.version).to.equal('1.1.0');
        } finally {
          await client.close();
        }
      }
      // The second: one Tauri install on 1.1.0, checking twice (no signed build: up to date).
      const tauri = new TauriUpdateClient({
        endpoint: `${feed()}/tauri/{{target}}/{{arch}}/{{current_version}}`, target: 'linux', arch: 'x86_64', currentVersion: '1.1.0',
        headers: { Authorization: `Bearer ${second.apiKey}` }, pubkey: 'unused: nothing is offered',
      });
      expect(await tauri.check()).to.equal(null);
      expect(await tauri.check()).to.equal(null);
      // The third: Squirrel.Mac on 1.0.0, offered 1.1.0's zip.
      const squirrel = new SquirrelMacClient(`${feed()}/squirrel-mac/1.0.0`, { Authorization: `Bearer ${third.apiKey}` });
      expect(await squirrel.check()).to.include({ name: '1.1.0' });
      // A check answers before its event is stored: fold until all seven are counted.
      await pollUntil(async () => {
        await foldAllChecks(app, redis);
        const [all] = await app.core.store.adoption.listAdoptionCounts(applicationId, { channel: ALL, platform: ALL, arch: ALL, from: today(), to: today() });
        return all?.checks === 7 ? all : undefined;
      }, 20_000, 'the seven checks counted');
    });

    it('records each check with what its client sent, and no address', async function () {
      // The raw events are read from the SQLite file (the MongoDB adapter's round trip is the store contract's).
      if (app.core.store.kind !== 'sqlite') this.skip();
      const db = new Database(path.join(app.config.dataDir, 'store.sqlite'), { readonly: true });
      try {
        const rows = readStoredChecks(db).filter((c) => c.application_id === applicationId);
        const brief = rows.map((r) => [r.customer_id, r.client, r.platform, r.arch, r.channel, r.running_version, r.offered_version]);
        const [first, second, third] = customers.map((c) => c.customerId);
        expect(brief).to.deep.equal([
          ...Array.from({ length: 4 }, () => [first, 'electron-updater', 'linux', 'x64', 'stable', UNKNOWN_VERSION, '1.1.0']),
          [second, 'tauri', 'linux', 'x64', 'stable', '1.1.0', null],
          [second, 'tauri', 'linux', 'x64', 'stable', '1.1.0', null],
          [third, 'squirrel-mac', 'macos', 'x64', 'stable', '1.0.0', '1.1.0'],
        ]);
        // electron-updater's staging id: one per install, sent with every check.
        const stagingIds = rows.slice(0, 4).map((r) => r.install_id as string);
        for (const id of stagingIds) expect(id).to.match(/^[0-9a-f-]{36}$/);
        expect(new Set(stagingIds).size).to.equal(2);
        expect(rows.slice(4).map((r) => r.install_id)).to.deep.equal([null, null, null]);
        expect(JSON.stringify(rows)).not.to.match(/127\.0\.0\.1|::1/);
        // Nor anywhere in the stored windows' bytes.
        for (const { body } of db.prepare('SELECT body FROM check_windows').all() as { body: Buffer }[]) expect(body.toString('latin1')).not.to.match(/127\.0\.0\.1|::1/);
      } finally {
        db.close();
      }
    });

    it('answers per day the checks, the active installs, installs per running version, on the latest release and behind it', async () => {
      const res = await app.http.get(`/v1/applications/${applicationId}/adoption?from=${utcDay(1)}&to=${today()}`);
      expect(res.status).to.equal(200);
      const { days, releases } = res.body.data;
      expect(days).to.deep.equal([
        { date: utcDay(1), checks: 0, activeInstalls: 0, byVersion: {}, onLatest: 0, outdated: 0, latest: {} },
        { date: today(), checks: 7, activeInstalls: 4, byVersion: { [UNKNOWN_VERSION]: 2, '1.0.0': 1, '1.1.0': 1 }, onLatest: 1, outdated: 1, latest: { stable: '1.1.0' } },
      ]);
      expect(releases.map((r: { version: string; daysTo50: number | null; daysTo90: number | null }) => [r.version, r.daysTo50, r.daysTo90]))
        .to.deep.equal([['1.1.0', null, null], ['1.0.0', 0, null]]);
    });

    it('answers for one platform, arch or channel from its own counters', async () => {
      const day = async (query: string) => (await app.http.get(`/v1/applications/${applicationId}/adoption?from=${today()}&to=${today()}&${query}`)).body.data.days[0];
      expect(await day('platform=linux')).to.deep.include({ checks: 6, activeInstalls: 3, byVersion: { [UNKNOWN_VERSION]: 2, '1.1.0': 1 } });
      expect(await day('platform=macos&arch=x64')).to.deep.include({ checks: 1, activeInstalls: 1, byVersion: { '1.0.0': 1 }, outdated: 1 });
      expect(await day('channel=beta')).to.deep.include({ checks: 0, activeInstalls: 0 });
      expect(await day('arch=arm64')).to.deep.include({ checks: 0 });
    });

    it('lists per customer the versions its installs last reported', async () => {
      const res = await app.http.get(`/v1/applications/${applicationId}/customers/adoption?pageSize=2`);
      expect(res.status).to.equal(200);
      const { customers: listed, pagination } = res.body.data;
      expect(pagination).to.deep.equal({ page: 1, pageSize: 2, total: 3, totalPages: 2 });
      expect(listed.map((c: { customerId: string; versions: { version: string }[] }) => [c.customerId, c.versions.map((v) => v.version)]))
        .to.deep.equal([[customers[0].customerId, [UNKNOWN_VERSION]], [customers[1].customerId, ['1.1.0']]]);
      const next = (await app.http.get(`/v1/applications/${applicationId}/customers/adoption?page=2&pageSize=2`)).body.data.customers;
      expect(next.map((c: { customerId: string }) => c.customerId)).to.deep.equal([customers[2].customerId]);
    });

    it('is refused to a key scoped to another application, as its statistics are', async () => {
      const other = await createApplication(app);
      const scoped = await createAdminKey(app, { scopes: ['read'], applicationIds: [other.applicationId] });
      const stats = await app.http.get(`/v1/applications/${applicationId}/stats`, { key: scoped.apiKey });
      expect(stats.status).to.be.oneOf([403, 404]);
      for (const path of ['adoption', 'customers/adoption']) {
        const res = await app.http.get(`/v1/applications/${applicationId}/${path}`, { key: scoped.apiKey });
        expect(res.status, path).to.equal(stats.status);
        expect(res.body.error.code, path).to.equal(stats.body.error.code);
      }
      expect((await app.http.get(`/v1/applications/${other.applicationId}/adoption`, { key: scoped.apiKey })).status).to.equal(200);
    });

    it('refuses a bad range or selection with 400, and an unknown application with 404', async () => {
      for (const query of ['from=2026-02-30', `from=${today()}&to=${utcDay(1)}`, 'from=2020-01-01&to=2026-01-01', 'platform=beos', 'arch=sparc', 'channel=nightly', 'x=1']) {
        const res = await app.http.get(`/v1/applications/${applicationId}/adoption?${query}`);
        expect(res.status, query).to.equal(400);
      }
      expect((await app.http.get('/v1/applications/never-created/adoption')).status).to.equal(404);
      expect((await app.http.get('/v1/applications/never-created/customers/adoption')).status).to.equal(404);
    });
  });

  describe('the latest release, per channel', () => {
    it('compares each install with what its own channel offers, yanked releases left out, and names that release', async () => {
      const { applicationId } = await createApplication(app);
      const release = async (version: string, channel: string) =>
        uploadSmallFile(app, { applicationId, version, content: randomBytes(500), fileName: `app_${version}_amd64.deb`, platform: 'linux', arch: 'x64', channel, status: 'published' });
      await release('1.0.0', 'stable');
      await release('2.0.0-beta.1', 'beta');
      await release('2.0.0-beta.2', 'beta');
      const yank = await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0-beta.2`, { status: 'yanked', yankReason: 'crashes at start' });
      expect(yank.status, JSON.stringify(yank.body)).to.equal(200);
      // Four stable installs on 1.0.0, two beta installs on beta.1 and one on 0.9.0.
      const installs: [string, string][] = [['stable', '1.0.0'], ['stable', '1.0.0'], ['stable', '1.0.0'], ['stable', '1.0.0'], ['beta', '2.0.0-beta.1'], ['beta', '2.0.0-beta.1'], ['beta', '0.9.0']];
      await app.core.store.adoption.insertCheckEvents(installs.map(([channel, runningVersion], i) => checkEvent(newEventId(new Date()), {
        applicationId, channel, runningVersion, installHash: `latest_install_${i}`, timestamp: new Date(),
      })));
      await pollUntil(async () => {
        await foldAllChecks(app, redis);
        const [all] = await app.core.store.adoption.listAdoptionCounts(applicationId, { channel: ALL, platform: ALL, arch: ALL, from: today(), to: today() });
        return all?.checks === installs.length ? all : undefined;
      }, 20_000, 'the checks counted');
      const day = async (query: string) => (await app.http.get(`/v1/applications/${applicationId}/adoption?from=${today()}&to=${today()}${query}`)).body.data.days[0];
      // Every stable install is on stable's latest (the newer beta is not stable's), beta's latest is beta.1 (beta.2 is yanked).
      expect(await day('')).to.deep.include({ activeInstalls: 7, onLatest: 6, outdated: 1, latest: { stable: '1.0.0', beta: '2.0.0-beta.1' } });
      expect(await day('&channel=stable')).to.deep.include({ activeInstalls: 4, onLatest: 4, outdated: 0, latest: { stable: '1.0.0' } });
      expect(await day('&channel=beta')).to.deep.include({ activeInstalls: 3, onLatest: 2, outdated: 1, latest: { beta: '2.0.0-beta.1' } });
      // A channel without checks that day still names its latest when asked for.
      expect(await day('&channel=rc')).to.deep.include({ activeInstalls: 0, onLatest: 0, latest: { rc: '1.0.0' } });
    });
  });

  describe('writing checks', () => {
    it('stores the checks a gateway answered last before it stops, without waiting out their window', async () => {
      const customer = await createCustomer(app);
      const { applicationId } = await createApplication(app, { customerIds: [customer.customerId] });
      const second = await startSecondGateway(app);
      try {
        const feed = `http://127.0.0.1:${second.gateway.gateway.port}/v1/updates/${applicationId}/tauri/linux/x86_64/1.0.0`;
        for (let i = 0; i < 3; i += 1) {
          const res = await fetch(feed, { headers: { Authorization: `Bearer ${customer.apiKey}` } });
          expect(res.status).to.equal(204);
        }
      } finally {
        await second.close();
      }
      // No polling: once the gateway has stopped, its checks are in the store.
      await foldAllChecks(app, redis);
      const [all] = await app.core.store.adoption.listAdoptionCounts(applicationId, { channel: ALL, platform: ALL, arch: ALL, from: today(), to: today() });
      expect(all?.checks).to.equal(3);
    });
  });

  describe('the rollup under SIGKILL', () => {
    it('leaves every count exact after a worker is killed mid-rollup and another finishes', async function () {
      // The MongoDB stand-in folds far slower than a real server: a bound for a hang, not a speed.
      this.timeout(300_000);
      const { applicationId } = await createApplication(app);
      const dayOf = (i: number) => new Date(`${utcDay(i % 3)}T12:00:00.000Z`);
      // 1,200 checks over three days: check i is on day i % 3, from install floor(i / 3) % 20 of that day; each install runs one version.
      const events = Array.from({ length: 1_200 }, (_, i) => checkEvent(newEventId(dayOf(i)), {
        applicationId, customerId: `cust_${i % 4}`, runningVersion: i % 2 === 0 ? '1.0.0' : '2.0.0',
        installHash: `install_${Math.floor(i / 3) % 20}`, timestamp: new Date(dayOf(i).getTime() + i),
      }));
      for (let i = 0; i < events.length; i += 500) await app.core.store.adoption.insertCheckEvents(events.slice(i, i + 500));

      const env: Record<string, string> = { DATA_DIR: app.config.dataDir, REDIS_URL: app.config.redisUrl as string, REDIS_PREFIX: app.config.redisPrefix, ROLLUP_BATCH: '40' };
      if (app.config.mongodbUri) env.MONGODB_URI = app.config.mongodbUri;
      const child = new NodeProcess('test/support/check-rollup-child.js', env);
      try {
        await child.waitForOutput(/folded [1-9]\d*\n(.|\n)*folded [1-9]/, 60_000);
        child.signal('SIGKILL');
        await child.exited;
      } finally {
        await child.kill();
      }
      await foldAllChecks(app, redis);

      const res = await app.http.get(`/v1/applications/${applicationId}/adoption?from=${utcDay(2)}&to=${today()}`);
      expect(res.status).to.equal(200);
      for (const day of res.body.data.days) {
        expect(day.checks, day.date).to.equal(400);
        // 20 distinct installs a day, half on each version (HyperLogLog is exact this small).
        expect(day.activeInstalls, day.date).to.equal(20);
        expect(day.byVersion, day.date).to.deep.equal({ '1.0.0': 10, '2.0.0': 10 });
      }
      const listed = (await app.http.get(`/v1/applications/${applicationId}/customers/adoption`)).body.data.customers;
      expect(listed.map((c: { customerId: string; versions: { version: string }[] }) => [c.customerId, c.versions.map((v) => v.version).sort()]))
        .to.deep.equal([['cust_0', ['1.0.0']], ['cust_1', ['2.0.0']], ['cust_2', ['1.0.0']], ['cust_3', ['2.0.0']]]);
    });
  });
});
