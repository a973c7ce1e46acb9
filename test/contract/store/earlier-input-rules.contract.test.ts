import { expect } from 'chai';
import type { Store } from '../../../shared/store/store';
import { application, at, customer, downloadEvent as event, file } from '../../support/records';
import { daily } from '../../support/store-expectations';
import { describeStoreContract } from './harness';

const ids = (items: { applicationId: string }[]) => items.map((item) => item.applicationId);

/** Records written before the input rules of today read back exactly, on every port. */
describeStoreContract('records stored under earlier input rules', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  // The gateway now refuses such ids and text, but records written before must read back exactly.
  const text = 'nul\u0000 crlf\r\n cr\r c1\u0085 ls\u2028 rlo\u202E tab\t';

  it('returns ids that are object property names and text with control characters exactly as stored', async () => {
    const c = customer('__proto__', { name: text, notes: text });
    await store.accounts.createCustomer(c);
    await store.accounts.createCustomer(customer('constructor'));
    expect(await store.accounts.getCustomer('__proto__')).to.deep.equal(c);
    expect((await store.accounts.updateCustomer('__proto__', { tier: 'gold' }, at(1)))?.name).to.equal(text);
    expect(await store.accounts.findMissingCustomers(['__proto__', 'toString', 'constructor'])).to.deep.equal(['toString']);

    const app = application('constructor', { name: text, description: text, tags: [text, 'toString'], customerIds: ['__proto__'] });
    await store.applications.createApplication(app);
    expect(await store.applications.getApplication('constructor')).to.deep.equal(app);
    expect(ids((await store.applications.listApplications({ page: 1, pageSize: 10, tag: 'toString', customerId: '__proto__' })).items)).to.deep.equal(['constructor']);

    for (const version of ['..', '%', '?x', '__proto__', 'constructor']) {
      const stored = await store.versions.upsertVersion('constructor', version, { releaseNotes: text }, at(2));
      expect(await store.versions.getVersion('constructor', version)).to.deep.equal(stored);
      const f = await store.versions.insertFile(file(`f_${version}`, { applicationId: 'constructor', version, fileName: text, fileType: 'MAIN' }));
      expect(await store.versions.getFile(f.fileId)).to.deep.equal(f);
    }
    expect((await store.versions.listVersions('constructor')).map((v) => v.version)).to.have.members(['..', '%', '?x', '__proto__', 'constructor']);

    await store.activity.insertEvents([event('e_1', { applicationId: 'constructor', version: '__proto__' }), event('e_2', { applicationId: 'constructor', version: 'constructor' })]);
    await store.activity.rollupEvents(10);
    expect(await store.activity.listDailyCounts('constructor', { version: '__proto__' })).to.deep.equal([daily('constructor', '__proto__', '2026-03-01', 1)]);
  });
});
