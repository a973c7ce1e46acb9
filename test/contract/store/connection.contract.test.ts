import { expect } from 'chai';
import { DependencyUnavailableError } from '../../../shared/errors';
import type { Store } from '../../../shared/store/store';
import { application, customer, downloadEvent as event } from '../../support/records';
import { rejectionOf } from '../../support/rejection';
import { describeStoreContract } from './harness';

/** What every port shares: a ping, and the outage translation once the connection is gone. */
describeStoreContract('connection', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  it('answers a ping', async () => {
    await store.ping();
  });

  it('rejects every call with DependencyUnavailableError once its connection is gone', async () => {
    await store.applications.createApplication(application('app_1'));
    await store.close();
    const calls: (() => Promise<unknown>)[] = [
      () => store.ping(),
      () => store.applications.getApplication('app_1'),
      () => store.accounts.createCustomer(customer('cust_1')),
      () => store.activity.listEvents({ limit: 10 }),
      () => store.activity.insertEvents([event('d_1')]),
      () => store.activity.rollupEvents(10),
      () => store.activity.oldestUncountedEventAt(),
    ];
    for (const call of calls) {
      const error = await rejectionOf(call());
      expect(error).to.be.instanceOf(DependencyUnavailableError);
      expect(error).to.include({ dependency: 'database' });
    }
  });
});
