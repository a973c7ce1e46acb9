import { expect } from 'chai';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { newEventId } from '../../shared/ids';
import type { DistributionEvent } from '../../shared/store/models';
import { createApplication, createCustomer, storeRelease, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { NodeProcess } from '../support/node-process';
import { downloadEvent } from '../support/records';
import { startTestApp, TestApp } from '../support/test-app';

const DAY = 24 * 3_600_000;

function pastEvent(applicationId: string, version: string, at: Date, type: 'download' | 'upload' = 'download'): DistributionEvent {
  return downloadEvent(newEventId(at), { type, applicationId, version, timestamp: at, customerId: type === 'download' ? 'cust-stats' : null });
}

const utcDay = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10);
const atNoon = (daysAgo: number) => new Date(`${utcDay(daysAgo)}T12:00:00.000Z`);

/** The first `limit` of these customers in id order, one download each. */
const onceEach = (customerIds: string[], limit: number) =>
  [...customerIds].sort().slice(0, limit).map((customerId) => ({ customerId, downloads: 1 }));

async function foldAll(app: TestApp): Promise<void> {
  while ((await app.core.store.activity.rollupEvents(1_000)) > 0);
}

describe('statistics and activity', () => {
  describe('GET /v1/applications/:applicationId/stats', () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp();
    });
    after(() => app.close());

    it('counts concurrent downloads exactly, per version and per UTC day, newest day first', async function () {
      this.timeout(60_000);
      // One customer each: a customer's repeated downloads of a file count once.
      const customers: Array<{ customerId: string; apiKey: string }> = [];
      for (let i = 0; i < 40; i += 1) customers.push(await createCustomer(app));
      const { applicationId } = await createApplication(app, { customerIds: customers.map((c) => c.customerId) });
      await uploadSmallFile(app, { applicationId, version: '1.0' });
      await uploadSmallFile(app, { applicationId, version: '2.0' });
      await app.core.store.activity.insertEvents([
        ...Array.from({ length: 7 }, (_, i) => pastEvent(applicationId, '1.0', new Date(atNoon(2).getTime() + i))),
        ...Array.from({ length: 3 }, () => pastEvent(applicationId, '2.0', atNoon(1))),
        pastEvent(applicationId, '1.0', atNoon(1), 'upload'),
      ]);
      const requests = Array.from({ length: 40 }, (_, i) =>
        app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=${i % 4 === 0 ? '2.0' : '1.0'}`, { key: customers[i].apiKey }));
      const statuses = (await Promise.all(requests)).map((r) => r.status);
      expect(statuses.every((s) => s === 200)).to.equal(true);

      const stats = await pollUntil(async () => {
        const res = await app.http.get(`/v1/applications/${applicationId}/stats`);
        return res.body.data.totalDownloads === 50 ? res.body.data : undefined;
      }, 10_000, 'rollup');
      expect(stats).to.deep.equal({
        applicationId,
        totalDownloads: 50,
        downloadsByVersion: { '1.0': 37, '2.0': 13 },
        downloadsByPlatform: { any: 50 },
        downloadsByChannel: { stable: 50 },
        downloadsByArch: { any: 50 },
        // At most STATISTICS_TOP_CUSTOMERS: the one with ten downloads, then ties by customer id.
        topCustomers: [{ customerId: 'cust-stats', downloads: 10 }, ...onceEach(customers.map((c) => c.customerId), 9)],
        downloadsByDay: [
          { date: utcDay(0), count: 40 },
          { date: utcDay(1), count: 3 },
          { date: utcDay(2), count: 7 },
        ],
      });
      // Nothing more arrives once everything is folded.
      await pollUntil(async () => ((await app.core.store.activity.oldestUncountedEventAt()) === null ? true : undefined), 10_000, 'every event counted');
      expect((await app.http.get(`/v1/applications/${applicationId}/stats`)).body.data.totalDownloads).to.equal(50);

      const v2 = (await app.http.get(`/v1/applications/${applicationId}/stats?version=2.0`)).body.data;
      expect(v2).to.deep.equal({
        applicationId,
        totalDownloads: 13,
        downloadsByVersion: { '2.0': 13 },
        downloadsByPlatform: { any: 13 },
        downloadsByChannel: { stable: 13 },
        downloadsByArch: { any: 13 },
        topCustomers: [{ customerId: 'cust-stats', downloads: 3 }, ...onceEach(customers.filter((_, i) => i % 4 === 0).map((c) => c.customerId), 9)],
        downloadsByDay: [{ date: utcDay(0), count: 10 }, { date: utcDay(1), count: 3 }],
      });
      const window = (await app.http.get(`/v1/applications/${applicationId}/stats?from=${utcDay(2)}&to=${utcDay(1)}`)).body.data;
      expect(window.totalDownloads).to.equal(10);
      expect(window.downloadsByDay).to.deep.equal([{ date: utcDay(1), count: 3 }, { date: utcDay(2), count: 7 }]);
    });

    it('counts downloads per platform, restricts to the versions now in a channel, and names platform and arch in the activity', async () => {
      // A customer's repeated downloads of a file count once: each time is another customer's.
      const customers: Array<{ customerId: string; apiKey: string }> = [];
      for (let i = 0; i < 4; i += 1) customers.push(await createCustomer(app));
      const { applicationId } = await createApplication(app, { customerIds: customers.map((c) => c.customerId) });
      await storeRelease(app.core.store, applicationId, '1.0.0', { files: [{ platform: 'windows', arch: 'x64' }, { platform: 'macos', arch: 'universal' }] });
      await storeRelease(app.core.store, applicationId, '1.1.0-beta.1', { channel: 'beta', files: [{ platform: 'linux', arch: 'arm64' }] });
      const download = async (query: string, times: number) => {
        for (let i = 0; i < times; i += 1) {
          const res = await app.http.get(`/v1/downloads/url?applicationId=${applicationId}&${query}`, { key: customers[i].apiKey });
          expect(res.status, query).to.equal(200);
        }
      };
      await download('version=latest&platform=windows', 3);
      await download('version=latest&platform=macos&arch=arm64', 2);
      await download('version=latest&channel=beta&platform=linux', 4);
      const stats = async (query = '') => (await app.http.get(`/v1/applications/${applicationId}/stats${query}`)).body.data;
      await pollUntil(async () => ((await stats()).totalDownloads === 9 ? true : undefined), 10_000, 'rollup');

      expect(await stats()).to.deep.include({
        totalDownloads: 9,
        downloadsByVersion: { '1.0.0': 5, '1.1.0-beta.1': 4 },
        downloadsByPlatform: { windows: 3, macos: 2, linux: 4 },
        downloadsByChannel: { stable: 5, beta: 4 },
      });
      expect(await stats('?channel=beta')).to.deep.include({ totalDownloads: 4, downloadsByVersion: { '1.1.0-beta.1': 4 }, downloadsByPlatform: { linux: 4 } });
      expect(await stats('?channel=stable')).to.deep.include({ totalDownloads: 5, downloadsByPlatform: { windows: 3, macos: 2 } });
      expect((await stats('?channel=rc')).totalDownloads).to.equal(0);
      // A version's downloads move with it to its new channel.
      await app.http.patch(`/v1/management/applications/${applicationId}/versions/1.1.0-beta.1`, { channel: 'stable' });
      expect((await stats('?channel=stable')).totalDownloads).to.equal(9);
      expect((await stats('?channel=beta')).totalDownloads).to.equal(0);
      expect((await stats()).downloadsByChannel).to.deep.equal({ stable: 9 });

      const activity = (await app.http.get(`/v1/activity?applicationId=${applicationId}&type=download&limit=100`)).body.data.activities;
      expect(activity.map((a: { platform: string; arch: string }) => `${a.platform}/${a.arch}`).sort()).to.deep.equal([
        ...Array(4).fill('linux/arm64'), ...Array(2).fill('macos/universal'), ...Array(3).fill('windows/x64'),
      ]);
    });

    it('counts downloads per arch and names the customers with most downloads, for the period asked', async () => {
      const customers: Array<{ customerId: string; apiKey: string }> = [];
      for (let i = 0; i < 3; i += 1) customers.push(await createCustomer(app));
      const { applicationId } = await createApplication(app, { customerIds: customers.map((c) => c.customerId) });
      const bothArchs = [{ platform: 'windows', arch: 'x64' }, { platform: 'windows', arch: 'arm64' }] as const;
      await storeRelease(app.core.store, applicationId, '1.0.0', { files: [...bothArchs] });
      await storeRelease(app.core.store, applicationId, '1.1.0', { files: [...bothArchs] });
      const download = async (customer: number, version: string, arch: string) => {
        const res = await app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=${version}&platform=windows&arch=${arch}`, { key: customers[customer].apiKey });
        expect(res.status, `${customer} ${version} ${arch}`).to.equal(200);
      };
      // The first customer downloads all four files, the second both archs of one version, the third one file.
      for (const version of ['1.0.0', '1.1.0']) for (const arch of ['x64', 'arm64']) await download(0, version, arch);
      await download(1, '1.1.0', 'x64');
      await download(1, '1.1.0', 'arm64');
      await download(2, '1.0.0', 'x64');
      // A download from another period: in the totals, not in today's.
      await app.core.store.activity.insertEvents([downloadEvent(newEventId(atNoon(3)), {
        applicationId, version: '1.0.0', customerId: customers[2].customerId, platform: 'windows', arch: 'arm64', timestamp: atNoon(3),
      })]);
      const stats = async (query = '') => (await app.http.get(`/v1/applications/${applicationId}/stats${query}`)).body.data;
      await pollUntil(async () => ((await stats()).totalDownloads === 8 ? true : undefined), 10_000, 'rollup');

      expect(await stats()).to.deep.include({
        downloadsByArch: { x64: 4, arm64: 4 },
        topCustomers: [
          { customerId: customers[0].customerId, downloads: 4 },
          ...[customers[1].customerId, customers[2].customerId].sort().map((customerId) => ({ customerId, downloads: 2 })),
        ],
      });
      expect(await stats(`?from=${utcDay(0)}`)).to.deep.include({
        totalDownloads: 7,
        downloadsByArch: { x64: 4, arm64: 3 },
        topCustomers: [
          { customerId: customers[0].customerId, downloads: 4 },
          { customerId: customers[1].customerId, downloads: 2 },
          { customerId: customers[2].customerId, downloads: 1 },
        ],
      });
      expect(await stats('?version=1.0.0')).to.deep.include({
        downloadsByArch: { x64: 2, arm64: 2 },
        topCustomers: [customers[0].customerId, customers[2].customerId].sort().map((customerId) => ({ customerId, downloads: 2 })),
      });
    });

    it('keeps the statistics of a soft-deleted application; unknown applications are 404', async () => {
      const { applicationId } = await createApplication(app);
      await app.core.store.activity.insertEvents([pastEvent(applicationId, '1', atNoon(3))]);
      await foldAll(app);
      await app.http.delete(`/v1/management/applications/${applicationId}`);
      const res = await app.http.get(`/v1/applications/${applicationId}/stats`);
      expect(res.status).to.equal(200);
      expect(res.body.data.totalDownloads).to.equal(1);
      expect((await app.http.get('/v1/applications/never-created/stats')).status).to.equal(404);
      const empty = await createApplication(app);
      expect((await app.http.get(`/v1/applications/${empty.applicationId}/stats`)).body.data).to.deep.equal({
        applicationId: empty.applicationId, totalDownloads: 0, downloadsByVersion: {}, downloadsByPlatform: {}, downloadsByChannel: {}, downloadsByArch: {}, topCustomers: [], downloadsByDay: [],
      });
    });

    it('validates the filters', async () => {
      const { applicationId } = await createApplication(app);
      for (const query of ['from=2024-02-30', 'to=yesterday', 'from=2024-05-02&to=2024-05-01', 'version=', 'colour=red', 'channel=nightly', 'channel=', 'channel=beta&channel=rc']) {
        const res = await app.http.get(`/v1/applications/${applicationId}/stats?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
    });

    it('a duplicated rollup job changes nothing', async () => {
      const { applicationId } = await createApplication(app);
      await app.core.store.activity.insertEvents(Array.from({ length: 30 }, (_, i) => pastEvent(applicationId, '1', new Date(atNoon(1).getTime() + i))));
      const connection = new IORedis(app.config.redisUrl as string, { maxRetriesPerRequest: null });
      const queue = new Queue('statistics', { connection, prefix: app.config.redisPrefix });
      try {
        await Promise.all([queue.add('rollup-events', {}), queue.add('rollup-events', {}), queue.add('rollup-events', {})]);
        await pollUntil(async () => {
          const counts = await queue.getJobCounts('waiting', 'active');
          return counts.waiting + counts.active === 0 ? true : undefined;
        }, 10_000, 'the rollup jobs to finish');
        await foldAll(app);
        expect(await app.core.store.activity.rollupEvents(1_000)).to.equal(0);
        expect((await app.http.get(`/v1/applications/${applicationId}/stats`)).body.data.totalDownloads).to.equal(30);
      } finally {
        await queue.close();
        connection.disconnect();
      }
    });
  });

  describe('rollup killed mid-batch', () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ workers: false });
    });
    after(() => app.close());

    it('leaves totals exact after SIGKILL and a restart', async function () {
      // The MongoDB stand-in folds far slower than a real server: a bound for a hang, not a speed.
      this.timeout(300_000);
      const { applicationId } = await createApplication(app);
      const versions = ['1', '2', '3'];
      const events = Array.from({ length: 3_000 }, (_, i) => pastEvent(applicationId, versions[i % 3], new Date(atNoon(i % 4).getTime() + i)));
      for (let i = 0; i < events.length; i += 500) await app.core.store.activity.insertEvents(events.slice(i, i + 500));

      const env: Record<string, string> = { DATA_DIR: app.config.dataDir, ROLLUP_BATCH: '40' };
      if (app.config.mongodbUri) env.MONGODB_URI = app.config.mongodbUri;
      const child = new NodeProcess('test/support/rollup-child.js', env);
      try {
        await child.waitForOutput(/folded [1-9]\d*\n(.|\n)*folded [1-9]/, 60_000);
        child.signal('SIGKILL');
        await child.exited;
      } finally {
        await child.kill();
      }
      await foldAll(app);
      const stats = (await app.http.get(`/v1/applications/${applicationId}/stats`)).body.data;
      expect(stats.totalDownloads).to.equal(3_000);
      expect(stats.downloadsByVersion).to.deep.equal({ 1: 1_000, 2: 1_000, 3: 1_000 });
      expect(stats.downloadsByDay.map((d: { count: number }) => d.count)).to.deep.equal([750, 750, 750, 750]);
      expect(stats.downloadsByArch).to.deep.equal({ any: 3_000 });
      expect(stats.topCustomers).to.deep.equal([{ customerId: 'cust-stats', downloads: 3_000 }]);
    });
  });

  describe('GET /v1/activity', () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ workers: false });
    });
    after(() => app.close());

    it('pages through 250 events newest first, each exactly once, while new events arrive', async function () {
      this.timeout(60_000);
      const { applicationId } = await createApplication(app);
      const base = Date.now() - 10 * 60_000;
      // Every three events share a timestamp, so ties are ordered by event id.
      const events = Array.from({ length: 250 }, (_, i) => pastEvent(applicationId, `v${i % 5}`, new Date(base + Math.floor(i / 3) * 1000), i % 7 === 0 ? 'upload' : 'download'));
      await app.core.store.activity.insertEvents(events);
      const expected = [...events]
        .sort((a, b) => b.timestamp.getTime() - a.timestamp.getTime() || (a.eventId < b.eventId ? 1 : -1))
        .map((e) => e.eventId);

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `applicationId=${applicationId}&limit=20${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await app.http.get(`/v1/activity?${query}`);
        expect(res.status).to.equal(200);
        const { activities, pagination } = res.body.data;
        if (pages === 0) {
          expect(activities[0]).to.have.keys('eventId', 'type', 'applicationId', 'version', 'fileId', 'customerId', 'clientIp', 'userAgent', 'platform', 'arch', 'timestamp');
        }
        seen.push(...activities.map((a: { eventId: string }) => a.eventId));
        cursor = pagination.nextCursor;
        expect(pagination.hasMore).to.equal(cursor !== null);
        pages += 1;
        // Newer events arrive between pages; they belong before the first page, not in the rest.
        await app.core.store.activity.insertEvents([pastEvent(applicationId, 'new', new Date())]);
      } while (cursor && pages < 100);
      expect(pages).to.equal(13);
      expect(seen).to.deep.equal(expected);
    });

    it('filters by type and application and bounds the limit', async () => {
      const { applicationId } = await createApplication(app);
      await app.core.store.activity.insertEvents([pastEvent(applicationId, '1', atNoon(1), 'upload'), pastEvent(applicationId, '1', atNoon(0))]);
      const uploads = (await app.http.get(`/v1/activity?type=upload&applicationId=${applicationId}`)).body.data;
      expect(uploads.activities.map((a: { type: string }) => a.type)).to.deep.equal(['upload']);
      expect(uploads.pagination).to.deep.equal({ hasMore: false, nextCursor: null });
      const latest = (await app.http.get('/v1/activity?limit=1')).body.data;
      expect(latest.activities).to.have.length(1);
      expect(latest.pagination.hasMore).to.equal(true);
      const byDefault = (await app.http.get('/v1/activity')).body.data;
      expect(byDefault.activities.length).to.be.at.most(20);
      for (const query of ['type=delete', 'limit=0', 'limit=101', 'limit=ten', 'applicationId=Bad_Id', 'since=yesterday']) {
        expect((await app.http.get(`/v1/activity?${query}`)).status, query).to.equal(400);
      }
    });

    it('refuses malformed and foreign cursors with 400', async () => {
      const { applicationId } = await createApplication(app);
      await app.core.store.activity.insertEvents([pastEvent(applicationId, '1', atNoon(1)), pastEvent(applicationId, '1', atNoon(2))]);
      const first = (await app.http.get(`/v1/activity?applicationId=${applicationId}&limit=1`)).body.data;
      const cursor = first.pagination.nextCursor as string;
      expect((await app.http.get(`/v1/activity?applicationId=${applicationId}&limit=1&cursor=${cursor}`)).status).to.equal(200);
      expect((await app.http.get(`/v1/activity?limit=1&cursor=${cursor}`)).status).to.equal(400);
      expect((await app.http.get(`/v1/activity?type=download&applicationId=${applicationId}&cursor=${cursor}`)).status).to.equal(400);
      for (const bad of ['garbage', 'e30', Buffer.from('{"v":1,"t":"x","id":"a"}').toString('base64url')]) {
        const res = await app.http.get(`/v1/activity?cursor=${bad}`);
        expect(res.status, bad).to.equal(400);
        expect(res.body.success).to.equal(false);
      }
    });

    it('is admin-only', async () => {
      const customer = await createCustomer(app);
      expect((await app.http.get('/v1/activity', { key: customer.apiKey })).status).to.equal(403);
      expect((await app.http.get('/v1/activity', { key: null })).status).to.equal(401);
    });
  });
});
