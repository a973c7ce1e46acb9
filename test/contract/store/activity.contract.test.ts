import { expect } from 'chai';
import type { Platform } from '../../../shared/releases/platforms';
import type { DailyCount, DistributionEvent, ReleaseDownload } from '../../../shared/store/models';
import type { ActivityQuery, Store } from '../../../shared/store/store';
import { at, downloadEvent as event } from '../../support/records';
import { daily } from '../../support/store-expectations';
import { describeStoreContract } from './harness';

const eventIds = (events: DistributionEvent[]) => events.map((e) => e.eventId);

/** The daily counts a correct rollup of `events` gives, in listing order: the reference the stores are held to. */
function dailyCountsOf(applicationId: string, events: DistributionEvent[]): DailyCount[] {
  const counts = new Map<string, DailyCount>();
  for (const e of events.filter((d) => d.type === 'download' && d.applicationId === applicationId)) {
    const date = e.timestamp.toISOString().slice(0, 10);
    const key = JSON.stringify([date, e.version, e.platform]);
    const count = counts.get(key) ?? daily(applicationId, e.version, date, 0, e.platform);
    count.count += 1;
    counts.set(key, count);
  }
  const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return [...counts.values()].sort((a, b) => compare(b.date, a.date) || compare(a.version, b.version) || compare(a.platform, b.platform));
}

