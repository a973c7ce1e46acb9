import { expect } from 'chai';
import type { DistributionEvent } from '../../../shared/store/models';
import type { Store } from '../../../shared/store/store';
import { application, at, auditEntry, customer, downloadEvent as event, shareLink, uploadSession } from '../../support/records';
import { rejectionOf } from '../../support/rejection';
import { describeStoreContract } from './harness';

const ids = (items: { applicationId: string }[]) => items.map((item) => item.applicationId);

const eventIds = (events: DistributionEvent[]) => events.map((e) => e.eventId);

/** Every port refuses limits, pages and page sizes that are not whole numbers of at least 1. */
describeStoreContract('bounds on limits and pages', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  /** Not whole numbers of at least 1: a negative SQLite LIMIT would read everything, a zero page would read before the first. */
  const badCounts = [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY];

  async function expectRangeError(promise: Promise<unknown>): Promise<void> {
    expect(await rejectionOf(promise)).to.be.instanceOf(RangeError);
  }

  it('refuses a page or page size below 1 or not whole when listing applications and customers', async () => {
    await store.applications.createApplication(application('app_1'));
    await store.accounts.createCustomer(customer('cust_1'));
    for (const bad of badCounts) {
      await expectRangeError(store.applications.listApplications({ page: bad, pageSize: 10 }));
      await expectRangeError(store.applications.listApplications({ page: 1, pageSize: bad }));
      await expectRangeError(store.accounts.listCustomers(bad, 10));
      await expectRangeError(store.accounts.listCustomers(1, bad));
    }
    expect(ids((await store.applications.listApplications({ page: 1, pageSize: 1 })).items)).to.deep.equal(['app_1']);
    expect((await store.accounts.listCustomers(1, 1)).items.map((c) => c.customerId)).to.deep.equal(['cust_1']);
  });

  it('refuses a limit below 1 or not whole on every limited read, and changes nothing', async () => {
    await store.uploads.createUploadSession(uploadSession('up_1', { expiresAt: at(1) }));
    await store.shareLinks.createShareLink(shareLink('token_1', { expiresAt: at(1) }));
    await store.activity.insertEvents([event('d_1'), event('d_2', { timestamp: at(1) })]);
    await store.audit.insertAuditEntry(auditEntry('aud_1'));
    for (const bad of badCounts) {
      await expectRangeError(store.audit.listAuditEntries({ limit: bad }));
      await expectRangeError(store.uploads.listExpiredUploadSessions(at(10), bad));
      await expectRangeError(store.shareLinks.purgeShareLinks(at(10), bad));
      await expectRangeError(store.shareLinks.listShareLinks('cust_1', bad));
      await expectRangeError(store.activity.listEvents({ limit: bad }));
      await expectRangeError(store.activity.rollupEvents(bad));
      await expectRangeError(store.activity.listDownloadBreakdown('app_1', {}, bad));
    }
    expect(await store.shareLinks.getShareLink('token_1')).to.not.equal(null);
    expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([]);
    expect((await store.uploads.listExpiredUploadSessions(at(10), 1)).map((s) => s.uploadId)).to.deep.equal(['up_1']);
    expect(eventIds(await store.activity.listEvents({ limit: 1 }))).to.deep.equal(['d_2']);
    expect(await store.audit.listAuditEntries({ limit: 1 })).to.deep.equal([auditEntry('aud_1')]);
    expect(await store.activity.rollupEvents(1)).to.equal(1);
    expect(await store.shareLinks.purgeShareLinks(at(10), 1)).to.equal(1);
  });
});
