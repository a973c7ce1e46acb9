import { expect } from 'chai';
import { foldFunnelChecks } from '../../../shared/rollouts/fold-funnel-checks';
import type { CheckEvent, InstallOfferRecord, UpdateReport } from '../../../shared/store/models';
import type { Store } from '../../../shared/store/store';
import { at, checkEvent } from '../../support/records';
import { rejectionOf } from '../../support/rejection';
import { describeStoreContract } from './harness';

/** The UpdateFunnelStore port: installs offered a release, whether they arrived, and the funnel's position among the checks. */
describeStoreContract('update funnel', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  const offer = (installKey: string, offeredAt: Date, overrides: Partial<InstallOfferRecord> = {}): InstallOfferRecord => ({
    applicationId: 'app_1', version: '2.0.0', installKey, customerId: 'cust_1', platform: 'linux', arch: 'x64', channel: 'stable',
    offeredAt, arrivedAt: null, ...overrides,
  });
  const withoutArrival = ({ arrivedAt: _, ...rest }: InstallOfferRecord) => rest;
  const offers = () => store.funnel.listInstallOffers('app_1', '2.0.0', null, 100);

  it('keeps one offer per release and install, the earliest, whatever the order they come in', async () => {
    await store.funnel.recordOffers([offer('id:a', at(5)), offer('id:b', at(3))].map(withoutArrival));
    await store.funnel.recordOffers([offer('id:a', at(2), { channel: 'beta' }), offer('id:b', at(9))].map(withoutArrival));
    await store.funnel.recordOffers([offer('id:a', at(1), { version: '3.0.0' })].map(withoutArrival));
    expect(await offers()).to.deep.equal([offer('id:a', at(2)), offer('id:b', at(3))]);
    expect(await store.funnel.listInstallOffers('app_1', '3.0.0', null, 100)).to.deep.equal([offer('id:a', at(1), { version: '3.0.0' })]);
    expect(await store.funnel.listInstallOffers('app_2', '2.0.0', null, 100)).to.deep.equal([]);
  });

  it('marks an offered install arrived at its earliest arrival at or after the offer, and nothing else', async () => {
    await store.funnel.recordOffers([offer('id:a', at(5)), offer('id:b', at(5)), offer('id:c', at(5))].map(withoutArrival));
    await store.funnel.recordArrivals([
      { applicationId: 'app_1', version: '2.0.0', installKey: 'id:a', at: at(9) },
      // Before its offer: running it already (installed by hand), not an arrival.
      { applicationId: 'app_1', version: '2.0.0', installKey: 'id:b', at: at(4) },
      // Never offered: no record is made.
      { applicationId: 'app_1', version: '2.0.0', installKey: 'id:z', at: at(9) },
      { applicationId: 'app_1', version: '1.0.0', installKey: 'id:c', at: at(9) },
    ]);
    await store.funnel.recordArrivals([{ applicationId: 'app_1', version: '2.0.0', installKey: 'id:a', at: at(7) }]);
    await store.funnel.recordArrivals([{ applicationId: 'app_1', version: '2.0.0', installKey: 'id:a', at: at(8) }]);
    expect(await offers()).to.deep.equal([offer('id:a', at(5), { arrivedAt: at(7) }), offer('id:b', at(5)), offer('id:c', at(5))]);
  });

  it('lists a release\'s offers by install key, page after page', async () => {
    await store.funnel.recordOffers(['h:c', 'id:a', 'h:b', 'id:d'].map((key) => withoutArrival(offer(key, at(1)))));
    const first = await store.funnel.listInstallOffers('app_1', '2.0.0', null, 3);
    expect(first.map((o) => o.installKey)).to.deep.equal(['h:b', 'h:c', 'id:a']);
    const next = await store.funnel.listInstallOffers('app_1', '2.0.0', 'id:a', 3);
    expect(next.map((o) => o.installKey)).to.deep.equal(['id:d']);
    expect(await rejectionOf(store.funnel.listInstallOffers('app_1', '2.0.0', null, 0))).to.be.instanceOf(RangeError);
  });

  it('reads the checks after its position, the same batch until it is finished, apart from the adoption rollup', async () => {
    const checks = [checkEvent('c_1'), checkEvent('c_2', { runningVersion: '2.0.0' }), checkEvent('c_3', { offeredVersion: '2.0.0', installId: 'i-3' })];
    await store.adoption.insertCheckEvents(checks);
    const batch = await store.funnel.readFunnelChecks(2);
    expect(batch?.events).to.deep.equal(checks.slice(0, 2));
    expect((await store.funnel.readFunnelChecks(2))?.events).to.deep.equal(checks.slice(0, 2));
    // The adoption rollup claims and finishes its own batches: the funnel's position stays.
    const adoption = await store.adoption.claimCheckBatch(10);
    await store.adoption.finishCheckBatch(adoption!.batchId, [], []);
    await store.funnel.finishFunnelChecks(batch!.position);
    // Finished again (a worker that repeated its last step): nothing moves.
    await store.funnel.finishFunnelChecks(batch!.position);
    const rest = await store.funnel.readFunnelChecks(2);
    expect(rest?.events).to.deep.equal(checks.slice(2));
    await store.funnel.finishFunnelChecks(rest!.position);
    expect(await store.funnel.readFunnelChecks(2)).to.equal(null);
  });

  it('counts the failure reports that name a release, and their most reported messages', async () => {
    const report = (reportId: string, overrides: Partial<UpdateReport> = {}): UpdateReport => ({
      reportId, applicationId: 'app_1', customerId: 'cust_1', installId: null, fromVersion: '1.0.0', toVersion: '2.0.0',
      event: 'install_failed', message: 'EPERM', receivedAt: at(1), ...overrides,
    });
    for (const r of [
      report('r1'), report('r2', { event: 'download_failed', message: 'ECONNRESET' }), report('r3', { installId: 'i-1' }),
      report('r4', { message: null }), report('r5', { event: 'started', message: 'EPERM' }), report('r6', { toVersion: '3.0.0' }),
      report('r7', { applicationId: 'app_2' }), report('r8', { message: 'ABC' }),
    ]) await store.funnel.insertUpdateReport(r);
    expect(await store.funnel.countFailureReports('app_1', '2.0.0')).to.equal(5);
    expect(await store.funnel.countFailureReports('app_1', '9.9.9')).to.equal(0);
    expect(await store.funnel.topFailureMessages('app_1', '2.0.0', 5)).to.deep.equal([
      { message: 'EPERM', reports: 2 }, { message: 'ABC', reports: 1 }, { message: 'ECONNRESET', reports: 1 },
    ]);
    expect(await store.funnel.topFailureMessages('app_1', '2.0.0', 1)).to.deep.equal([{ message: 'EPERM', reports: 2 }]);
  });

  it('purges the reports received before a time, oldest first, a batch at a time', async () => {
    const report = (reportId: string, minute: number): UpdateReport => ({
      reportId, applicationId: 'app_1', customerId: 'cust_1', installId: null, fromVersion: '1.0.0', toVersion: '2.0.0',
      event: 'install_failed', message: 'EPERM', receivedAt: at(minute),
    });
    for (const r of [report('r1', 3), report('r2', 1), report('r3', 2), report('r4', 10)]) await store.funnel.insertUpdateReport(r);
    expect(await store.funnel.purgeUpdateReports(at(5), 2)).to.equal(2);
    expect(await store.funnel.countFailureReports('app_1', '2.0.0'), 'the two oldest went first').to.equal(2);
    expect(await store.funnel.purgeUpdateReports(at(5), 2)).to.equal(1);
    expect(await store.funnel.purgeUpdateReports(at(5), 2)).to.equal(0);
    expect(await store.funnel.countFailureReports('app_1', '2.0.0'), 'the one received at the bound or after stays').to.equal(1);
    expect(await rejectionOf(store.funnel.purgeUpdateReports(at(5), 0))).to.be.instanceOf(RangeError);
  });

  it('keeps old checks the adoption rollup counted until the funnel has read them too', async () => {
    await store.adoption.insertCheckEvents([checkEvent('c_1', { timestamp: at(0) }), checkEvent('c_2', { timestamp: at(1) })]);
    const batch = (await store.adoption.claimCheckBatch(10))!;
    await store.adoption.finishCheckBatch(batch.batchId, [], []);
    expect(await store.adoption.purgeCheckEvents(at(10), 10)).to.equal(0);
    const read = (await store.funnel.readFunnelChecks(1))!;
    await store.funnel.finishFunnelChecks(read.position);
    expect(await store.adoption.purgeCheckEvents(at(10), 10)).to.equal(1);
    expect((await store.funnel.readFunnelChecks(10))?.events.map((event) => event.eventId)).to.deep.equal(['c_2']);
  });

    it('folds checks into offers and arrivals once, however often a batch is folded', async () => {
    const check = (id: string, minutes: number, overrides: Partial<CheckEvent>) => checkEvent(id, { timestamp: at(minutes), ...overrides });
    await store.adoption.insertCheckEvents([
      check('c_1', 1, { installId: 'i-1', runningVersion: '1.0.0', offeredVersion: '2.0.0' }),
      check('c_2', 2, { installId: 'i-2', runningVersion: '1.0.0', offeredVersion: '2.0.0', customerId: 'cust_2', platform: 'windows' }),
      // Running an unknown version: neither an offer nor an arrival.
      check('c_3', 3, { installId: 'i-3', runningVersion: 'unknown', offeredVersion: '2.0.0' }),
      check('c_4', 4, { installId: 'i-1', runningVersion: '1.0.0', offeredVersion: '2.0.0' }),
      check('c_5', 9, { installId: 'i-1', runningVersion: '2.0.0', offeredVersion: null }),
      // No identity: its install hash stands for it.
      check('c_6', 5, { installHash: 'hash_x', runningVersion: '1.0.0', offeredVersion: '2.0.0' }),
    ]);
    expect(await foldFunnelChecks(store, 4)).to.equal(4);
    expect(await foldFunnelChecks(store, 4)).to.equal(2);
    expect(await foldFunnelChecks(store, 4)).to.equal(0);
    const expected = [
      offer('h:hash_x', at(5)),
      offer('id:i-1', at(1), { arrivedAt: at(9) }),
      offer('id:i-2', at(2), { customerId: 'cust_2', platform: 'windows' }),
    ];
    expect(await offers()).to.deep.equal(expected);
    // The same facts again (a batch folded twice): nothing changes.
    const { funnelFacts } = await import('../../../shared/rollouts/fold-funnel-checks');
    const again = funnelFacts([check('c_1', 1, { installId: 'i-1', runningVersion: '1.0.0', offeredVersion: '2.0.0' }), check('c_5', 9, { installId: 'i-1', runningVersion: '2.0.0' })]);
    await store.funnel.recordOffers(again.offers);
    await store.funnel.recordArrivals(again.arrivals);
    expect(await offers()).to.deep.equal(expected);
  });
});