/** The ActivityStore port: download events and the statistics folded from them. */
describeStoreContract('events and statistics', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  describe('events', () => {
    const feed = (query: Partial<ActivityQuery> = {}) => store.activity.listEvents({ limit: 100, ...query });

    it('stores events as given and skips an eventId already stored', async () => {
      const first = event('ev_1', { customerId: null, clientIp: null, userAgent: null, type: 'upload' });
      const second = event('ev_2', { timestamp: at(1) });
      await store.activity.insertEvents([first, second]);
      await store.activity.insertEvents([event('ev_2', { timestamp: at(1), fileId: 'file_other' }), event('ev_3', { timestamp: at(2) })]);
      await store.activity.insertEvents([]);
      expect(await feed()).to.deep.equal([event('ev_3', { timestamp: at(2) }), second, first]);
      expect(await store.activity.getEvent('ev_2'), 'one event by its id').to.deep.equal(second);
      expect(await store.activity.getEvent('ev_9')).to.equal(null);
    });

    it("stores each event's platform and arch", async () => {
      const events = [event('ev_1', { platform: 'windows', arch: 'x64' }), event('ev_2', { timestamp: at(1), platform: 'macos', arch: 'universal' })];
      await store.activity.insertEvents(events);
      expect(await feed()).to.deep.equal([events[1], events[0]]);
    });

    it('lists newest first, ties broken by eventId descending, up to the limit', async () => {
      await store.activity.insertEvents([
        event('ev_a', { timestamp: at(1) }),
        event('ev_b', { timestamp: at(2) }),
        event('ev_c', { timestamp: at(2) }),
        event('ev_d', { timestamp: at(3) }),
        event('ev_e', { timestamp: at(0) }),
      ]);
      expect(eventIds(await feed())).to.deep.equal(['ev_d', 'ev_c', 'ev_b', 'ev_a', 'ev_e']);
      expect(eventIds(await feed({ limit: 2 }))).to.deep.equal(['ev_d', 'ev_c']);
    });

    it('pages with a keyset position, never skipping or repeating an event', async () => {
      const minutes = [5, 3, 3, 3, 7, 1, 3, 5, 0, 7];
      await store.activity.insertEvents(minutes.map((minute, i) => event(`ev_${i}`, { timestamp: at(minute) })));
      const all = await feed();
      expect(all).to.have.length(10);
      const paged: DistributionEvent[] = [];
      for (let page = await feed({ limit: 3 }); page.length > 0;) {
        paged.push(...page);
        const last = page[page.length - 1];
        page = await feed({ limit: 3, after: { timestamp: last.timestamp, eventId: last.eventId } });
      }
      expect(paged).to.deep.equal(all);
      expect(eventIds(all)).to.deep.equal(['ev_9', 'ev_4', 'ev_7', 'ev_0', 'ev_6', 'ev_3', 'ev_2', 'ev_1', 'ev_5', 'ev_8']);
    });

    it('filters by type and by application, alone, together and while paging', async () => {
      await store.activity.insertEvents([
        event('ev_1', { timestamp: at(1) }),
        event('ev_2', { timestamp: at(2), type: 'upload' }),
        event('ev_3', { timestamp: at(3), applicationId: 'app_2' }),
        event('ev_4', { timestamp: at(4), applicationId: 'app_2', type: 'upload' }),
        event('ev_5', { timestamp: at(5) }),
      ]);
      expect(eventIds(await feed({ type: 'upload' }))).to.deep.equal(['ev_4', 'ev_2']);
      expect(eventIds(await feed({ type: 'download' }))).to.deep.equal(['ev_5', 'ev_3', 'ev_1']);
      expect(eventIds(await feed({ applicationId: 'app_1' }))).to.deep.equal(['ev_5', 'ev_2', 'ev_1']);
      expect(eventIds(await feed({ applicationId: 'app_1', type: 'download' }))).to.deep.equal(['ev_5', 'ev_1']);
      const after = { timestamp: at(5), eventId: 'ev_5' };
      expect(eventIds(await feed({ applicationId: 'app_1', type: 'download', after }))).to.deep.equal(['ev_1']);
      expect(eventIds(await feed({ type: 'upload', after: { timestamp: at(4), eventId: 'ev_4' } }))).to.deep.equal(['ev_2']);
      expect(await feed({ applicationId: 'app_3' })).to.deep.equal([]);
    });
  });

  describe('statistics', () => {
    const utc = (iso: string) => new Date(iso);

    it('folds downloads into exact counts per version and UTC day, never counting uploads', async () => {
      await store.activity.insertEvents([
        event('d_1', { timestamp: utc('2026-03-01T23:59:59.999Z') }),
        event('d_2', { timestamp: utc('2026-03-01T00:00:00.000Z') }),
        event('d_3', { timestamp: utc('2026-03-02T00:00:00.000Z') }),
        event('d_4', { timestamp: utc('2026-03-02T12:00:00.000Z'), version: '2.0.0' }),
        event('d_5', { timestamp: utc('2026-03-02T13:00:00.000Z'), version: '2.0.0' }),
        event('d_6', { timestamp: utc('2026-03-02T14:00:00.000Z'), version: '2.0.0' }),
        event('d_7', { timestamp: utc('2026-03-01T08:00:00.000Z'), applicationId: 'app_2' }),
        event('u_1', { timestamp: utc('2026-03-01T09:00:00.000Z'), type: 'upload', customerId: null }),
        event('u_2', { timestamp: utc('2026-03-03T09:00:00.000Z'), type: 'upload', customerId: null }),
      ]);
      expect(await store.activity.rollupEvents(100)).to.equal(7);
      const expected = [
        daily('app_1', '1.0.0', '2026-03-02', 1),
        daily('app_1', '2.0.0', '2026-03-02', 3),
        daily('app_1', '1.0.0', '2026-03-01', 2),
      ];
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal(expected);
      expect(await store.activity.listDailyCounts('app_2', {})).to.deep.equal([daily('app_2', '1.0.0', '2026-03-01', 1)]);
      expect(await store.activity.rollupEvents(100)).to.equal(0);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal(expected);
    });

    it('counts downloads per platform of their files, besides version and UTC day', async () => {
      const day = (d: number, hour = 12) => utc(`2026-03-0${d}T${String(hour).padStart(2, '0')}:00:00.000Z`);
      await store.activity.insertEvents([
        event('d_1', { timestamp: day(1), platform: 'windows', arch: 'x64' }),
        event('d_2', { timestamp: day(1, 13), platform: 'windows', arch: 'arm64' }),
        event('d_3', { timestamp: day(1), platform: 'macos', arch: 'universal' }),
        event('d_4', { timestamp: day(1) }),
        event('d_5', { timestamp: day(2), platform: 'linux', arch: 'x64', version: '2.0.0' }),
        event('d_6', { timestamp: day(2), platform: 'linux', arch: 'armv7l', version: '2.0.0' }),
        event('d_7', { timestamp: day(2), platform: 'windows', arch: 'x64' }),
        event('u_1', { timestamp: day(2), platform: 'windows', arch: 'x64', type: 'upload', customerId: null }),
      ]);
      expect(await store.activity.rollupEvents(100)).to.equal(7);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([
        daily('app_1', '1.0.0', '2026-03-02', 1, 'windows'),
        daily('app_1', '2.0.0', '2026-03-02', 2, 'linux'),
        daily('app_1', '1.0.0', '2026-03-01', 1, 'any'),
        daily('app_1', '1.0.0', '2026-03-01', 1, 'macos'),
        daily('app_1', '1.0.0', '2026-03-01', 2, 'windows'),
      ]);
      await store.activity.insertEvents([event('d_8', { timestamp: day(1, 20), platform: 'macos', arch: 'arm64' })]);
      expect(await store.activity.rollupEvents(100)).to.equal(1);
      expect(await store.activity.listDailyCounts('app_1', { to: '2026-03-01' })).to.deep.equal([
        daily('app_1', '1.0.0', '2026-03-01', 1, 'any'),
        daily('app_1', '1.0.0', '2026-03-01', 2, 'macos'),
        daily('app_1', '1.0.0', '2026-03-01', 2, 'windows'),
      ]);
    });

    it('counts each event once per platform when rollups run concurrently', async () => {
      const platforms: Platform[] = ['windows', 'macos', 'linux', 'any'];
      const events = Array.from({ length: 40 }, (_, i) =>
        event(`d_${String(i).padStart(2, '0')}`, { timestamp: at(i * 45), version: `${i % 2}.0.0`, platform: platforms[i % 3 + (i % 7 === 0 ? 1 : 0)] }));
      await store.activity.insertEvents(events);
      for (let round = 0; round < 40; round += 1) {
        const folded = await Promise.all([store.activity.rollupEvents(3), store.activity.rollupEvents(3), store.activity.rollupEvents(3)]);
        if (folded.every((n) => n === 0)) break;
      }
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal(dailyCountsOf('app_1', events));
    });

    it('counts downloads per arch and per customer in the same rollup, and names the customers with most downloads', async () => {
      await store.versions.upsertVersion('app_1', '1.0.0', {}, at(0));
      await store.versions.upsertVersion('app_1', '2.0.0-beta.1', { channel: 'beta' }, at(0));
      const day = (d: number, hour = 12) => utc(`2026-03-0${d}T${String(hour).padStart(2, '0')}:00:00.000Z`);
      await store.activity.insertEvents([
        event('d_1', { timestamp: day(1), arch: 'x64', customerId: 'cust_a' }),
        event('d_2', { timestamp: day(1, 13), arch: 'arm64', customerId: 'cust_b' }),
        event('d_3', { timestamp: day(1, 14), arch: 'arm64', customerId: 'cust_b' }),
        event('d_4', { timestamp: day(2), arch: 'x64', customerId: 'cust_c', version: '2.0.0-beta.1' }),
        event('d_5', { timestamp: day(2, 13), arch: 'x64', customerId: 'cust_c', version: '2.0.0-beta.1' }),
        event('d_6', { timestamp: day(2, 14), arch: 'x64', customerId: 'cust_c' }),
        event('d_7', { timestamp: day(2), customerId: 'cust_a' }),
        event('d_8', { timestamp: day(2), arch: 'x64', customerId: 'cust_z', applicationId: 'app_2' }),
        event('u_1', { timestamp: day(2), arch: 'x64', type: 'upload', customerId: null }),
      ]);
      expect(await store.activity.rollupEvents(100)).to.equal(8);
      const everything = {
        byArch: { x64: 4, arm64: 2, any: 1 },
        topCustomers: [{ customerId: 'cust_c', downloads: 3 }, { customerId: 'cust_a', downloads: 2 }, { customerId: 'cust_b', downloads: 2 }],
      };
      expect(await store.activity.listDownloadBreakdown('app_1', {}, 10)).to.deep.equal(everything);
      expect(await store.activity.rollupEvents(100), 'a second rollup finds nothing').to.equal(0);
      expect(await store.activity.listDownloadBreakdown('app_1', {}, 10)).to.deep.equal(everything);
      expect((await store.activity.listDownloadBreakdown('app_1', {}, 2)).topCustomers, 'ties by customer id').to.deep.equal(everything.topCustomers.slice(0, 2));
      // The same filters as the daily counts: period, version and the channel each version is in now.
      expect(await store.activity.listDownloadBreakdown('app_1', { to: '2026-03-01' }, 10)).to.deep.equal({
        byArch: { x64: 1, arm64: 2 }, topCustomers: [{ customerId: 'cust_b', downloads: 2 }, { customerId: 'cust_a', downloads: 1 }],
      });
      expect(await store.activity.listDownloadBreakdown('app_1', { channel: 'beta' }, 10)).to.deep.equal({
        byArch: { x64: 2 }, topCustomers: [{ customerId: 'cust_c', downloads: 2 }],
      });
      expect(await store.activity.listDownloadBreakdown('app_1', { version: '1.0.0', from: '2026-03-02' }, 10)).to.deep.equal({
        byArch: { x64: 1, any: 1 }, topCustomers: [{ customerId: 'cust_a', downloads: 1 }, { customerId: 'cust_c', downloads: 1 }],
      });
      expect(await store.activity.listDownloadBreakdown('app_2', {}, 10)).to.deep.equal({ byArch: { x64: 1 }, topCustomers: [{ customerId: 'cust_z', downloads: 1 }] });
      expect(await store.activity.listDownloadBreakdown('app_3', {}, 10)).to.deep.equal({ byArch: {}, topCustomers: [] });
    });

    it('counts each event once per arch and customer when rollups run concurrently', async () => {
      const archs = ['x64', 'arm64', 'universal'] as const;
      const events = Array.from({ length: 40 }, (_, i) =>
        event(`d_${String(i).padStart(2, '0')}`, { timestamp: at(i * 45), version: `${i % 2}.0.0`, arch: archs[i % 3], customerId: `cust_${i % 4}` }));
      await store.activity.insertEvents(events);
      for (let round = 0; round < 40; round += 1) {
        const folded = await Promise.all([store.activity.rollupEvents(3), store.activity.rollupEvents(3), store.activity.rollupEvents(3)]);
        if (folded.every((n) => n === 0)) break;
      }
      expect(await store.activity.listDownloadBreakdown('app_1', {}, 10)).to.deep.equal({
        byArch: { x64: 14, arm64: 13, universal: 13 },
        topCustomers: [0, 1, 2, 3].map((c) => ({ customerId: `cust_${c}`, downloads: 10 })),
      });
    });

    it('restricts daily counts to the versions now in a channel', async () => {
      await store.versions.upsertVersion('app_1', '1.0.0', {}, at(0));
      await store.versions.upsertVersion('app_1', '2.0.0-beta.1', { channel: 'beta' }, at(0));
      await store.versions.upsertVersion('app_2', '3.0.0', { channel: 'beta' }, at(0));
      await store.activity.insertEvents([
        event('d_1', { platform: 'windows' }),
        event('d_2', { version: '2.0.0-beta.1', platform: 'macos' }),
        event('d_3', { version: '2.0.0-beta.1', platform: 'macos', timestamp: at(24 * 60) }),
        event('d_4', { version: '3.0.0', platform: 'linux' }),
        event('d_5', { applicationId: 'app_2', version: '3.0.0' }),
      ]);
      await store.activity.rollupEvents(100);
      const stable = [daily('app_1', '1.0.0', '2026-03-01', 1, 'windows')];
      const beta = [daily('app_1', '2.0.0-beta.1', '2026-03-02', 1, 'macos'), daily('app_1', '2.0.0-beta.1', '2026-03-01', 1, 'macos')];
      expect(await store.activity.listDailyCounts('app_1', { channel: 'stable' })).to.deep.equal(stable);
      expect(await store.activity.listDailyCounts('app_1', { channel: 'beta' })).to.deep.equal(beta);
      expect(await store.activity.listDailyCounts('app_1', { channel: 'beta', version: '1.0.0' })).to.deep.equal([]);
      expect(await store.activity.listDailyCounts('app_1', { channel: 'beta', from: '2026-03-02' })).to.deep.equal([beta[0]]);
      expect(await store.activity.listDailyCounts('app_1', { channel: 'rc' })).to.deep.equal([]);
      // Promoted to stable, the version's downloads count there, those of before included.
      await store.versions.updateVersion('app_1', '2.0.0-beta.1', { channel: 'stable' }, at(1));
      expect(await store.activity.listDailyCounts('app_1', { channel: 'stable' })).to.deep.equal([beta[0], stable[0], beta[1]]);
      expect(await store.activity.listDailyCounts('app_1', { channel: 'stable', version: '2.0.0-beta.1' })).to.deep.equal(beta);
    });

    it('tells when the download waiting longest to be counted happened, until every download is counted', async () => {
      expect(await store.activity.oldestUncountedEventAt()).to.equal(null);
      await store.activity.insertEvents([event('u_1', { type: 'upload', customerId: null, timestamp: at(0) })]);
      expect(await store.activity.oldestUncountedEventAt(), 'uploads are never counted').to.equal(null);
      await store.activity.insertEvents([event('d_1', { timestamp: at(1) }), event('d_2', { timestamp: at(2) })]);
      await store.activity.insertEvents([event('d_3', { timestamp: at(3) })]);
      expect((await store.activity.oldestUncountedEventAt())?.toISOString()).to.equal(at(1).toISOString());
      expect(await store.activity.rollupEvents(1)).to.equal(1);
      expect((await store.activity.oldestUncountedEventAt())?.toISOString()).to.equal(at(2).toISOString());
      await store.activity.rollupEvents(100);
      expect(await store.activity.oldestUncountedEventAt()).to.equal(null);
      await store.activity.insertEvents([event('d_4', { timestamp: at(9) })]);
      expect((await store.activity.oldestUncountedEventAt())?.toISOString()).to.equal(at(9).toISOString());
    });

    it('counts nothing when there are only uploads', async () => {
      await store.activity.insertEvents([event('u_1', { type: 'upload' }), event('u_2', { type: 'upload', timestamp: at(1) })]);
      expect(await store.activity.rollupEvents(100)).to.equal(0);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([]);
    });

    it('folds at most `limit` events per call and counts each event once, even when its insert is retried', async () => {
      await store.activity.insertEvents([1, 2, 3, 4, 5].map((i) => event(`d_${i}`, { timestamp: at(i) })));
      expect(await store.activity.rollupEvents(2)).to.equal(2);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.0.0', '2026-03-01', 2)]);
      expect(await store.activity.rollupEvents(2)).to.equal(2);
      expect(await store.activity.rollupEvents(2)).to.equal(1);
      expect(await store.activity.rollupEvents(2)).to.equal(0);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.0.0', '2026-03-01', 5)]);
      await store.activity.insertEvents([1, 2, 3, 4, 5, 6].map((i) => event(`d_${i}`, { timestamp: at(i) })));
      expect(await store.activity.rollupEvents(100)).to.equal(1);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.0.0', '2026-03-01', 6)]);
    });

    it('counts each event once when rollups run concurrently', async () => {
      await store.activity.insertEvents(Array.from({ length: 30 }, (_, i) => event(`d_${i}`, { timestamp: at(i * 60), version: `${i % 2}.0.0` })));
      for (let round = 0; round < 30; round += 1) {
        const folded = await Promise.all([store.activity.rollupEvents(4), store.activity.rollupEvents(4), store.activity.rollupEvents(4)]);
        if (folded.every((n) => n === 0)) break;
      }
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([
        daily('app_1', '0.0.0', '2026-03-02', 8),
        daily('app_1', '1.0.0', '2026-03-02', 8),
        daily('app_1', '0.0.0', '2026-03-01', 7),
        daily('app_1', '1.0.0', '2026-03-01', 7),
      ]);
    });

    it('filters daily counts by version and by inclusive date bounds, newest date first', async () => {
      const days = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04'];
      await store.activity.insertEvents(days.flatMap((day, i) => [
        ...Array.from({ length: i + 1 }, (_, n) => event(`v1_${day}_${n}`, { timestamp: utc(`${day}T06:00:00.000Z`) })),
        event(`v2_${day}`, { timestamp: utc(`${day}T18:00:00.000Z`), version: '2.0.0' }),
      ]));
      expect(await store.activity.rollupEvents(1000)).to.equal(14);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([
        daily('app_1', '1.0.0', '2026-03-04', 4),
        daily('app_1', '2.0.0', '2026-03-04', 1),
        daily('app_1', '1.0.0', '2026-03-03', 3),
        daily('app_1', '2.0.0', '2026-03-03', 1),
        daily('app_1', '1.0.0', '2026-03-02', 2),
        daily('app_1', '2.0.0', '2026-03-02', 1),
        daily('app_1', '1.0.0', '2026-03-01', 1),
        daily('app_1', '2.0.0', '2026-03-01', 1),
      ]);
      expect(await store.activity.listDailyCounts('app_1', { version: '1.0.0' })).to.deep.equal([
        daily('app_1', '1.0.0', '2026-03-04', 4),
        daily('app_1', '1.0.0', '2026-03-03', 3),
        daily('app_1', '1.0.0', '2026-03-02', 2),
        daily('app_1', '1.0.0', '2026-03-01', 1),
      ]);
      expect(await store.activity.listDailyCounts('app_1', { from: '2026-03-03' })).to.deep.equal([
        daily('app_1', '1.0.0', '2026-03-04', 4),
        daily('app_1', '2.0.0', '2026-03-04', 1),
        daily('app_1', '1.0.0', '2026-03-03', 3),
        daily('app_1', '2.0.0', '2026-03-03', 1),
      ]);
      expect(await store.activity.listDailyCounts('app_1', { to: '2026-03-01' })).to.deep.equal([
        daily('app_1', '1.0.0', '2026-03-01', 1),
        daily('app_1', '2.0.0', '2026-03-01', 1),
      ]);
      expect(await store.activity.listDailyCounts('app_1', { version: '2.0.0', from: '2026-03-02', to: '2026-03-03' })).to.deep.equal([
        daily('app_1', '2.0.0', '2026-03-03', 1),
        daily('app_1', '2.0.0', '2026-03-02', 1),
      ]);
      expect(await store.activity.listDailyCounts('app_1', { from: '2026-03-04', to: '2026-03-01' })).to.deep.equal([]);
      expect(await store.activity.listDailyCounts('app_2', {})).to.deep.equal([]);
    });
  });

  describe("a release's downloads by customer", () => {
    const range = { from: at(10), to: at(20) };
    const list = (after: ReleaseDownload | null = null, limit = 100, version = '2.0.0') =>
      store.activity.listReleaseDownloads('app_1', version, range, after, limit);
    const download = (eventId: string, customerId: string, minute: number) => ({ customerId, eventId, at: at(minute) });

    beforeEach(async () => {
      await store.activity.insertEvents([
        event('ev_1', { version: '2.0.0', customerId: 'cust_b', timestamp: at(12) }),
        event('ev_2', { version: '2.0.0', customerId: 'cust_a', timestamp: at(15) }),
        event('ev_3', { version: '2.0.0', customerId: 'cust_a', timestamp: at(11) }),
        event('ev_4', { version: '2.0.0', customerId: 'cust_a', timestamp: at(15) }),
        event('ev_5', { version: '2.0.0', customerId: 'cust_a', timestamp: at(10) }),
        event('ev_6', { version: '2.0.0', customerId: 'cust_a', timestamp: at(20) }),
        // Outside the range, without a customer, an upload, another release, another application: never listed.
        event('ev_7', { version: '2.0.0', customerId: 'cust_a', timestamp: at(9) }),
        event('ev_8', { version: '2.0.0', customerId: 'cust_a', timestamp: at(21) }),
        event('ev_9', { version: '2.0.0', customerId: null, timestamp: at(12) }),
        event('ev_10', { version: '2.0.0', customerId: 'cust_a', type: 'upload', timestamp: at(12) }),
        event('ev_11', { version: '1.0.0', customerId: 'cust_a', timestamp: at(12) }),
        event('ev_12', { applicationId: 'app_2', version: '2.0.0', customerId: 'cust_a', timestamp: at(12) }),
      ]);
    });

    it('lists them by customer, time and event id, the range bounds included', async () => {
      expect(await list()).to.deep.equal([
        download('ev_5', 'cust_a', 10), download('ev_3', 'cust_a', 11), download('ev_2', 'cust_a', 15), download('ev_4', 'cust_a', 15),
        download('ev_6', 'cust_a', 20), download('ev_1', 'cust_b', 12),
      ]);
      expect(await list(null, 100, '3.0.0')).to.deep.equal([]);
    });

    it('pages from a position: the listing after a download, ties in time by event id', async () => {
      expect(await list(null, 3)).to.deep.equal([download('ev_5', 'cust_a', 10), download('ev_3', 'cust_a', 11), download('ev_2', 'cust_a', 15)]);
      expect(await list(download('ev_2', 'cust_a', 15), 2)).to.deep.equal([download('ev_4', 'cust_a', 15), download('ev_6', 'cust_a', 20)]);
      expect(await list(download('ev_6', 'cust_a', 20), 2)).to.deep.equal([download('ev_1', 'cust_b', 12)]);
      expect(await list(download('ev_1', 'cust_b', 12), 2)).to.deep.equal([]);
    });
  });
});
