import { expect } from 'chai';
import type { RepositoryKey } from '../../../shared/store/models';
import type { Store } from '../../../shared/store/store';
import { application, at } from '../../support/records';
import { expectDuplicate } from '../../support/store-expectations';
import { describeStoreContract } from './harness';

const ids = (items: { applicationId: string }[]) => items.map((item) => item.applicationId);

/** The ApplicationStore port: applications, their customers and licence acceptances. */
describeStoreContract('applications', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  it('stores an application and returns it unchanged', async () => {
    const app = application('app_1', { description: 'Desktop client', tags: ['desktop', 'beta'], customerIds: ['cust_1'] });
    expect(await store.applications.createApplication(app)).to.deep.equal(app);
    expect(await store.applications.getApplication('app_1')).to.deep.equal(app);
    expect(await store.applications.getApplication('app_unknown')).to.equal(null);
  });

  it('keeps an application\'s licence and revision, changes them by patch, and removes the text with null, keeping the revision', async () => {
    const app = application('app_1', { licenceText: '# Terms\n\nUse it well.', licenceRevision: 1 });
    await store.applications.createApplication(app);
    expect(await store.applications.getApplication('app_1')).to.deep.equal(app);
    const revised = await store.applications.updateApplication('app_1', { licenceText: 'New terms', licenceRevision: 2 }, at(1));
    expect(revised).to.deep.equal({ ...app, licenceText: 'New terms', licenceRevision: 2, updatedAt: at(1) });
    expect(await store.applications.updateApplication('app_1', { name: 'Renamed' }, at(2))).to.deep.include({ licenceText: 'New terms', licenceRevision: 2 });
    // A licence removed keeps its revision, and no patch lowers it: revisions never go back.
    expect(await store.applications.updateApplication('app_1', { licenceText: null, licenceRevision: null }, at(3))).to.deep.include({ licenceText: null, licenceRevision: 2 });
    expect(await store.applications.getApplication('app_1')).to.deep.include({ licenceText: null, licenceRevision: 2 });
    expect(await store.applications.updateApplication('app_1', { licenceText: 'Other terms', licenceRevision: 1 }, at(4))).to.deep.include({ licenceText: 'Other terms', licenceRevision: 2 });
    expect(await store.applications.updateApplication('app_1', { licenceText: 'Third terms', licenceRevision: 3 }, at(5))).to.deep.include({ licenceText: 'Third terms', licenceRevision: 3 });
  });

  it('keeps the branding of an application: display name, accent colour and support link, set and cleared by patch', async () => {
    const app = application('app_1', { displayName: 'Studio', accentColour: '#ff8800', supportUrl: 'https://support.example.com' });
    await store.applications.createApplication(app);
    expect(await store.applications.getApplication('app_1')).to.deep.equal(app);
    expect(await store.applications.updateApplication('app_1', { accentColour: '#000000' }, at(1)))
      .to.deep.equal({ ...app, accentColour: '#000000', updatedAt: at(1) });
    expect(await store.applications.updateApplication('app_1', { displayName: null, accentColour: null, supportUrl: null }, at(2)))
      .to.deep.include({ displayName: null, accentColour: null, supportUrl: null });
  });

  it('sets, replaces and removes an application\'s logo, answering the logo each write replaced', async () => {
    const app = application('app_1');
    await store.applications.createApplication(app);
    const png = { contentType: 'image/png' as const, size: 1234, sha256: 'a'.repeat(64), updatedAt: at(1) };
    const webp = { contentType: 'image/webp' as const, size: 99, sha256: 'b'.repeat(64), updatedAt: at(2) };
    expect(await store.applications.replaceApplicationLogo('app_1', png, at(1))).to.deep.equal({ application: { ...app, logo: png, updatedAt: at(1) }, previous: null });
    expect(await store.applications.getApplication('app_1')).to.deep.equal({ ...app, logo: png, updatedAt: at(1) });
    expect((await store.applications.listApplications({ page: 1, pageSize: 10 })).items[0].logo).to.deep.equal(png);
    // Other changes keep it.
    expect(await store.applications.updateApplication('app_1', { displayName: 'Studio' }, at(2))).to.deep.include({ logo: png });
    expect(await store.applications.replaceApplicationLogo('app_1', webp, at(3))).to.deep.equal({
      application: { ...app, displayName: 'Studio', logo: webp, updatedAt: at(3) }, previous: png,
    });
    expect(await store.applications.replaceApplicationLogo('app_1', null, at(4))).to.deep.include({ previous: webp });
    expect(await store.applications.getApplication('app_1')).to.deep.include({ logo: null, updatedAt: at(4) });
    expect(await store.applications.replaceApplicationLogo('app_1', null, at(5))).to.deep.include({ previous: null });
    // Unknown and soft-deleted applications are not written.
    expect(await store.applications.replaceApplicationLogo('app_unknown', png, at(6))).to.equal(null);
    await store.applications.softDeleteApplication('app_1', at(7));
    expect(await store.applications.replaceApplicationLogo('app_1', png, at(8))).to.equal(null);
    expect(await store.applications.getApplication('app_1', { includeDeleted: true })).to.deep.include({ logo: null, updatedAt: at(7) });
  });

  it('gives each of concurrent logo replacements a different replaced logo, so each replaced one is deleted once', async () => {
    await store.applications.createApplication(application('app_1'));
    const logos = Array.from({ length: 6 }, (_, i) => ({ contentType: 'image/png' as const, size: i + 1, sha256: String(i).repeat(64), updatedAt: at(i) }));
    const replacements = await Promise.all(logos.map((logo, i) => store.applications.replaceApplicationLogo('app_1', logo, at(i))));
    const previous = replacements.map((r) => r?.previous?.sha256 ?? null);
    const final = (await store.applications.getApplication('app_1'))?.logo?.sha256;
    // A chain: every logo but the last one written was replaced exactly once, and the first write replaced none.
    expect(previous.filter((sha) => sha === null)).to.have.length(1);
    expect([...previous.filter((sha): sha is string => sha !== null), final].sort()).to.deep.equal(logos.map((l) => l.sha256).sort());
  });

  it('records licence acceptances per customer and revision, keeping the first acceptance of a revision', async () => {
    const first = { applicationId: 'app_1', customerId: 'cust_1', revision: 1, acceptedAt: at(1), clientIp: '203.0.113.7' };
    expect(await store.applications.getLicenceAcceptance('app_1', 'cust_1', 1)).to.equal(null);
    expect(await store.applications.recordLicenceAcceptance(first)).to.deep.equal(first);
    expect(await store.applications.getLicenceAcceptance('app_1', 'cust_1', 1)).to.deep.equal(first);
    // Again, at another time and from another address: the first is kept and answered.
    expect(await store.applications.recordLicenceAcceptance({ ...first, acceptedAt: at(2), clientIp: null })).to.deep.equal(first);
    // Another revision, customer or application is another acceptance.
    expect(await store.applications.getLicenceAcceptance('app_1', 'cust_1', 2)).to.equal(null);
    expect(await store.applications.getLicenceAcceptance('app_1', 'cust_2', 1)).to.equal(null);
    expect(await store.applications.getLicenceAcceptance('app_2', 'cust_1', 1)).to.equal(null);
    const second = { ...first, revision: 2, acceptedAt: at(3), clientIp: null };
    expect(await store.applications.recordLicenceAcceptance(second)).to.deep.equal(second);
    expect(await store.applications.getLicenceAcceptance('app_1', 'cust_1', 2)).to.deep.equal(second);
  });

  it('keeps one acceptance of a revision when a customer accepts it many times at once', async () => {
    const acceptances = Array.from({ length: 8 }, (_, i) => ({ applicationId: 'app_1', customerId: 'cust_1', revision: 1, acceptedAt: at(i), clientIp: `10.0.0.${i}` }));
    const recorded = await Promise.all(acceptances.map((acceptance) => store.applications.recordLicenceAcceptance(acceptance)));
    const kept = await store.applications.getLicenceAcceptance('app_1', 'cust_1', 1);
    expect(acceptances).to.deep.include(kept);
    for (const answer of recorded) expect(answer).to.deep.equal(kept);
  });

  it('refuses a second application with the same id, even while the first is soft-deleted', async () => {
    await store.applications.createApplication(application('app_1'));
    await expectDuplicate(store.applications.createApplication(application('app_1', { name: 'Other' })), 'applicationId');
    await store.applications.softDeleteApplication('app_1', at(1));
    await expectDuplicate(store.applications.createApplication(application('app_1', { name: 'Other' })), 'applicationId');
    expect((await store.applications.getApplication('app_1', { includeDeleted: true }))?.name).to.equal('Application app_1');
  });

  it('soft-deletes: hidden unless asked for, no longer updatable, and a repeated delete returns null', async () => {
    const app = application('app_1', { tags: ['desktop'] });
    await store.applications.createApplication(app);
    const deleted = await store.applications.softDeleteApplication('app_1', at(5));
    expect(deleted).to.deep.equal({ ...app, isActive: false, deletedAt: at(5), updatedAt: at(5) });
    expect(await store.applications.getApplication('app_1')).to.equal(null);
    expect(await store.applications.getApplication('app_1', { includeDeleted: true })).to.deep.equal(deleted);
    expect(await store.applications.softDeleteApplication('app_1', at(6))).to.equal(null);
    expect(await store.applications.softDeleteApplication('app_unknown', at(6))).to.equal(null);
    expect(await store.applications.updateApplication('app_1', { name: 'Renamed' }, at(7))).to.equal(null);
    expect(await store.applications.getApplication('app_1', { includeDeleted: true })).to.deep.equal(deleted);
  });

  it('restores a soft-deleted application, and only a soft-deleted one', async () => {
    const app = application('app_1');
    await store.applications.createApplication(app);
    expect(await store.applications.restoreApplication('app_1', at(1))).to.equal(null);
    expect(await store.applications.restoreApplication('app_unknown', at(1))).to.equal(null);
    await store.applications.softDeleteApplication('app_1', at(2));
    const restored = await store.applications.restoreApplication('app_1', at(3));
    expect(restored).to.deep.equal({ ...app, isActive: true, deletedAt: null, updatedAt: at(3) });
    expect(await store.applications.getApplication('app_1')).to.deep.equal(restored);
    expect(await store.applications.restoreApplication('app_1', at(4))).to.equal(null);
  });

  describe('the purge of a deleted application\'s releases', () => {
    it('starts only for an application deleted at or before the cutoff, once, and writes nothing otherwise', async () => {
      const app = application('app_1');
      await store.applications.createApplication(app);
      expect(await store.applications.startReleasePurge('app_unknown', at(10), at(11))).to.deep.equal({ outcome: 'not-found' });
      expect(await store.applications.startReleasePurge('app_1', at(10), at(11))).to.deep.equal({ outcome: 'not-deleted', application: app });
      const deleted = await store.applications.softDeleteApplication('app_1', at(5));
      expect(await store.applications.startReleasePurge('app_1', at(4), at(11))).to.deep.equal({ outcome: 'too-recent', application: deleted });
      expect(await store.applications.releasePurgeStartedAt('app_1')).to.equal(null);
      expect(await store.applications.startReleasePurge('app_1', at(5), at(12))).to.deep.equal({ outcome: 'started', application: deleted, startedAt: at(12) });
      // A repeat keeps the first mark; the application record itself is unchanged.
      expect(await store.applications.startReleasePurge('app_1', at(20), at(13))).to.deep.equal({ outcome: 'started', application: deleted, startedAt: at(12) });
      expect(await store.applications.releasePurgeStartedAt('app_1')).to.deep.equal(at(12));
      expect(await store.applications.releasePurgeStartedAt('app_unknown')).to.equal(null);
      expect(await store.applications.getApplication('app_1', { includeDeleted: true })).to.deep.equal(deleted);
    });

    it('never restores an application whose purge has started', async () => {
      await store.applications.createApplication(application('app_1'));
      const deleted = await store.applications.softDeleteApplication('app_1', at(1));
      await store.applications.startReleasePurge('app_1', at(1), at(2));
      expect(await store.applications.restoreApplication('app_1', at(3))).to.equal(null);
      expect(await store.applications.getApplication('app_1', { includeDeleted: true })).to.deep.equal(deleted);
      expect(await store.applications.getApplication('app_1')).to.equal(null);
    });
  });

  it('updates only the fields a patch sets, and always updatedAt', async () => {
    const app = application('app_1', { description: 'Old', tags: ['a'], customerIds: ['cust_1'] });
    await store.applications.createApplication(app);
    const renamed = await store.applications.updateApplication('app_1', { name: 'New name' }, at(3));
    expect(renamed).to.deep.equal({ ...app, name: 'New name', updatedAt: at(3) });
    const cleared = await store.applications.updateApplication('app_1', { description: null, tags: ['b', 'c'], customerIds: [] }, at(4));
    expect(cleared).to.deep.equal({ ...app, name: 'New name', description: null, tags: ['b', 'c'], customerIds: [], updatedAt: at(4) });
    const touched = await store.applications.updateApplication('app_1', { name: undefined }, at(5));
    expect(touched).to.deep.equal({ ...cleared, updatedAt: at(5) });
    expect(await store.applications.getApplication('app_1')).to.deep.equal(touched);
    expect(await store.applications.updateApplication('app_unknown', { name: 'x' }, at(6))).to.equal(null);
  });

  it('keeps an update-signing key given at creation, and sets, keeps and clears it by patch', async () => {
    const app = application('app_1', { updateSigningKey: 'key-one' });
    expect(await store.applications.createApplication(app)).to.deep.equal(app);
    expect(await store.applications.getApplication('app_1')).to.deep.equal(app);
    expect((await store.applications.updateApplication('app_1', { name: 'Renamed' }, at(1)))?.updateSigningKey).to.equal('key-one');
    expect((await store.applications.updateApplication('app_1', { updateSigningKey: 'key-two' }, at(2)))?.updateSigningKey).to.equal('key-two');
    expect((await store.applications.updateApplication('app_1', { updateSigningKey: null }, at(3)))?.updateSigningKey).to.equal(null);
    expect((await store.applications.getApplication('app_1'))?.updateSigningKey).to.equal(null);
  });

  it("keeps a Sparkle public key given at creation, and sets, keeps and clears it by patch, beside the update-signing key", async () => {
    const app = application('app_1', { sparklePublicKey: 'sparkle-one', updateSigningKey: 'key-one' });
    expect(await store.applications.createApplication(app)).to.deep.equal(app);
    expect(await store.applications.getApplication('app_1')).to.deep.equal(app);
    expect(await store.applications.updateApplication('app_1', { name: 'Renamed' }, at(1))).to.include({ sparklePublicKey: 'sparkle-one', updateSigningKey: 'key-one' });
    expect(await store.applications.updateApplication('app_1', { sparklePublicKey: 'sparkle-two' }, at(2))).to.include({ sparklePublicKey: 'sparkle-two', updateSigningKey: 'key-one' });
    expect(await store.applications.updateApplication('app_1', { sparklePublicKey: null }, at(3))).to.include({ sparklePublicKey: null, updateSigningKey: 'key-one' });
    expect((await store.applications.getApplication('app_1'))?.sparklePublicKey).to.equal(null);
    expect((await store.applications.listApplications({ page: 1, pageSize: 10 })).items[0].sparklePublicKey).to.equal(null);
  });

  it('keeps a replaced update-signing or Sparkle key as retired, with when; a key set again is current and no longer retired', async () => {
    await store.applications.createApplication(application('app_1', { updateSigningKey: 'minisign-old', sparklePublicKey: 'sparkle-old' }));
    const rotated = await store.applications.updateApplication('app_1', { updateSigningKey: 'minisign-new' }, at(1));
    expect(rotated).to.deep.include({ updateSigningKey: 'minisign-new', sparklePublicKey: 'sparkle-old' });
    expect(rotated?.retiredSigningKeys).to.deep.equal([{ kind: 'minisign', key: 'minisign-old', keyId: null, retiredAt: at(1) }]);
    // The same key again, or another field, retires nothing.
    expect((await store.applications.updateApplication('app_1', { updateSigningKey: 'minisign-new', name: 'Other' }, at(2)))?.retiredSigningKeys).to.have.length(1);
    await store.applications.updateApplication('app_1', { sparklePublicKey: null }, at(3));
    expect((await store.applications.getApplication('app_1'))?.retiredSigningKeys).to.deep.equal([
      { kind: 'minisign', key: 'minisign-old', keyId: null, retiredAt: at(1) },
      { kind: 'sparkle', key: 'sparkle-old', keyId: 'sparkle-old', retiredAt: at(3) },
    ]);
    // Back to the old minisign key: it is current again, and the one it replaces is retired.
    await store.applications.updateApplication('app_1', { updateSigningKey: 'minisign-old' }, at(4));
    expect(await store.applications.getApplication('app_1')).to.deep.include({
      updateSigningKey: 'minisign-old',
      retiredSigningKeys: [{ kind: 'sparkle', key: 'sparkle-old', keyId: 'sparkle-old', retiredAt: at(3) }, { kind: 'minisign', key: 'minisign-new', keyId: null, retiredAt: at(4) }],
    });
  });

  it('retires each key that concurrent key changes replace', async () => {
    await store.applications.createApplication(application('app_1', { updateSigningKey: 'k0' }));
    await Promise.all(['k1', 'k2', 'k3'].map((key, n) => store.applications.updateApplication('app_1', { updateSigningKey: key }, at(n + 1))));
    const after = await store.applications.getApplication('app_1');
    const retired = after?.retiredSigningKeys.map((key) => key.key) ?? [];
    expect([...retired, after?.updateSigningKey].sort()).to.deep.equal(['k0', 'k1', 'k2', 'k3']);
  });

  it('grants and revokes one customer, keeping the others and their order, and writes nothing when nothing changes', async () => {
    const app = application('app_1', { customerIds: ['cust_1', 'cust_2'] });
    await store.applications.createApplication(app);
    const granted = await store.applications.grantApplicationAccess('app_1', 'cust_3', at(1));
    expect(granted).to.deep.equal({ ...app, customerIds: ['cust_1', 'cust_2', 'cust_3'], updatedAt: at(1) });
    expect(await store.applications.grantApplicationAccess('app_1', 'cust_3', at(2))).to.deep.equal(granted);
    const revoked = await store.applications.revokeApplicationAccess('app_1', 'cust_2', at(3));
    expect(revoked).to.deep.equal({ ...app, customerIds: ['cust_1', 'cust_3'], updatedAt: at(3) });
    expect(await store.applications.revokeApplicationAccess('app_1', 'cust_2', at(4))).to.deep.equal(revoked);
    expect(await store.applications.getApplication('app_1')).to.deep.equal(revoked);
    const emptied = await store.applications.revokeApplicationAccess('app_1', 'cust_1', at(5));
    expect((await store.applications.revokeApplicationAccess('app_1', 'cust_3', at(6)))?.customerIds).to.deep.equal([]);
    expect(emptied?.customerIds).to.deep.equal(['cust_3']);
    expect((await store.applications.listApplications({ page: 1, pageSize: 10, customerId: 'cust_3' })).total).to.equal(0);
  });

  it("lists a customer's applications narrowed to a list of ids, none for an empty list", async () => {
    await store.applications.createApplication(application('app_1', { customerIds: ['cust_1'], createdAt: at(1) }));
    await store.applications.createApplication(application('app_2', { customerIds: ['cust_1'], createdAt: at(2) }));
    await store.applications.createApplication(application('app_3', { customerIds: ['cust_2'], createdAt: at(3) }));
    const listed = await store.applications.listApplications({ page: 1, pageSize: 10, customerId: 'cust_1', applicationIds: ['app_2', 'app_3'] });
    expect([listed.items.map((item) => item.applicationId), listed.total]).to.deep.equal([['app_2'], 1]);
    const none = await store.applications.listApplications({ page: 1, pageSize: 10, customerId: 'cust_1', applicationIds: [] });
    expect([none.items, none.total]).to.deep.equal([[], 0]);
  });

  it('lets concurrent grants and revocations of different customers all land', async () => {
    await store.applications.createApplication(application('app_1', { customerIds: ['cust_0', 'cust_1'] }));
    const granted = ['cust_2', 'cust_3', 'cust_4', 'cust_5', 'cust_6'];
    await Promise.all([
      ...granted.map((customerId, i) => store.applications.grantApplicationAccess('app_1', customerId, at(i + 1))),
      store.applications.revokeApplicationAccess('app_1', 'cust_0', at(9)),
    ]);
    expect([...((await store.applications.getApplication('app_1'))?.customerIds ?? [])].sort()).to.deep.equal(['cust_1', ...granted]);
  });

  it('grants and revokes nothing on an unknown or soft-deleted application (null)', async () => {
    const app = application('app_1', { customerIds: ['cust_1'] });
    await store.applications.createApplication(app);
    await store.applications.softDeleteApplication('app_1', at(1));
    expect(await store.applications.grantApplicationAccess('app_1', 'cust_2', at(2))).to.equal(null);
    expect(await store.applications.revokeApplicationAccess('app_1', 'cust_1', at(2))).to.equal(null);
    expect(await store.applications.grantApplicationAccess('app_unknown', 'cust_2', at(2))).to.equal(null);
    expect(await store.applications.revokeApplicationAccess('app_unknown', 'cust_1', at(2))).to.equal(null);
    expect((await store.applications.getApplication('app_1', { includeDeleted: true }))?.customerIds).to.deep.equal(['cust_1']);
  });

  it('keeps the default version status given at creation, and changes it by patch', async () => {
    const app = application('app_1', { defaultVersionStatus: 'draft' });
    expect(await store.applications.createApplication(app)).to.deep.equal(app);
    expect(await store.applications.getApplication('app_1')).to.deep.equal(app);
    expect((await store.applications.updateApplication('app_1', { name: 'Renamed' }, at(1)))?.defaultVersionStatus).to.equal('draft');
    expect((await store.applications.updateApplication('app_1', { defaultVersionStatus: 'published' }, at(2)))?.defaultVersionStatus).to.equal('published');
    expect((await store.applications.listApplications({ page: 1, pageSize: 10 })).items[0].defaultVersionStatus).to.equal('published');
  });

  it('lists in creation order (ties by id), paginated, with the total of all matches', async () => {
    for (const [id, minute] of [['app_c', 2], ['app_a', 0], ['app_d', 1], ['app_b', 1], ['app_e', 3]] as const) {
      await store.applications.createApplication(application(id, { createdAt: at(minute), updatedAt: at(minute) }));
    }
    const pages = await Promise.all([1, 2, 3, 4].map((page) => store.applications.listApplications({ page, pageSize: 2 })));
    expect(pages.map((p) => ids(p.items))).to.deep.equal([['app_a', 'app_b'], ['app_d', 'app_c'], ['app_e'], []]);
    expect(pages.map((p) => p.total)).to.deep.equal([5, 5, 5, 5]);
    expect(pages[0].items[0]).to.deep.equal(application('app_a'));
  });

  it('filters by tag and by customer, alone and together', async () => {
    await store.applications.createApplication(application('app_1', { tags: ['desktop'], customerIds: ['cust_1'], createdAt: at(1) }));
    await store.applications.createApplication(application('app_2', { tags: ['desktop', 'beta'], customerIds: ['cust_2'], createdAt: at(2) }));
    await store.applications.createApplication(application('app_3', { tags: ['mobile'], customerIds: ['cust_1', 'cust_2'], createdAt: at(3) }));
    const list = (query: { tag?: string; customerId?: string }) => store.applications.listApplications({ page: 1, pageSize: 10, ...query });
    const byTag = await list({ tag: 'desktop' });
    expect([ids(byTag.items), byTag.total]).to.deep.equal([['app_1', 'app_2'], 2]);
    const byCustomer = await list({ customerId: 'cust_2' });
    expect([ids(byCustomer.items), byCustomer.total]).to.deep.equal([['app_2', 'app_3'], 2]);
    const both = await list({ tag: 'desktop', customerId: 'cust_1' });
    expect([ids(both.items), both.total]).to.deep.equal([['app_1'], 1]);
    const none = await list({ tag: 'desk' });
    expect([ids(none.items), none.total]).to.deep.equal([[], 0]);
  });

  it('searches names and ids for a part of them, ignoring letter case and reading the text literally', async () => {
    await store.applications.createApplication(application('desk-tool', { name: 'Desk Tool', tags: ['desktop'], createdAt: at(1) }));
    await store.applications.createApplication(application('server', { name: 'Server Tool (50%)', createdAt: at(2) }));
    await store.applications.createApplication(application('notes_app', { name: 'Notes', tags: ['desktop'], createdAt: at(3) }));
    await store.applications.createApplication(application('gone', { name: 'Gone Tool', createdAt: at(4) }));
    await store.applications.softDeleteApplication('gone', at(5));
    const list = (query: { search: string; tag?: string; includeDeleted?: boolean }) => store.applications.listApplications({ page: 1, pageSize: 10, ...query });
    const results = async (query: Parameters<typeof list>[0]) => {
      const found = await list(query);
      return [ids(found.items), found.total];
    };
    expect(await results({ search: 'tOOL' })).to.deep.equal([['desk-tool', 'server'], 2]);
    expect(await results({ search: 'NOTES_' })).to.deep.equal([['notes_app'], 1]);
    expect(await results({ search: '50%)' })).to.deep.equal([['server'], 1]);
    expect(await results({ search: '.*' })).to.deep.equal([[], 0]);
    expect(await results({ search: 'e', tag: 'desktop' })).to.deep.equal([['desk-tool', 'notes_app'], 2]);
    expect(await results({ search: 'tool', includeDeleted: true })).to.deep.equal([['desk-tool', 'server', 'gone'], 3]);
  });

  it('leaves soft-deleted applications out of lists and totals unless includeDeleted', async () => {
    for (const [id, minute] of [['app_1', 1], ['app_2', 2], ['app_3', 3]] as const) {
      await store.applications.createApplication(application(id, { tags: ['desktop'], createdAt: at(minute) }));
    }
    await store.applications.softDeleteApplication('app_2', at(9));
    const live = await store.applications.listApplications({ page: 1, pageSize: 10 });
    expect([ids(live.items), live.total]).to.deep.equal([['app_1', 'app_3'], 2]);
    const all = await store.applications.listApplications({ page: 1, pageSize: 10, tag: 'desktop', includeDeleted: true });
    expect([ids(all.items), all.total]).to.deep.equal([['app_1', 'app_2', 'app_3'], 3]);
    expect(all.items[1]).to.include({ isActive: false });
    expect(all.items[1].deletedAt).to.deep.equal(at(9));
    const secondPage = await store.applications.listApplications({ page: 2, pageSize: 1 });
    expect([ids(secondPage.items), secondPage.total]).to.deep.equal([['app_3'], 2]);
  });

  it('writes an application\'s repository keys by compare-and-set on the ring\'s revision', async () => {
    const key = (fingerprint: string, retiresAt: Date | null = null): RepositoryKey => ({
      fingerprint, publicKey: `-----BEGIN PGP PUBLIC KEY BLOCK-----\n${fingerprint}`, sealedPrivateKey: `sealed.${fingerprint}`,
      algorithm: 'ed25519', origin: 'generated', createdAt: at(1), retiresAt,
    });
    expect(await store.applications.getRepositoryKeys('app_1')).to.equal(null);
    const first = await store.applications.replaceRepositoryKeys('app_1', 0, [key('AAAA')]);
    expect(first).to.deep.equal({ applicationId: 'app_1', revision: 1, keys: [key('AAAA')] });
    // A second first key loses: the ring exists.
    expect(await store.applications.replaceRepositoryKeys('app_1', 0, [key('BBBB')])).to.equal(null);
    expect(await store.applications.getRepositoryKeys('app_1')).to.deep.equal(first);
    const rotated = [key('CCCC'), key('AAAA', at(9))];
    expect(await store.applications.replaceRepositoryKeys('app_1', 1, rotated)).to.deep.equal({ applicationId: 'app_1', revision: 2, keys: rotated });
    // A writer that read revision 1 is refused, and nothing changes.
    expect(await store.applications.replaceRepositoryKeys('app_1', 1, [key('DDDD')])).to.equal(null);
    expect(await store.applications.getRepositoryKeys('app_1')).to.deep.equal({ applicationId: 'app_1', revision: 2, keys: rotated });
    expect(await store.applications.getRepositoryKeys('app_2')).to.equal(null);
  });
});
