import { expect } from 'chai';
import type { AuditEntry } from '../../../shared/store/models';
import type { AuditQuery, Store } from '../../../shared/store/store';
import { at, auditEntry } from '../../support/records';
import { expectDuplicate } from '../../support/store-expectations';
import { describeStoreContract } from './harness';

/** The AuditStore port: the audit log. */
describeStoreContract('audit log', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  const log = (query: Partial<AuditQuery> = {}) => store.audit.listAuditEntries({ limit: 100, ...query });
  const entryIds = (entries: AuditEntry[]) => entries.map((e) => e.entryId);

  it('stores an entry as given and refuses a duplicate id', async () => {
    const entry = auditEntry('aud_1', { target: null, applicationId: null });
    expect(await store.audit.insertAuditEntry(entry)).to.deep.equal(entry);
    expect(await log()).to.deep.equal([entry]);
    await expectDuplicate(store.audit.insertAuditEntry(auditEntry('aud_1', { action: 'customer.update' })), 'entryId');
  });

  it("keeps an automatic change's details as given, and none for an entry without", async () => {
    const details = {
      percentage: 5, fromPercentage: 5, reason: 'success rate 0% of 3 installs (at least 90%)',
      figures: { offered: 3, matured: 3, arrived: 0, stuck: 3, successRate: 0, failureReports: 0 },
      thresholds: { minOffered: 3, minSuccessRate: 0.9, maxFailureReports: 2 },
    };
    const halted = auditEntry('aud_1', { actor: 'rollout-plan', action: 'version.rolloutHalted', status: null, details });
    const advanced = auditEntry('aud_2', {
      timestamp: at(1), actor: 'rollout-plan', action: 'version.rolloutAdvanced', status: null,
      details: { ...details, percentage: 25, reason: null, figures: { ...details.figures, arrived: 3, stuck: 0, successRate: 1 } },
    });
    const plain = auditEntry('aud_3', { timestamp: at(2) });
    for (const entry of [halted, advanced, plain]) await store.audit.insertAuditEntry(entry);
    const listed = await store.audit.listAuditEntries({ limit: 10 });
    expect(listed).to.deep.equal([plain, advanced, halted]);
    expect(listed[0]).to.not.have.property('details');
  });

  it('settles a pending entry once, filling in a target and application only when given', async () => {
    await store.audit.insertAuditEntry(auditEntry('aud_1', { target: null, applicationId: null }));
    await store.audit.insertAuditEntry(auditEntry('aud_2'));
    await store.audit.settleAuditEntry('aud_1', { outcome: 'succeeded', status: 201, target: 'app_9', applicationId: 'app_9' });
    await store.audit.settleAuditEntry('aud_2', { outcome: 'refused', status: 404 });
    await store.audit.settleAuditEntry('aud_1', { outcome: 'failed', status: 500, target: 'other' });
    await store.audit.settleAuditEntry('aud_unknown', { outcome: 'failed', status: 500 });
    expect(await log()).to.deep.equal([
      auditEntry('aud_2', { outcome: 'refused', status: 404 }),
      auditEntry('aud_1', { outcome: 'succeeded', status: 201, target: 'app_9', applicationId: 'app_9' }),
    ]);
  });

  it('lists newest first, ties broken by entryId descending, up to the limit', async () => {
    for (const [id, minute] of [['aud_a', 1], ['aud_b', 2], ['aud_c', 2], ['aud_d', 3], ['aud_e', 0]] as const) {
      await store.audit.insertAuditEntry(auditEntry(id, { timestamp: at(minute) }));
    }
    expect(entryIds(await log())).to.deep.equal(['aud_d', 'aud_c', 'aud_b', 'aud_a', 'aud_e']);
    expect(entryIds(await log({ limit: 2 }))).to.deep.equal(['aud_d', 'aud_c']);
  });

  it('pages with a keyset position, never skipping or repeating an entry', async () => {
    const minutes = [5, 3, 3, 3, 7, 1, 3, 5, 0, 7];
    for (const [i, minute] of minutes.entries()) await store.audit.insertAuditEntry(auditEntry(`aud_${i}`, { timestamp: at(minute) }));
    const all = await log();
    const paged: AuditEntry[] = [];
    for (let page = await log({ limit: 3 }); page.length > 0;) {
      paged.push(...page);
      const last = page[page.length - 1];
      page = await log({ limit: 3, after: { timestamp: last.timestamp, entryId: last.entryId } });
    }
    expect(paged).to.deep.equal(all);
    expect(entryIds(all)).to.deep.equal(['aud_9', 'aud_4', 'aud_7', 'aud_0', 'aud_6', 'aud_3', 'aud_2', 'aud_1', 'aud_5', 'aud_8']);
  });

  it('filters by action and by application, alone, together and while paging', async () => {
    const entries = [
      auditEntry('aud_1', { timestamp: at(1) }),
      auditEntry('aud_2', { timestamp: at(2), action: 'upload.small' }),
      auditEntry('aud_3', { timestamp: at(3), applicationId: 'app_2' }),
      auditEntry('aud_4', { timestamp: at(4), applicationId: 'app_2', action: 'upload.small' }),
      auditEntry('aud_5', { timestamp: at(5) }),
      auditEntry('aud_6', { timestamp: at(6), applicationId: null, action: 'customer.create' }),
    ];
    for (const entry of entries) await store.audit.insertAuditEntry(entry);
    expect(entryIds(await log({ action: 'upload.small' }))).to.deep.equal(['aud_4', 'aud_2']);
    expect(entryIds(await log({ applicationId: 'app_1' }))).to.deep.equal(['aud_5', 'aud_2', 'aud_1']);
    expect(entryIds(await log({ applicationId: 'app_1', action: 'application.update' }))).to.deep.equal(['aud_5', 'aud_1']);
    const after = { timestamp: at(5), entryId: 'aud_5' };
    expect(entryIds(await log({ applicationId: 'app_1', action: 'application.update', after }))).to.deep.equal(['aud_1']);
    expect(entryIds(await log({ action: 'upload.small', after: { timestamp: at(4), entryId: 'aud_4' } }))).to.deep.equal(['aud_2']);
    expect(entryIds(await log({ applicationId: 'app_3' }))).to.deep.equal([]);
    expect(entryIds(await log({ action: 'customer.create' }))).to.deep.equal(['aud_6']);
  });

  it('filters by actor, by exact target and by period, alone, with other filters and while paging', async () => {
    const entries = [
      auditEntry('aud_1', { timestamp: at(1), actor: 'root', target: 'acme' }),
      auditEntry('aud_2', { timestamp: at(2), actor: 'adm_1', target: 'acme/key_1', action: 'customerKey.create' }),
      auditEntry('aud_3', { timestamp: at(3), actor: 'adm_1', target: 'acme' }),
      auditEntry('aud_4', { timestamp: at(4), actor: 'root', target: null }),
      auditEntry('aud_5', { timestamp: at(5), actor: 'adm_1', target: 'acme', action: 'customer.update' }),
    ];
    for (const entry of entries) await store.audit.insertAuditEntry(entry);
    expect(entryIds(await log({ actor: 'adm_1' }))).to.deep.equal(['aud_5', 'aud_3', 'aud_2']);
    expect(entryIds(await log({ target: 'acme' }))).to.deep.equal(['aud_5', 'aud_3', 'aud_1']);
    expect(entryIds(await log({ target: 'acme', actor: 'adm_1', action: 'customer.update' }))).to.deep.equal(['aud_5']);
    expect(entryIds(await log({ target: 'acme', after: { timestamp: at(5), entryId: 'aud_5' } }))).to.deep.equal(['aud_3', 'aud_1']);
    // The period: from included, before excluded.
    expect(entryIds(await log({ from: at(2), before: at(4) }))).to.deep.equal(['aud_3', 'aud_2']);
    expect(entryIds(await log({ actor: 'root', from: at(2) }))).to.deep.equal(['aud_4']);
    expect(entryIds(await log({ target: 'acme', before: at(3), after: { timestamp: at(3), entryId: 'aud_3' } }))).to.deep.equal(['aud_1']);
    expect(entryIds(await log({ target: 'acm' }))).to.deep.equal([]);
  });
});
