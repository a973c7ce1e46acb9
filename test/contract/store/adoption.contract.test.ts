import { expect } from 'chai';
import { utcDate } from '../../../shared/store/dates';
import { ALL, type AdoptionCount, type CheckEvent, type CheckGroup, type CustomerVersionSeen } from '../../../shared/store/models';
import type { Store } from '../../../shared/store/store';
import { at, checkEvent } from '../../support/records';
import { rejectionOf } from '../../support/rejection';
import { describeStoreContract } from './harness';

async function expectRangeErrorOf(promise: Promise<unknown>): Promise<void> {
  expect(await rejectionOf(promise)).to.be.instanceOf(RangeError);
}

/** The AdoptionStore port: update checks and the adoption figures folded from them. */
describeStoreContract('update checks and adoption', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  const check = (id: string, overrides: Partial<CheckEvent> = {}) => checkEvent(id, overrides);
  const count = (overrides: Partial<AdoptionCount>): AdoptionCount => ({
    applicationId: 'app_1', date: '2026-03-01', channel: ALL, platform: ALL, arch: ALL, version: ALL, checks: 0, installs: 0, ...overrides,
  });
  const group = (runningVersion: string, checks: number, installHashes: string[], overrides: Partial<CheckGroup> = {}): CheckGroup => ({
    applicationId: 'app_1', date: utcDate(at(0)), channel: 'stable', platform: 'linux', arch: 'x64', runningVersion, checks, installHashes, ...overrides,
  });
  const report = (customerId: string, version: string, lastReportedAt: Date, applicationId = 'app_1'): CustomerVersionSeen => ({ applicationId, customerId, version, lastReportedAt });
  const selection = { channel: ALL, platform: ALL, arch: ALL, from: '2026-01-01', to: '2026-12-31' };

  it('claims checks in the order stored, the same batch until it is finished, and each batch counts once', async () => {
    const written = [check('c_1'), check('c_2', { runningVersion: '2.0.0' }), check('c_3')];
    await store.adoption.insertCheckEvents(written);
    // A write repeated (retried after an answer was lost): its checks are stored once.
    await store.adoption.insertCheckEvents(written);
    const batch = await store.adoption.claimCheckBatch(2);
    expect(batch?.checks).to.equal(2);
    expect(batch?.groups).to.deep.equal([group('1.0.0', 1, ['hash_c_1']), group('2.0.0', 1, ['hash_c_2'])]);
    expect(batch?.reports).to.deep.equal([report('cust_1', '1.0.0', at(0)), report('cust_1', '2.0.0', at(0))]);
    const again = await store.adoption.claimCheckBatch(2);
    expect(again?.batchId).to.equal(batch?.batchId);
    const counts = [count({ checks: 2, installs: 2 }), count({ version: '1.0.0', checks: 1, installs: 1 })];
    const seen = [{ applicationId: 'app_1', customerId: 'cust_1', version: '1.0.0', lastReportedAt: at(0) }];
    // Two finishers of one batch (a worker that stalled and the one that took over): counted once.
    const finished = await Promise.all([store.adoption.finishCheckBatch(batch!.batchId, counts, seen), store.adoption.finishCheckBatch(batch!.batchId, counts, seen)]);
    expect(finished.filter(Boolean).length).to.be.at.least(1);
    expect(await store.adoption.finishCheckBatch(batch!.batchId, counts, seen)).to.equal(false);
    expect(await store.adoption.listAdoptionCounts('app_1', selection)).to.deep.equal(counts);
    const next = await store.adoption.claimCheckBatch(2);
    expect(next?.checks).to.equal(1);
    expect(next?.groups).to.deep.equal([group('1.0.0', 1, ['hash_c_3'])]);
    await store.adoption.finishCheckBatch(next!.batchId, [count({ checks: 1, installs: 1 })], []);
    expect(await store.adoption.claimCheckBatch(2)).to.equal(null);
    expect(await store.adoption.listAdoptionCounts('app_1', selection)).to.deep.equal([count({ checks: 3, installs: 2 }), counts[1]]);
  });

  it('stores the checks gathered in a window (a gateway\'s write) as it stores check events, a window written again once', async () => {
    const gathered = [check('c_1', { installId: 'staging-1', offeredVersion: '2.0.0' }), check('c_2', { runningVersion: '2.0.0', client: 'tauri', platform: 'windows' })];
    const window = store.adoption.openCheckWindow(10);
    expect(window.length).to.equal(0);
    for (const each of gathered) window.push(each);
    expect(window.length).to.equal(2);
    await window.write();
    // The same checks gathered and written again (a retried write): stored once.
    const again = store.adoption.openCheckWindow(2);
    for (const each of gathered) again.push(each);
    await again.write();
    await store.adoption.insertCheckEvents([check('c_3', { timestamp: at(7) })]);
    const batch = await store.adoption.claimCheckBatch(10);
    expect(batch?.checks).to.equal(3);
    expect(batch?.groups).to.deep.equal([
      group('1.0.0', 2, ['hash_c_1', 'hash_c_3']),
      group('2.0.0', 1, ['hash_c_2'], { platform: 'windows' }),
    ]);
    // Every field comes back as pushed (the update funnel reads the checks themselves).
    expect((await store.funnel.readFunnelChecks(10))?.events).to.deep.equal([...gathered, check('c_3', { timestamp: at(7) })]);
  });

  it('refuses a check beyond a window\'s capacity and writes those it holds; a window of nothing writes nothing', async () => {
    expect(() => store.adoption.openCheckWindow(0)).to.throw(RangeError);
    expect(() => store.adoption.openCheckWindow(1.5)).to.throw(RangeError);
    await store.adoption.openCheckWindow(5).write();
    expect(await store.adoption.claimCheckBatch(10)).to.equal(null);
    const window = store.adoption.openCheckWindow(1);
    window.push(check('c_1'));
    expect(() => window.push(check('c_2'))).to.throw(RangeError);
    expect(window.length).to.equal(1);
    await window.write();
    const batch = await store.adoption.claimCheckBatch(10);
    expect(batch?.checks).to.equal(1);
    expect(batch?.groups).to.deep.equal([group('1.0.0', 1, ['hash_c_1'])]);
  });

  it('gives a batch as its checks per day and exact selection with their distinct installs, and each customer\'s latest report per version', async () => {
    const nextDay = 24 * 60;
    await store.adoption.insertCheckEvents([
      check('c_1', { installHash: 'h_b' }),
      check('c_2', { installHash: 'h_a', timestamp: at(5) }),
      check('c_3', { installHash: 'h_b', timestamp: at(3) }),
      check('c_4', { installHash: 'h_a', timestamp: at(nextDay) }),
      check('c_5', { installHash: 'h_a', platform: 'macos', arch: 'arm64', channel: 'beta', customerId: 'cust_0' }),
      check('c_6', { installHash: 'h_c', applicationId: 'app_0', runningVersion: '0.9.0', timestamp: at(2) }),
    ]);
    const batch = await store.adoption.claimCheckBatch(10);
    expect(batch?.checks).to.equal(6);
    expect(batch?.groups).to.deep.equal([
      group('0.9.0', 1, ['h_c'], { applicationId: 'app_0' }),
      group('1.0.0', 1, ['h_a'], { channel: 'beta', platform: 'macos', arch: 'arm64' }),
      group('1.0.0', 3, ['h_a', 'h_b']),
      group('1.0.0', 1, ['h_a'], { date: utcDate(at(nextDay)) }),
    ]);
    expect(batch?.reports).to.deep.equal([
      report('cust_1', '0.9.0', at(2), 'app_0'), report('cust_0', '1.0.0', at(0)), report('cust_1', '1.0.0', at(nextDay)),
    ]);
  });

  it('claims across writes and stops within one, counting each install and selection across them', async () => {
    await store.adoption.insertCheckEvents([check('c_1', { installHash: 'h_a' }), check('c_2', { installHash: 'h_b' })]);
    await store.adoption.insertCheckEvents([check('c_3', { installHash: 'h_a', timestamp: at(7) })]);
    await store.adoption.insertCheckEvents([check('c_4', { installHash: 'h_a', runningVersion: '2.0.0' }), check('c_5', { installHash: 'h_c' })]);
    const batch = await store.adoption.claimCheckBatch(4);
    expect(batch?.checks).to.equal(4);
    expect(batch?.groups).to.deep.equal([group('1.0.0', 3, ['h_a', 'h_b']), group('2.0.0', 1, ['h_a'])]);
    expect(batch?.reports).to.deep.equal([report('cust_1', '1.0.0', at(7)), report('cust_1', '2.0.0', at(0))]);
    await store.adoption.finishCheckBatch(batch!.batchId, [], []);
    const rest = await store.adoption.claimCheckBatch(4);
    expect(rest?.checks).to.equal(1);
    expect(rest?.groups).to.deep.equal([group('1.0.0', 1, ['h_c'])]);
  });

  it('raises installs to an estimate but never lowers them, and reads one selection within the dates', async () => {
    const batches: string[] = [];
    for (const id of ['c_1', 'c_2']) {
      await store.adoption.insertCheckEvents([check(id)]);
      batches.push((await store.adoption.claimCheckBatch(10))!.batchId);
      const installs = id === 'c_1' ? 5 : 3;
      await store.adoption.finishCheckBatch(batches[batches.length - 1], [
        count({ checks: 1, installs }),
        count({ platform: 'linux', checks: 1, installs }),
        count({ date: '2026-03-02', checks: 1, installs: 1 }),
        count({ applicationId: 'app_2', checks: 1, installs: 1 }),
      ], []);
    }
    expect(await store.adoption.listAdoptionCounts('app_1', selection)).to.deep.equal([
      count({ checks: 2, installs: 5 }), count({ date: '2026-03-02', checks: 2, installs: 1 }),
    ]);
    expect(await store.adoption.listAdoptionCounts('app_1', { ...selection, platform: 'linux' })).to.deep.equal([count({ platform: 'linux', checks: 2, installs: 5 })]);
    expect(await store.adoption.listAdoptionCounts('app_1', { ...selection, from: '2026-03-02', to: '2026-03-02' })).to.deep.equal([count({ date: '2026-03-02', checks: 2, installs: 1 })]);
  });

  it("keeps each customer's latest report per version, paged by customer", async () => {
    await store.adoption.insertCheckEvents([check('c_1')]);
    const batch = (await store.adoption.claimCheckBatch(10))!;
    await store.adoption.finishCheckBatch(batch.batchId, [], [
      { applicationId: 'app_1', customerId: 'cust_b', version: '1.0.0', lastReportedAt: at(5) },
      { applicationId: 'app_1', customerId: 'cust_a', version: '1.0.0', lastReportedAt: at(1) },
      { applicationId: 'app_1', customerId: 'cust_a', version: '2.0.0', lastReportedAt: at(2) },
      { applicationId: 'app_2', customerId: 'cust_c', version: '2.0.0', lastReportedAt: at(2) },
    ]);
    await store.adoption.insertCheckEvents([check('c_2')]);
    const later = (await store.adoption.claimCheckBatch(10))!;
    await store.adoption.finishCheckBatch(later.batchId, [], [
      { applicationId: 'app_1', customerId: 'cust_b', version: '1.0.0', lastReportedAt: at(3) },
      { applicationId: 'app_1', customerId: 'cust_a', version: '1.0.0', lastReportedAt: at(4) },
    ]);
    const first = await store.adoption.listCustomerAdoption('app_1', 1, 1);
    expect(first).to.deep.equal({ total: 2, items: [{ customerId: 'cust_a', versions: [{ version: '1.0.0', lastReportedAt: at(4) }, { version: '2.0.0', lastReportedAt: at(2) }] }] });
    const second = await store.adoption.listCustomerAdoption('app_1', 2, 1);
    expect(second.items).to.deep.equal([{ customerId: 'cust_b', versions: [{ version: '1.0.0', lastReportedAt: at(5) }] }]);
    await expectRangeErrorOf(store.adoption.listCustomerAdoption('app_1', 0, 1));
  });

  it('purges only rolled-up checks older than the cut-off, at most `limit` at a time', async () => {
    await store.adoption.insertCheckEvents([check('c_1', { timestamp: at(0) }), check('c_2', { timestamp: at(1) }), check('c_3', { timestamp: at(2) })]);
    const batch = (await store.adoption.claimCheckBatch(2))!;
    await store.adoption.finishCheckBatch(batch.batchId, [], []);
    await store.adoption.insertCheckEvents([check('c_4', { timestamp: at(0) })]);
    // The update funnel has read them all (update-funnel.contract.test.ts: what it has not read is kept).
    const read = (await store.funnel.readFunnelChecks(10))!;
    await store.funnel.finishFunnelChecks(read.position);
    // c_3 and c_4 are not rolled up yet: kept whatever their age.
    expect(await store.adoption.purgeCheckEvents(at(10), 1)).to.equal(1);
    expect(await store.adoption.purgeCheckEvents(at(10), 10)).to.equal(1);
    expect(await store.adoption.purgeCheckEvents(at(10), 10)).to.equal(0);
    const left = await store.adoption.claimCheckBatch(10);
    expect(left?.checks).to.equal(2);
    expect(left?.groups).to.deep.equal([group('1.0.0', 2, ['hash_c_3', 'hash_c_4'])]);
    await expectRangeErrorOf(store.adoption.purgeCheckEvents(at(10), 0));
  });
});
