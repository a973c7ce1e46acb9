import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import mongoose, { type Connection } from 'mongoose';
import { DependencyUnavailableError, DuplicateError } from '../../shared/errors';
import type { ReleaseStatus } from '../../shared/releases/lifecycle';
import type { Platform } from '../../shared/releases/platforms';
import { newestFirst, versionOrderKey } from '../../shared/releases/version-order';
import { ALL, type AdoptionCount, type AuditEntry, type CheckEvent, type DailyCount, type DistributionEvent, type FileRecord, type TokenUse, type Version, type WebhookOutboxEntry } from '../../shared/store/models';
import { migrateDatabase } from '../../shared/store/mongo/index-migration';
import { MongoStore } from '../../shared/store/mongo/mongo-store';
import { DEFAULT_STORE_OPTIONS, type StoreOptions } from '../../shared/store/options';
import { FIRST_SCHEMA, migrateSchema, SCHEMA_VERSION } from '../../shared/store/sqlite/schema';
import { SqliteStore } from '../../shared/store/sqlite/sqlite-store';
import type { ActivityQuery, AuditQuery, Store, VersionTransition } from '../../shared/store/store';
import {
  accessToken, adminKey, apiKey, application, at, auditEntry, checkEvent, customer, downloadEvent as event, file, shareLink, uploadSession, version as versionRecord,
  webhookDelivery, webhookEndpoint,
} from '../support/records';
import { rejectionOf } from '../support/rejection';

/** The one contract every Store adapter passes; each test gets a fresh, empty store. */
interface StoreFixture {
  store: Store;
  dispose(): Promise<void>;
}

/** A fresh store; `options` as a deployment would configure them (default: the default CHANNELS). */
type StoreMaker = (options?: StoreOptions) => Promise<StoreFixture>;

async function expectRangeErrorOf(promise: Promise<unknown>): Promise<void> {
  expect(await rejectionOf(promise)).to.be.instanceOf(RangeError);
}

async function expectDuplicate(promise: Promise<unknown>, target: string): Promise<void> {
  const error = await rejectionOf(promise);
  expect(error).to.be.instanceOf(DuplicateError);
  expect((error as DuplicateError).target).to.equal(target);
}

const daily = (applicationId: string, version: string, date: string, count: number, platform: Platform = 'any'): DailyCount =>
  ({ applicationId, version, platform, date, count });
const ids = (items: { applicationId: string }[]) => items.map((item) => item.applicationId);
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

const versionNames = (versions: { version: string }[]) => versions.map((v) => v.version);

function describeStoreContract(name: string, makeStore: StoreMaker): void {
  describe(`Store contract: ${name}`, () => {
    let fixture: StoreFixture | undefined;
    let store: Store;

    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
    });

    afterEach(async () => {
      await fixture?.dispose();
      fixture = undefined;
    });

    it('answers a ping', async () => {
      await store.ping();
    });

    it('rejects every call with DependencyUnavailableError once its connection is gone', async () => {
      await store.createApplication(application('app_1'));
      await store.close();
      const calls: (() => Promise<unknown>)[] = [
        () => store.ping(),
        () => store.getApplication('app_1'),
        () => store.createCustomer(customer('cust_1')),
        () => store.listEvents({ limit: 10 }),
        () => store.insertEvents([event('d_1')]),
        () => store.rollupEvents(10),
        () => store.oldestUncountedEventAt(),
      ];
      for (const call of calls) {
        const error = await rejectionOf(call());
        expect(error).to.be.instanceOf(DependencyUnavailableError);
        expect(error).to.include({ dependency: 'database' });
      }
    });

    describe('bounds on limits and pages', () => {
      /** Not whole numbers of at least 1: a negative SQLite LIMIT would read everything, a zero page would read before the first. */
      const badCounts = [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY];

      async function expectRangeError(promise: Promise<unknown>): Promise<void> {
        expect(await rejectionOf(promise)).to.be.instanceOf(RangeError);
      }

      it('refuses a page or page size below 1 or not whole when listing applications and customers', async () => {
        await store.createApplication(application('app_1'));
        await store.createCustomer(customer('cust_1'));
        for (const bad of badCounts) {
          await expectRangeError(store.listApplications({ page: bad, pageSize: 10 }));
          await expectRangeError(store.listApplications({ page: 1, pageSize: bad }));
          await expectRangeError(store.listCustomers(bad, 10));
          await expectRangeError(store.listCustomers(1, bad));
        }
        expect(ids((await store.listApplications({ page: 1, pageSize: 1 })).items)).to.deep.equal(['app_1']);
        expect((await store.listCustomers(1, 1)).items.map((c) => c.customerId)).to.deep.equal(['cust_1']);
      });

      it('refuses a limit below 1 or not whole on every limited read, and changes nothing', async () => {
        await store.createUploadSession(uploadSession('up_1', { expiresAt: at(1) }));
        await store.createShareLink(shareLink('token_1', { expiresAt: at(1) }));
        await store.insertEvents([event('d_1'), event('d_2', { timestamp: at(1) })]);
        await store.insertAuditEntry(auditEntry('aud_1'));
        for (const bad of badCounts) {
          await expectRangeError(store.listAuditEntries({ limit: bad }));
          await expectRangeError(store.listExpiredUploadSessions(at(10), bad));
          await expectRangeError(store.purgeShareLinks(at(10), bad));
          await expectRangeError(store.listShareLinks('cust_1', bad));
          await expectRangeError(store.listEvents({ limit: bad }));
          await expectRangeError(store.rollupEvents(bad));
          await expectRangeError(store.listDownloadBreakdown('app_1', {}, bad));
        }
        expect(await store.getShareLink('token_1')).to.not.equal(null);
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal([]);
        expect((await store.listExpiredUploadSessions(at(10), 1)).map((s) => s.uploadId)).to.deep.equal(['up_1']);
        expect(eventIds(await store.listEvents({ limit: 1 }))).to.deep.equal(['d_2']);
        expect(await store.listAuditEntries({ limit: 1 })).to.deep.equal([auditEntry('aud_1')]);
        expect(await store.rollupEvents(1)).to.equal(1);
        expect(await store.purgeShareLinks(at(10), 1)).to.equal(1);
      });
    });

    describe('applications', () => {
      it('stores an application and returns it unchanged', async () => {
        const app = application('app_1', { description: 'Desktop client', tags: ['desktop', 'beta'], customerIds: ['cust_1'] });
        expect(await store.createApplication(app)).to.deep.equal(app);
        expect(await store.getApplication('app_1')).to.deep.equal(app);
        expect(await store.getApplication('app_unknown')).to.equal(null);
      });

      it('keeps an application\'s licence and revision, changes them by patch, and removes them with null', async () => {
        const app = application('app_1', { licenceText: '# Terms\n\nUse it well.', licenceRevision: 1 });
        await store.createApplication(app);
        expect(await store.getApplication('app_1')).to.deep.equal(app);
        const revised = await store.updateApplication('app_1', { licenceText: 'New terms', licenceRevision: 2 }, at(1));
        expect(revised).to.deep.equal({ ...app, licenceText: 'New terms', licenceRevision: 2, updatedAt: at(1) });
        expect(await store.updateApplication('app_1', { name: 'Renamed' }, at(2))).to.deep.include({ licenceText: 'New terms', licenceRevision: 2 });
        expect(await store.updateApplication('app_1', { licenceText: null, licenceRevision: null }, at(3))).to.deep.include({ licenceText: null, licenceRevision: null });
        expect(await store.getApplication('app_1')).to.deep.include({ licenceText: null, licenceRevision: null });
      });

      it('keeps the branding of an application: display name, accent colour and support link, set and cleared by patch', async () => {
        const app = application('app_1', { displayName: 'Studio', accentColour: '#ff8800', supportUrl: 'https://support.example.com' });
        await store.createApplication(app);
        expect(await store.getApplication('app_1')).to.deep.equal(app);
        expect(await store.updateApplication('app_1', { accentColour: '#000000' }, at(1)))
          .to.deep.equal({ ...app, accentColour: '#000000', updatedAt: at(1) });
        expect(await store.updateApplication('app_1', { displayName: null, accentColour: null, supportUrl: null }, at(2)))
          .to.deep.include({ displayName: null, accentColour: null, supportUrl: null });
      });

      it('sets, replaces and removes an application\'s logo, answering the logo each write replaced', async () => {
        const app = application('app_1');
        await store.createApplication(app);
        const png = { contentType: 'image/png' as const, size: 1234, sha256: 'a'.repeat(64), updatedAt: at(1) };
        const webp = { contentType: 'image/webp' as const, size: 99, sha256: 'b'.repeat(64), updatedAt: at(2) };
        expect(await store.replaceApplicationLogo('app_1', png, at(1))).to.deep.equal({ application: { ...app, logo: png, updatedAt: at(1) }, previous: null });
        expect(await store.getApplication('app_1')).to.deep.equal({ ...app, logo: png, updatedAt: at(1) });
        expect((await store.listApplications({ page: 1, pageSize: 10 })).items[0].logo).to.deep.equal(png);
        // Other changes keep it.
        expect(await store.updateApplication('app_1', { displayName: 'Studio' }, at(2))).to.deep.include({ logo: png });
        expect(await store.replaceApplicationLogo('app_1', webp, at(3))).to.deep.equal({
          application: { ...app, displayName: 'Studio', logo: webp, updatedAt: at(3) }, previous: png,
        });
        expect(await store.replaceApplicationLogo('app_1', null, at(4))).to.deep.include({ previous: webp });
        expect(await store.getApplication('app_1')).to.deep.include({ logo: null, updatedAt: at(4) });
        expect(await store.replaceApplicationLogo('app_1', null, at(5))).to.deep.include({ previous: null });
        // Unknown and soft-deleted applications are not written.
        expect(await store.replaceApplicationLogo('app_unknown', png, at(6))).to.equal(null);
        await store.softDeleteApplication('app_1', at(7));
        expect(await store.replaceApplicationLogo('app_1', png, at(8))).to.equal(null);
        expect(await store.getApplication('app_1', { includeDeleted: true })).to.deep.include({ logo: null, updatedAt: at(7) });
      });

      it('gives each of concurrent logo replacements a different replaced logo, so each replaced one is deleted once', async () => {
        await store.createApplication(application('app_1'));
        const logos = Array.from({ length: 6 }, (_, i) => ({ contentType: 'image/png' as const, size: i + 1, sha256: String(i).repeat(64), updatedAt: at(i) }));
        const replacements = await Promise.all(logos.map((logo, i) => store.replaceApplicationLogo('app_1', logo, at(i))));
        const previous = replacements.map((r) => r?.previous?.sha256 ?? null);
        const final = (await store.getApplication('app_1'))?.logo?.sha256;
        // A chain: every logo but the last one written was replaced exactly once, and the first write replaced none.
        expect(previous.filter((sha) => sha === null)).to.have.length(1);
        expect([...previous.filter((sha): sha is string => sha !== null), final].sort()).to.deep.equal(logos.map((l) => l.sha256).sort());
      });

      it('records licence acceptances per customer and revision, keeping the first acceptance of a revision', async () => {
        const first = { applicationId: 'app_1', customerId: 'cust_1', revision: 1, acceptedAt: at(1), clientIp: '203.0.113.7' };
        expect(await store.getLicenceAcceptance('app_1', 'cust_1', 1)).to.equal(null);
        expect(await store.recordLicenceAcceptance(first)).to.deep.equal(first);
        expect(await store.getLicenceAcceptance('app_1', 'cust_1', 1)).to.deep.equal(first);
        // Again, at another time and from another address: the first is kept and answered.
        expect(await store.recordLicenceAcceptance({ ...first, acceptedAt: at(2), clientIp: null })).to.deep.equal(first);
        // Another revision, customer or application is another acceptance.
        expect(await store.getLicenceAcceptance('app_1', 'cust_1', 2)).to.equal(null);
        expect(await store.getLicenceAcceptance('app_1', 'cust_2', 1)).to.equal(null);
        expect(await store.getLicenceAcceptance('app_2', 'cust_1', 1)).to.equal(null);
        const second = { ...first, revision: 2, acceptedAt: at(3), clientIp: null };
        expect(await store.recordLicenceAcceptance(second)).to.deep.equal(second);
        expect(await store.getLicenceAcceptance('app_1', 'cust_1', 2)).to.deep.equal(second);
      });

      it('keeps one acceptance of a revision when a customer accepts it many times at once', async () => {
        const acceptances = Array.from({ length: 8 }, (_, i) => ({ applicationId: 'app_1', customerId: 'cust_1', revision: 1, acceptedAt: at(i), clientIp: `10.0.0.${i}` }));
        const recorded = await Promise.all(acceptances.map((acceptance) => store.recordLicenceAcceptance(acceptance)));
        const kept = await store.getLicenceAcceptance('app_1', 'cust_1', 1);
        expect(acceptances).to.deep.include(kept);
        for (const answer of recorded) expect(answer).to.deep.equal(kept);
      });

      it('refuses a second application with the same id, even while the first is soft-deleted', async () => {
        await store.createApplication(application('app_1'));
        await expectDuplicate(store.createApplication(application('app_1', { name: 'Other' })), 'applicationId');
        await store.softDeleteApplication('app_1', at(1));
        await expectDuplicate(store.createApplication(application('app_1', { name: 'Other' })), 'applicationId');
        expect((await store.getApplication('app_1', { includeDeleted: true }))?.name).to.equal('Application app_1');
      });

      it('soft-deletes: hidden unless asked for, no longer updatable, and a repeated delete returns null', async () => {
        const app = application('app_1', { tags: ['desktop'] });
        await store.createApplication(app);
        const deleted = await store.softDeleteApplication('app_1', at(5));
        expect(deleted).to.deep.equal({ ...app, isActive: false, deletedAt: at(5), updatedAt: at(5) });
        expect(await store.getApplication('app_1')).to.equal(null);
        expect(await store.getApplication('app_1', { includeDeleted: true })).to.deep.equal(deleted);
        expect(await store.softDeleteApplication('app_1', at(6))).to.equal(null);
        expect(await store.softDeleteApplication('app_unknown', at(6))).to.equal(null);
        expect(await store.updateApplication('app_1', { name: 'Renamed' }, at(7))).to.equal(null);
        expect(await store.getApplication('app_1', { includeDeleted: true })).to.deep.equal(deleted);
      });

      it('restores a soft-deleted application, and only a soft-deleted one', async () => {
        const app = application('app_1');
        await store.createApplication(app);
        expect(await store.restoreApplication('app_1', at(1))).to.equal(null);
        expect(await store.restoreApplication('app_unknown', at(1))).to.equal(null);
        await store.softDeleteApplication('app_1', at(2));
        const restored = await store.restoreApplication('app_1', at(3));
        expect(restored).to.deep.equal({ ...app, isActive: true, deletedAt: null, updatedAt: at(3) });
        expect(await store.getApplication('app_1')).to.deep.equal(restored);
        expect(await store.restoreApplication('app_1', at(4))).to.equal(null);
      });

      it('updates only the fields a patch sets, and always updatedAt', async () => {
        const app = application('app_1', { description: 'Old', tags: ['a'], customerIds: ['cust_1'] });
        await store.createApplication(app);
        const renamed = await store.updateApplication('app_1', { name: 'New name' }, at(3));
        expect(renamed).to.deep.equal({ ...app, name: 'New name', updatedAt: at(3) });
        const cleared = await store.updateApplication('app_1', { description: null, tags: ['b', 'c'], customerIds: [] }, at(4));
        expect(cleared).to.deep.equal({ ...app, name: 'New name', description: null, tags: ['b', 'c'], customerIds: [], updatedAt: at(4) });
        const touched = await store.updateApplication('app_1', { name: undefined }, at(5));
        expect(touched).to.deep.equal({ ...cleared, updatedAt: at(5) });
        expect(await store.getApplication('app_1')).to.deep.equal(touched);
        expect(await store.updateApplication('app_unknown', { name: 'x' }, at(6))).to.equal(null);
      });

      it('keeps an update-signing key given at creation, and sets, keeps and clears it by patch', async () => {
        const app = application('app_1', { updateSigningKey: 'key-one' });
        expect(await store.createApplication(app)).to.deep.equal(app);
        expect(await store.getApplication('app_1')).to.deep.equal(app);
        expect((await store.updateApplication('app_1', { name: 'Renamed' }, at(1)))?.updateSigningKey).to.equal('key-one');
        expect((await store.updateApplication('app_1', { updateSigningKey: 'key-two' }, at(2)))?.updateSigningKey).to.equal('key-two');
        expect((await store.updateApplication('app_1', { updateSigningKey: null }, at(3)))?.updateSigningKey).to.equal(null);
        expect((await store.getApplication('app_1'))?.updateSigningKey).to.equal(null);
      });

      it("keeps a Sparkle public key given at creation, and sets, keeps and clears it by patch, beside the update-signing key", async () => {
        const app = application('app_1', { sparklePublicKey: 'sparkle-one', updateSigningKey: 'key-one' });
        expect(await store.createApplication(app)).to.deep.equal(app);
        expect(await store.getApplication('app_1')).to.deep.equal(app);
        expect(await store.updateApplication('app_1', { name: 'Renamed' }, at(1))).to.include({ sparklePublicKey: 'sparkle-one', updateSigningKey: 'key-one' });
        expect(await store.updateApplication('app_1', { sparklePublicKey: 'sparkle-two' }, at(2))).to.include({ sparklePublicKey: 'sparkle-two', updateSigningKey: 'key-one' });
        expect(await store.updateApplication('app_1', { sparklePublicKey: null }, at(3))).to.include({ sparklePublicKey: null, updateSigningKey: 'key-one' });
        expect((await store.getApplication('app_1'))?.sparklePublicKey).to.equal(null);
        expect((await store.listApplications({ page: 1, pageSize: 10 })).items[0].sparklePublicKey).to.equal(null);
      });

      it('grants and revokes one customer, keeping the others and their order, and writes nothing when nothing changes', async () => {
        const app = application('app_1', { customerIds: ['cust_1', 'cust_2'] });
        await store.createApplication(app);
        const granted = await store.grantApplicationAccess('app_1', 'cust_3', at(1));
        expect(granted).to.deep.equal({ ...app, customerIds: ['cust_1', 'cust_2', 'cust_3'], updatedAt: at(1) });
        expect(await store.grantApplicationAccess('app_1', 'cust_3', at(2))).to.deep.equal(granted);
        const revoked = await store.revokeApplicationAccess('app_1', 'cust_2', at(3));
        expect(revoked).to.deep.equal({ ...app, customerIds: ['cust_1', 'cust_3'], updatedAt: at(3) });
        expect(await store.revokeApplicationAccess('app_1', 'cust_2', at(4))).to.deep.equal(revoked);
        expect(await store.getApplication('app_1')).to.deep.equal(revoked);
        const emptied = await store.revokeApplicationAccess('app_1', 'cust_1', at(5));
        expect((await store.revokeApplicationAccess('app_1', 'cust_3', at(6)))?.customerIds).to.deep.equal([]);
        expect(emptied?.customerIds).to.deep.equal(['cust_3']);
        expect((await store.listApplications({ page: 1, pageSize: 10, customerId: 'cust_3' })).total).to.equal(0);
      });

      it('lets concurrent grants and revocations of different customers all land', async () => {
        await store.createApplication(application('app_1', { customerIds: ['cust_0', 'cust_1'] }));
        const granted = ['cust_2', 'cust_3', 'cust_4', 'cust_5', 'cust_6'];
        await Promise.all([
          ...granted.map((customerId, i) => store.grantApplicationAccess('app_1', customerId, at(i + 1))),
          store.revokeApplicationAccess('app_1', 'cust_0', at(9)),
        ]);
        expect([...((await store.getApplication('app_1'))?.customerIds ?? [])].sort()).to.deep.equal(['cust_1', ...granted]);
      });

      it('grants and revokes nothing on an unknown or soft-deleted application (null)', async () => {
        const app = application('app_1', { customerIds: ['cust_1'] });
        await store.createApplication(app);
        await store.softDeleteApplication('app_1', at(1));
        expect(await store.grantApplicationAccess('app_1', 'cust_2', at(2))).to.equal(null);
        expect(await store.revokeApplicationAccess('app_1', 'cust_1', at(2))).to.equal(null);
        expect(await store.grantApplicationAccess('app_unknown', 'cust_2', at(2))).to.equal(null);
        expect(await store.revokeApplicationAccess('app_unknown', 'cust_1', at(2))).to.equal(null);
        expect((await store.getApplication('app_1', { includeDeleted: true }))?.customerIds).to.deep.equal(['cust_1']);
      });

      it('keeps the default version status given at creation, and changes it by patch', async () => {
        const app = application('app_1', { defaultVersionStatus: 'draft' });
        expect(await store.createApplication(app)).to.deep.equal(app);
        expect(await store.getApplication('app_1')).to.deep.equal(app);
        expect((await store.updateApplication('app_1', { name: 'Renamed' }, at(1)))?.defaultVersionStatus).to.equal('draft');
        expect((await store.updateApplication('app_1', { defaultVersionStatus: 'published' }, at(2)))?.defaultVersionStatus).to.equal('published');
        expect((await store.listApplications({ page: 1, pageSize: 10 })).items[0].defaultVersionStatus).to.equal('published');
      });

      it('lists in creation order (ties by id), paginated, with the total of all matches', async () => {
        for (const [id, minute] of [['app_c', 2], ['app_a', 0], ['app_d', 1], ['app_b', 1], ['app_e', 3]] as const) {
          await store.createApplication(application(id, { createdAt: at(minute), updatedAt: at(minute) }));
        }
        const pages = await Promise.all([1, 2, 3, 4].map((page) => store.listApplications({ page, pageSize: 2 })));
        expect(pages.map((p) => ids(p.items))).to.deep.equal([['app_a', 'app_b'], ['app_d', 'app_c'], ['app_e'], []]);
        expect(pages.map((p) => p.total)).to.deep.equal([5, 5, 5, 5]);
        expect(pages[0].items[0]).to.deep.equal(application('app_a'));
      });

      it('filters by tag and by customer, alone and together', async () => {
        await store.createApplication(application('app_1', { tags: ['desktop'], customerIds: ['cust_1'], createdAt: at(1) }));
        await store.createApplication(application('app_2', { tags: ['desktop', 'beta'], customerIds: ['cust_2'], createdAt: at(2) }));
        await store.createApplication(application('app_3', { tags: ['mobile'], customerIds: ['cust_1', 'cust_2'], createdAt: at(3) }));
        const list = (query: { tag?: string; customerId?: string }) => store.listApplications({ page: 1, pageSize: 10, ...query });
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
        await store.createApplication(application('desk-tool', { name: 'Desk Tool', tags: ['desktop'], createdAt: at(1) }));
        await store.createApplication(application('server', { name: 'Server Tool (50%)', createdAt: at(2) }));
        await store.createApplication(application('notes_app', { name: 'Notes', tags: ['desktop'], createdAt: at(3) }));
        await store.createApplication(application('gone', { name: 'Gone Tool', createdAt: at(4) }));
        await store.softDeleteApplication('gone', at(5));
        const list = (query: { search: string; tag?: string; includeDeleted?: boolean }) => store.listApplications({ page: 1, pageSize: 10, ...query });
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
          await store.createApplication(application(id, { tags: ['desktop'], createdAt: at(minute) }));
        }
        await store.softDeleteApplication('app_2', at(9));
        const live = await store.listApplications({ page: 1, pageSize: 10 });
        expect([ids(live.items), live.total]).to.deep.equal([['app_1', 'app_3'], 2]);
        const all = await store.listApplications({ page: 1, pageSize: 10, tag: 'desktop', includeDeleted: true });
        expect([ids(all.items), all.total]).to.deep.equal([['app_1', 'app_2', 'app_3'], 3]);
        expect(all.items[1]).to.include({ isActive: false });
        expect(all.items[1].deletedAt).to.deep.equal(at(9));
        const secondPage = await store.listApplications({ page: 2, pageSize: 1 });
        expect([ids(secondPage.items), secondPage.total]).to.deep.equal([['app_3'], 2]);
      });
    });

    describe('versions', () => {
      it('upsertVersion creates a version with the patch, and the defaults for what it leaves out', async () => {
        const created = await store.upsertVersion('app_1', '1.0.0', { releaseNotes: 'First' }, at(1));
        const expected = versionRecord('app_1', '1.0.0', { releaseNotes: 'First', publishedAt: at(1), createdAt: at(1), updatedAt: at(1) });
        expect(created).to.deep.equal(expected);
        expect(await store.getVersion('app_1', '1.0.0')).to.deep.equal(expected);
        expect(await store.getVersion('app_2', '1.0.0')).to.equal(null);
      });

      it('upsertVersion on an existing version applies only the set fields and keeps createdAt', async () => {
        await store.upsertVersion('app_1', '1.0.0', { releaseNotes: 'First', requiredTier: 'gold' }, at(1));
        const updated = await store.upsertVersion('app_1', '1.0.0', { releaseNotes: undefined, requiredTier: null }, at(2));
        expect(updated).to.deep.equal(versionRecord('app_1', '1.0.0', { releaseNotes: 'First', publishedAt: at(1), createdAt: at(1), updatedAt: at(2) }));
      });

      it('updateVersion patches an existing version and never creates one', async () => {
        expect(await store.updateVersion('app_1', '1.0.0', { releaseNotes: 'x' }, at(1))).to.equal(null);
        expect(await store.getVersion('app_1', '1.0.0')).to.equal(null);
        await store.upsertVersion('app_1', '1.0.0', { releaseNotes: 'First' }, at(2));
        const updated = await store.updateVersion('app_1', '1.0.0', { requiredTier: 'silver' }, at(3));
        expect(updated).to.deep.equal(versionRecord('app_1', '1.0.0', {
          releaseNotes: 'First', requiredTier: 'silver', publishedAt: at(2), createdAt: at(2), updatedAt: at(3),
        }));
        expect(await store.getVersion('app_1', '1.0.0')).to.deep.equal(updated);
      });

      it('creates a version with the channel, rollout and initial status a call sets; an existing one keeps its status', async () => {
        const draft = await store.upsertVersion('app_1', '2.0.0-beta.1', { channel: 'beta', rolloutPercentage: 25, initialStatus: 'draft' }, at(1));
        const expected = versionRecord('app_1', '2.0.0-beta.1', {
          channel: 'beta', rolloutPercentage: 25, status: 'draft', publishedAt: null, createdAt: at(1), updatedAt: at(1),
        });
        expect(draft).to.deep.equal(expected);
        const again = await store.upsertVersion('app_1', '2.0.0-beta.1', { channel: 'rc', initialStatus: 'published' }, at(2));
        expect(again).to.deep.equal({ ...expected, channel: 'rc', updatedAt: at(2) });
        const updated = await store.updateVersion('app_1', '2.0.0-beta.1', { rolloutPercentage: 100, channel: 'stable' }, at(3));
        expect(updated).to.deep.equal({ ...expected, channel: 'stable', rolloutPercentage: 100, updatedAt: at(3) });
        expect(await store.getVersion('app_1', '2.0.0-beta.1')).to.deep.equal(updated);
      });

      it('puts a version that names no channel in the default channel it was opened with', async () => {
        const other = await makeStore({ defaultChannel: 'main' });
        try {
          expect(await other.store.upsertVersion('app_1', '1.0.0', {}, at(1))).to.include({ channel: 'main' });
          expect(await other.store.upsertVersion('app_1', '1.1.0', { channel: 'beta' }, at(1))).to.include({ channel: 'beta' });
          expect(versionNames(await other.store.listVersions('app_1', { channels: ['main'] }))).to.deep.equal(['1.0.0']);
        } finally {
          await other.dispose();
        }
      });

      it("stores a version's bundle version, minimum system version and critical flag: none by default, set on creation or by patch, kept by other changes", async () => {
        const plain = await store.upsertVersion('app_1', '1.0.0', {}, at(1));
        expect(plain).to.include({ bundleVersion: null, minimumSystemVersion: null, critical: false });
        const created = await store.upsertVersion('app_1', '2.0.0', { bundleVersion: '200', minimumSystemVersion: '11.0', critical: true }, at(1));
        expect(created).to.include({ bundleVersion: '200', minimumSystemVersion: '11.0', critical: true });
        expect(await store.upsertVersion('app_1', '2.0.0', { releaseNotes: 'Notes' }, at(2))).to.include({ bundleVersion: '200', critical: true });
        expect(await store.updateVersion('app_1', '1.0.0', { bundleVersion: '100', critical: true }, at(3))).to.include({ bundleVersion: '100', minimumSystemVersion: null, critical: true });
        const moved = await store.transitionVersion('app_1', '1.0.0', 'yanked', at(4), { critical: false, minimumSystemVersion: '10.15' });
        expect((moved as Extract<VersionTransition, { outcome: 'applied' }>).version).to.include({ bundleVersion: '100', minimumSystemVersion: '10.15', critical: false, status: 'yanked' });
        expect(await store.updateVersion('app_1', '2.0.0', { bundleVersion: null, minimumSystemVersion: null }, at(5))).to.include({ bundleVersion: null, minimumSystemVersion: null, critical: true });
        const listed = await store.listVersions('app_1');
        expect(listed.map((v) => [v.version, v.bundleVersion, v.minimumSystemVersion, v.critical])).to.deep.equal([['2.0.0', null, null, true], ['1.0.0', '100', '10.15', false]]);
        const { files: _files, ...first } = listed[1];
        expect(await store.getVersion('app_1', '1.0.0')).to.deep.equal(first);
      });

      it('refuses a rollout percentage that is not a whole number from 1 to 100, and changes nothing', async () => {
        const stored = await store.upsertVersion('app_1', '1.0.0', { rolloutPercentage: 50 }, at(1));
        for (const bad of [0, 101, 1.5, -5, Number.NaN]) {
          expect(await rejectionOf(store.upsertVersion('app_1', '2.0.0', { rolloutPercentage: bad }, at(2)))).to.be.instanceOf(RangeError);
          expect(await rejectionOf(store.updateVersion('app_1', '1.0.0', { rolloutPercentage: bad }, at(2)))).to.be.instanceOf(RangeError);
          expect(await rejectionOf(store.transitionVersion('app_1', '1.0.0', 'yanked', at(2), { rolloutPercentage: bad }))).to.be.instanceOf(RangeError);
        }
        expect(await store.listVersions('app_1')).to.deep.equal([{ ...stored, files: [] }]);
        expect(await store.updateVersion('app_1', '1.0.0', { rolloutPercentage: 1 }, at(3))).to.include({ rolloutPercentage: 1 });
      });

      describe('lifecycle', () => {
        /** A version that reached `status` by the lifecycle's own steps, last changed at(2). */
        async function versionIn(status: ReleaseStatus, name: string): Promise<Version> {
          await store.upsertVersion('app_1', name, { initialStatus: status === 'draft' ? 'draft' : 'published' }, at(1));
          const result = await store.transitionVersion('app_1', name, status, at(2));
          return (result as Extract<VersionTransition, { outcome: 'applied' }>).version;
        }

        /** Publishing, yanking and un-yanking; naming the current status is allowed and changes only the patch's fields. */
        const allowed: Record<ReleaseStatus, ReleaseStatus[]> = {
          draft: ['draft', 'published'],
          published: ['published', 'yanked'],
          yanked: ['yanked', 'published'],
        };

        it('keeps the reason a version was yanked with, and clears it when a patch says null', async () => {
          await versionIn('published', '1.0.0');
          const yanked = await store.transitionVersion('app_1', '1.0.0', 'yanked', at(3), { yankReason: 'Crashes on start' });
          expect(yanked).to.deep.include({ outcome: 'applied', from: 'published' });
          expect(await store.getVersion('app_1', '1.0.0')).to.include({ status: 'yanked', yankReason: 'Crashes on start' });
          await store.transitionVersion('app_1', '1.0.0', 'published', at(4), { yankReason: null });
          expect(await store.getVersion('app_1', '1.0.0')).to.include({ status: 'published', yankReason: null });
          expect(await store.upsertVersion('app_1', '2.0.0', {}, at(5))).to.include({ yankReason: null });
        });

        it('applies the allowed transitions and refuses every other one, changing nothing', async () => {
          const statuses: ReleaseStatus[] = ['draft', 'published', 'yanked'];
          for (const from of statuses) {
            for (const to of statuses) {
              const name = `${from}-to-${to}`;
              const before = await versionIn(from, name);
              const result = await store.transitionVersion('app_1', name, to, at(5), { releaseNotes: 'changed' });
              if (allowed[from].includes(to)) {
                expect(result, name).to.deep.equal({
                  outcome: 'applied',
                  from,
                  version: {
                    ...before, status: to, releaseNotes: 'changed', publishedAt: before.publishedAt ?? (to === 'published' ? at(5) : null), updatedAt: at(5),
                  },
                });
              } else {
                expect(result, name).to.deep.equal({ outcome: 'invalid-transition', from, to });
              }
              expect(await store.getVersion('app_1', name), name).to.deep.equal(result.outcome === 'applied' ? result.version : before);
            }
          }
        });

        it('sets publishedAt when a version is first published and keeps it through yank and un-yank', async () => {
          expect(await store.upsertVersion('app_1', '1.0.0', {}, at(1))).to.include({ status: 'published' });
          expect((await store.getVersion('app_1', '1.0.0'))?.publishedAt).to.deep.equal(at(1));
          expect((await store.upsertVersion('app_1', '2.0.0', { initialStatus: 'draft' }, at(1))).publishedAt).to.equal(null);
          expect((await store.transitionVersion('app_1', '2.0.0', 'draft', at(2), { releaseNotes: 'still a draft' }))).to.deep.include({ outcome: 'applied', from: 'draft' });
          expect((await store.getVersion('app_1', '2.0.0'))?.publishedAt).to.equal(null);
          const steps: [ReleaseStatus, Date][] = [['published', at(5)], ['yanked', at(6)], ['published', at(7)], ['yanked', at(8)]];
          for (const [to, when] of steps) {
            await store.transitionVersion('app_1', '2.0.0', to, when);
            expect(await store.getVersion('app_1', '2.0.0')).to.deep.include({ status: to, publishedAt: at(5), updatedAt: when });
          }
        });

        it('applies a patch with its transition in one write, channel and rollout included', async () => {
          await store.upsertVersion('app_1', '1.0.0', { releaseNotes: 'First' }, at(1));
          const result = await store.transitionVersion('app_1', '1.0.0', 'yanked', at(3), {
            releaseNotes: 'Broken installer', requiredTier: 'gold', channel: 'beta', rolloutPercentage: 10,
          });
          expect(result).to.deep.equal({
            outcome: 'applied',
            from: 'published',
            version: versionRecord('app_1', '1.0.0', {
              releaseNotes: 'Broken installer', requiredTier: 'gold', channel: 'beta', rolloutPercentage: 10, status: 'yanked',
              publishedAt: at(1), createdAt: at(1), updatedAt: at(3),
            }),
          });
        });

        it('answers not-found for a version or application it does not have', async () => {
          await store.upsertVersion('app_1', '1.0.0', {}, at(1));
          expect(await store.transitionVersion('app_1', '2.0.0', 'yanked', at(2))).to.deep.equal({ outcome: 'not-found' });
          expect(await store.transitionVersion('app_2', '1.0.0', 'yanked', at(2))).to.deep.equal({ outcome: 'not-found' });
          expect(await store.getVersion('app_2', '1.0.0')).to.equal(null);
        });

        it('lets one of concurrent transitions from a status apply; the others find it done', async () => {
          await store.upsertVersion('app_1', '2.0.0', { initialStatus: 'draft' }, at(0));
          const publishes = await Promise.all(Array.from({ length: 8 }, (_, i) => store.transitionVersion('app_1', '2.0.0', 'published', at(i + 1))));
          const applied = publishes.map((result) => {
            expect(result.outcome).to.equal('applied');
            return result as Extract<VersionTransition, { outcome: 'applied' }>;
          });
          const publishers = applied.filter((result) => result.from === 'draft');
          expect(publishers).to.have.length(1);
          const publishedAt = publishers[0].version.publishedAt as Date;
          expect(applied.map((result) => result.version.publishedAt)).to.deep.equal(applied.map(() => publishedAt));
          expect((await store.getVersion('app_1', '2.0.0'))?.publishedAt).to.deep.equal(publishedAt);

          const yanks = await Promise.all(Array.from({ length: 6 }, (_, i) => store.transitionVersion('app_1', '2.0.0', 'yanked', at(20 + i))));
          expect(yanks.filter((result) => result.outcome === 'applied' && result.from === 'published')).to.have.length(1);
          expect(yanks.every((result) => result.outcome === 'applied')).to.equal(true);
          expect(await store.getVersion('app_1', '2.0.0')).to.deep.include({ status: 'yanked', publishedAt });
        });
      });

      describe('listing', () => {
        it('lists versions newest first by the version order, each with its files oldest first', async () => {
          const v1 = await store.upsertVersion('app_1', '1.0.0', {}, at(1));
          const v2 = await store.upsertVersion('app_1', '2.0.0', {}, at(3));
          const v15 = await store.upsertVersion('app_1', '1.5.0', {}, at(3));
          const v110 = await store.upsertVersion('app_1', '1.10.0', {}, at(0));
          await store.upsertVersion('app_2', '9.0.0', {}, at(5));
          const fb = await store.insertFile(file('f_b', { createdAt: at(2) }));
          const fa = await store.insertFile(file('f_a', { createdAt: at(2) }));
          const fc = await store.insertFile(file('f_c', { createdAt: at(1), status: 'failed' }));
          const fd = await store.insertFile(file('f_d', { version: '2.0.0', fileType: 'MAIN' }));
          await store.insertFile(file('f_e', { applicationId: 'app_2', version: '9.0.0' }));
          expect(await store.listVersions('app_1')).to.deep.equal([
            { ...v2, files: [fd] },
            { ...v110, files: [] },
            { ...v15, files: [] },
            { ...v1, files: [fc, fa, fb] },
          ]);
          expect(await store.listVersions('app_unknown')).to.deep.equal([]);
        });

        /** SemVer with prereleases and build metadata, numeric versions that rank among them, and free-form strings below all. */
        const MIXED_VERSIONS = [
          '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1',
          '1.0.0', 'v1.0.0', '1.0.0+build.5', 'V2.0.0-rc.1', '2.0.0', '1.9.0', '1.10.0', '10.0.0',
          '1.0', '1.2', '1.2.3', '1.2.3.4', '1.2.4-alpha', '10', '2024.01.15', '2024.1.15', '2024.1.2',
          'build-812', 'nightly', '1.2-beta', 'latest-dev', '1.2.3.4.5', 'Build-9',
          // Numbers past 2^53, with and without a prerelease or build metadata.
          '99999999999999999999999.0.0-rc.1', '99999999999999999999999.0.0', '99999999999999999999999.0.0+b.7',
          '1.0.0-rc.99999999999999999999', '1.0.0-rc.100000000000000000000', '1.99999999999999999999.0-beta',
        ];

        it('lists versions of every kind inserted in any order in the order of the version comparator', async () => {
          for (const seed of [7, 42, 2026]) {
            const applicationId = `app_${seed}`;
            // A seeded order and creation times with ties, so creation time and then the string must decide some places.
            const [order] = fc.sample(fc.shuffledSubarray(MIXED_VERSIONS, { minLength: MIXED_VERSIONS.length }), { seed, numRuns: 1 });
            const [minutes] = fc.sample(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: order.length, maxLength: order.length }), { seed, numRuns: 1 });
            const stored = [];
            for (const [i, name] of order.entries()) stored.push(await store.upsertVersion(applicationId, name, {}, at(minutes[i])));
            expect(versionNames(await store.listVersions(applicationId)), `seed ${seed}`).to.deep.equal(versionNames([...stored].sort(newestFirst)));
          }
        });

        it('filters by channels and by statuses, alone and together, in the same order', async () => {
          await store.upsertVersion('app_1', '1.0.0', {}, at(1));
          await store.upsertVersion('app_1', '1.1.0', { channel: 'beta' }, at(2));
          await store.upsertVersion('app_1', '1.2.0', { channel: 'beta', initialStatus: 'draft' }, at(3));
          await store.upsertVersion('app_1', '1.3.0', { channel: 'rc' }, at(4));
          await store.transitionVersion('app_1', '1.3.0', 'yanked', at(5));
          await store.upsertVersion('app_1', '0.9.0', {}, at(0));
          await store.transitionVersion('app_1', '0.9.0', 'yanked', at(5));
          await store.upsertVersion('app_2', '1.1.0', { channel: 'beta' }, at(2));
          const beta = await store.insertFile(file('f_beta', { version: '1.1.0', fileType: 'MAIN' }));
          const draft = await store.insertFile(file('f_draft', { version: '1.2.0', fileType: 'MAIN' }));
          const list = async (filter: Parameters<Store['listVersions']>[1]) => versionNames(await store.listVersions('app_1', filter));
          expect(await list({})).to.deep.equal(['1.3.0', '1.2.0', '1.1.0', '1.0.0', '0.9.0']);
          expect(await list({ statuses: ['published'] })).to.deep.equal(['1.1.0', '1.0.0']);
          expect(await list({ statuses: ['yanked', 'draft'] })).to.deep.equal(['1.3.0', '1.2.0', '0.9.0']);
          expect(await list({ channels: ['stable', 'rc'] })).to.deep.equal(['1.3.0', '1.0.0', '0.9.0']);
          expect(await list({ channels: ['beta'], statuses: ['published', 'draft'] })).to.deep.equal(['1.2.0', '1.1.0']);
          expect(await list({ channels: ['alpha'] })).to.deep.equal([]);
          expect(await list({ channels: [] })).to.deep.equal([]);
          expect(await list({ statuses: [] })).to.deep.equal([]);
          const betas = await store.listVersions('app_1', { channels: ['beta'] });
          expect(betas.map((v) => v.files)).to.deep.equal([[draft], [beta]]);
        });
      });
    });

    describe('files', () => {
      it('stores a file and returns it unchanged', async () => {
        const pending = file('f_1', { status: 'pending', checksum: null, fileType: 'MAIN', platform: 'macos', arch: 'universal', sha512: 'c2hhNTEy' });
        expect(await store.insertFile(pending)).to.deep.equal(pending);
        expect(await store.getFile('f_1')).to.deep.equal(pending);
        expect(await store.getFile('f_unknown')).to.equal(null);
      });

      it('stores a file given without platform, arch or SHA-512 for any platform and arch, without a SHA-512', async () => {
        const { platform: _platform, arch: _arch, sha512: _sha512, sha1: _sha1, ...given } = file('f_1', { fileType: 'MAIN' });
        const stored = await store.insertFile(given);
        expect(stored).to.deep.equal(file('f_1', { fileType: 'MAIN' }));
        expect(stored).to.include({ platform: 'any', arch: 'any', sha512: null, sha1: null });
        expect(await store.getFile('f_1')).to.deep.equal(stored);
      });

      it('refuses a duplicate fileId', async () => {
        await store.insertFile(file('f_1'));
        await expectDuplicate(store.insertFile(file('f_1', { fileName: 'other.bin', version: '2.0.0' })), 'fileId');
      });

      it('refuses a second live file of the same name in one version, pending or available', async () => {
        await store.insertFile(file('f_1', { fileName: 'setup.exe', status: 'pending', checksum: null }));
        await expectDuplicate(store.insertFile(file('f_2', { fileName: 'setup.exe' })), 'fileName');
        await store.insertFile(file('f_3', { fileName: 'setup.exe', version: '2.0.0' }));
        await store.insertFile(file('f_4', { fileName: 'setup.exe', applicationId: 'app_2' }));
        await expectDuplicate(store.insertFile(file('f_5', { fileName: 'setup.exe', version: '2.0.0', status: 'pending' })), 'fileName');
        await expectDuplicate(store.insertFile(file('f_6', { fileName: 'setup.exe', platform: 'windows', arch: 'x64' })), 'fileName');
        expect(await store.getFile('f_2')).to.equal(null);
      });

      it('refuses a second live MAIN file in one version', async () => {
        await store.insertFile(file('f_1', { fileName: 'app.exe', fileType: 'MAIN' }));
        await expectDuplicate(store.insertFile(file('f_2', { fileName: 'app-v2.exe', fileType: 'MAIN', status: 'pending' })), 'mainFile');
        await store.insertFile(file('f_3', { fileName: 'readme.pdf', fileType: 'DOCUMENTATION' }));
        await store.insertFile(file('f_4', { fileName: 'app-v2.exe', fileType: 'MAIN', version: '2.0.0' }));
      });

      it('holds one live MAIN file per platform and arch in a version', async () => {
        const targets: [Platform, FileRecord['arch']][] = [['windows', 'x64'], ['windows', 'arm64'], ['macos', 'universal'], ['macos', 'arm64'], ['linux', 'x64'], ['any', 'any'], ['linux', 'any']];
        for (const [platform, arch] of targets) {
          await store.insertFile(file(`f_${platform}_${arch}`, { fileName: `app-${platform}-${arch}`, fileType: 'MAIN', platform, arch }));
        }
        await expectDuplicate(store.insertFile(file('f_again', { fileName: 'app-again.exe', fileType: 'MAIN', platform: 'windows', arch: 'x64' })), 'mainFile');
        await expectDuplicate(store.insertFile(file('f_any', { fileName: 'app-any.zip', fileType: 'MAIN', status: 'pending' })), 'mainFile');
        // The same target in another version, or a file of another type, is another slot.
        await store.insertFile(file('f_v2', { fileName: 'app.exe', fileType: 'MAIN', platform: 'windows', arch: 'x64', version: '2.0.0' }));
        await store.insertFile(file('f_sig', { fileName: 'app.exe.sig', fileType: 'SIGNATURE', platform: 'windows', arch: 'x64' }));
        // A failed MAIN file releases its slot.
        expect(await store.setFileStatus('f_windows_x64', 'available', 'failed', null, at(1))).to.include({ status: 'failed' });
        await store.insertFile(file('f_again', { fileName: 'app-again.exe', fileType: 'MAIN', platform: 'windows', arch: 'x64' }));
      });

      it('reports a MAIN file that collides on both its name and the MAIN slot as a mainFile duplicate', async () => {
        await store.insertFile(file('f_1', { fileName: 'app.exe', fileType: 'MAIN' }));
        await expectDuplicate(store.insertFile(file('f_2', { fileName: 'app.exe', fileType: 'MAIN' })), 'mainFile');
        await store.insertFile(file('f_3', { fileName: 'app.dmg', fileType: 'MAIN', platform: 'macos', arch: 'arm64' }));
        await expectDuplicate(store.insertFile(file('f_4', { fileName: 'app.dmg', fileType: 'MAIN', platform: 'macos', arch: 'arm64' })), 'mainFile');
        await expectDuplicate(store.insertFile(file('f_5', { fileName: 'app.dmg', fileType: 'MAIN', platform: 'macos', arch: 'x64' })), 'fileName');
      });

      it('lets a failed file release its name and its MAIN slot', async () => {
        await store.insertFile(file('f_1', { fileName: 'app.exe', fileType: 'MAIN', status: 'pending', checksum: null }));
        expect(await store.setFileStatus('f_1', 'pending', 'failed', null, at(2))).to.include({ status: 'failed' });
        await store.insertFile(file('f_2', { fileName: 'app.exe', fileType: 'MAIN' }));
        await store.insertFile(file('f_3', { fileName: 'app.exe', fileType: 'MAIN', status: 'failed' }));
        await expectDuplicate(store.insertFile(file('f_4', { fileName: 'other.exe', fileType: 'MAIN' })), 'mainFile');
        await expectDuplicate(store.insertFile(file('f_5', { fileName: 'app.exe' })), 'fileName');
      });

      it('moves a file between statuses only from the expected one (compare-and-set)', async () => {
        const pending = file('f_1', { status: 'pending', checksum: null });
        await store.insertFile(pending);
        expect(await store.setFileStatus('f_1', 'available', 'failed', null, at(1))).to.equal(null);
        expect(await store.getFile('f_1')).to.deep.equal(pending);
        const available = await store.setFileStatus('f_1', 'pending', 'available', 'sha256:abc', at(4));
        expect(available).to.deep.equal({ ...pending, status: 'available', checksum: 'sha256:abc', updatedAt: at(4) });
        expect(await store.setFileStatus('f_1', 'pending', 'available', 'sha256:def', at(5))).to.equal(null);
        const failed = await store.setFileStatus('f_1', 'available', 'failed', null, at(6));
        expect(failed).to.deep.equal({ ...pending, status: 'failed', checksum: 'sha256:abc', updatedAt: at(6) });
        expect(await store.getFile('f_1')).to.deep.equal(failed);
        expect(await store.setFileStatus('f_unknown', 'pending', 'available', null, at(7))).to.equal(null);
      });

      describe('publishing an uploaded file', () => {
        const digests = { checksum: `sha256:${'cd'.repeat(32)}`, sha512: 'c2hhNTEyIG9mIHRoZSBieXRlcw==', sha1: 'ab'.repeat(20) };
        const pendingFile = (fileId: string, overrides: Partial<FileRecord> = {}) =>
          file(fileId, { status: 'pending', checksum: null, fileType: 'MAIN', ...overrides });

        it('makes the pending file available with its digests and creates its version with the upload\'s fields', async () => {
          const pending = await store.insertFile(pendingFile('f_1', { platform: 'windows', arch: 'x64' }));
          const result = await store.publishFile('f_1', {
            ...digests, release: { releaseNotes: 'Beta notes', requiredTier: 'gold', channel: 'beta', status: 'draft' },
          }, at(2));
          const version = versionRecord('app_1', '1.0.0', {
            releaseNotes: 'Beta notes', requiredTier: 'gold', channel: 'beta', status: 'draft', publishedAt: null, createdAt: at(2), updatedAt: at(2),
          });
          const published = { ...pending, status: 'available' as const, ...digests, updatedAt: at(2) };
          expect(result).to.deep.equal({ outcome: 'published', file: published, version });
          expect(await store.getFile('f_1')).to.deep.equal(published);
          expect(await store.getVersion('app_1', '1.0.0')).to.deep.equal(version);
        });

        it('creates a version that the upload names nothing of in the default channel, published', async () => {
          await store.insertFile(pendingFile('f_1'));
          const result = await store.publishFile('f_1', { ...digests, release: {} }, at(2));
          expect(result.outcome === 'published' && result.version).to.deep.equal(
            versionRecord('app_1', '1.0.0', { publishedAt: at(2), createdAt: at(2), updatedAt: at(2) }));
        });

        it("creates a version the upload names no status of with the application's default (createdStatus), and never checks an existing version against it", async () => {
          await store.insertFile(pendingFile('f_1'));
          const drafted = await store.publishFile('f_1', { ...digests, release: { createdStatus: 'draft' } }, at(2));
          expect(drafted.outcome === 'published' && drafted.version).to.deep.include({ status: 'draft', publishedAt: null });
          await store.insertFile(pendingFile('f_2', { version: '2.0.0' }));
          const named = await store.publishFile('f_2', { ...digests, release: { status: 'published', createdStatus: 'draft' } }, at(3));
          expect(named.outcome === 'published' && named.version).to.deep.include({ status: 'published', publishedAt: at(3) });
          await store.insertFile(pendingFile('f_3', { version: '2.0.0', fileType: 'OTHER' }));
          const added = await store.publishFile('f_3', { ...digests, release: { createdStatus: 'draft' } }, at(4));
          expect(added.outcome === 'published' && added.version).to.deep.include({ status: 'published' });
        });

        it('writes the notes and tier to an existing version, never its channel or status', async () => {
          await store.upsertVersion('app_1', '1.0.0', { releaseNotes: 'Old', channel: 'rc', initialStatus: 'draft' }, at(1));
          await store.insertFile(pendingFile('f_1'));
          await store.insertFile(pendingFile('f_2', { fileType: 'SIGNATURE' }));
          const named = await store.publishFile('f_1', { ...digests, release: { releaseNotes: 'New', channel: 'rc', status: 'draft' } }, at(2));
          expect(named.outcome === 'published' && named.version).to.deep.include({ releaseNotes: 'New', channel: 'rc', status: 'draft', createdAt: at(1) });
          const unnamed = await store.publishFile('f_2', { ...digests, release: { requiredTier: 'gold' } }, at(3));
          expect(unnamed.outcome === 'published' && unnamed.version).to.deep.include({ releaseNotes: 'New', requiredTier: 'gold', channel: 'rc', status: 'draft' });
        });

        it('refuses, writing nothing, when the version exists in another channel or status than the upload names', async () => {
          const existing = await store.upsertVersion('app_1', '1.0.0', { releaseNotes: 'Old' }, at(1));
          const pending = await store.insertFile(pendingFile('f_1'));
          for (const release of [{ channel: 'beta' }, { status: 'draft' as const }, { channel: 'stable', status: 'draft' as const }]) {
            const result = await store.publishFile('f_1', { ...digests, release: { ...release, releaseNotes: 'Refused', requiredTier: 'gold' } }, at(2));
            expect(result, JSON.stringify(release)).to.deep.equal({ outcome: 'version-differs', version: existing });
          }
          expect(await store.getFile('f_1')).to.deep.equal(pending);
          expect(await store.getVersion('app_1', '1.0.0')).to.deep.equal(existing);
        });

        it('writes nothing for a file that failed meanwhile or does not exist: the version is neither created nor changed', async () => {
          await store.insertFile(pendingFile('f_new', { version: '2.0.0' }));
          await store.setFileStatus('f_new', 'pending', 'failed', null, at(1));
          const failed = await store.getFile('f_new');
          const refused = { ...digests, release: { releaseNotes: 'Refused', requiredTier: 'gold' } };
          expect(await store.publishFile('f_new', refused, at(2))).to.deep.equal({ outcome: 'not-pending', file: failed });
          expect(await store.getVersion('app_1', '2.0.0')).to.equal(null);
          expect(await store.getFile('f_new')).to.deep.equal(failed);

          const existing = await store.upsertVersion('app_1', '1.0.0', { releaseNotes: 'Old' }, at(1));
          await store.insertFile(pendingFile('f_old'));
          await store.setFileStatus('f_old', 'pending', 'failed', null, at(1));
          expect(await store.publishFile('f_old', refused, at(2))).to.include({ outcome: 'not-pending' });
          expect(await store.getVersion('app_1', '1.0.0')).to.deep.equal(existing);
          expect(await store.publishFile('f_unknown', refused, at(2))).to.deep.equal({ outcome: 'not-pending', file: null });
        });

        it('repeated for an available file, keeps its digests and applies the version fields again', async () => {
          await store.insertFile(pendingFile('f_1'));
          const first = await store.publishFile('f_1', { ...digests, release: { releaseNotes: 'Notes' } }, at(2));
          await store.updateVersion('app_1', '1.0.0', { releaseNotes: 'Changed' }, at(3));
          const again = await store.publishFile('f_1', { checksum: `sha256:${'ef'.repeat(32)}`, sha512: 'b3RoZXI=', sha1: 'ef'.repeat(20), release: { releaseNotes: 'Notes' } }, at(4));
          expect(again.outcome === 'published' && again.file).to.deep.equal(first.outcome === 'published' && first.file);
          expect(await store.getVersion('app_1', '1.0.0')).to.deep.include({ releaseNotes: 'Notes', updatedAt: at(4) });
        });

        it('of two publications racing for one file, both see it published once', async () => {
          await store.insertFile(pendingFile('f_1'));
          const results = await Promise.all([1, 2].map((n) => store.publishFile('f_1', { ...digests, release: { releaseNotes: `racer ${n}` } }, at(n))));
          expect(results.map((result) => result.outcome)).to.deep.equal(['published', 'published']);
          expect(await store.getFile('f_1')).to.include({ status: 'available', sha512: digests.sha512 });
        });
      });

      describe('signature problems', () => {
        it("records why a signature no longer verifies, and clears it, without touching anything else; lists it with its version's files", async () => {
          await store.upsertVersion('app_1', '1.0.0', {}, at(1));
          const stored = await store.insertFile(file('f_sig', { fileType: 'SIGNATURE', updatedAt: at(3) }));
          expect(stored.signatureProblem).to.equal(null);
          const problem = 'the update signature does not verify against app.tar.gz: made with key 0123456789ABCDEF';
          expect(await store.setSignatureProblem('f_sig', problem)).to.deep.equal({ ...stored, signatureProblem: problem });
          expect(await store.getFile('f_sig')).to.deep.equal({ ...stored, signatureProblem: problem });
          expect((await store.listVersions('app_1'))[0].files).to.deep.equal([{ ...stored, signatureProblem: problem }]);
          expect(await store.setSignatureProblem('f_sig', null)).to.deep.equal(stored);
          expect(await store.getFile('f_sig')).to.deep.equal(stored);
          expect(await store.setSignatureProblem('f_unknown', problem)).to.equal(null);
        });
      });

      describe('digests', () => {
        it('records a SHA-512 and a SHA-1 beside the checksum without touching anything else', async () => {
          const stored = await store.insertFile(file('f_1', { updatedAt: at(3) }));
          const digests = { sha512: 'ZGlnZXN0', sha1: '0a'.repeat(20) };
          expect(await store.setFileDigests('f_1', digests)).to.deep.equal({ ...stored, ...digests });
          expect(await store.getFile('f_1')).to.deep.equal({ ...stored, ...digests });
          expect(await store.setFileDigests('f_unknown', digests)).to.equal(null);
        });

        it('pages through the available files without a SHA-512 or a SHA-1 by fileId, resuming after the last one given', async () => {
          await store.insertFile(file('f_06'));
          await store.insertFile(file('f_01'));
          await store.insertFile(file('f_02', { sha512: 'ZG9uZQ==', sha1: '02'.repeat(20) }));
          // A file stored when only SHA-512 was kept still lacks its SHA-1.
          await store.insertFile(file('f_09', { sha512: 'ZG9uZQ==' }));
          await store.insertFile(file('f_03', { applicationId: 'app_2' }));
          await store.insertFile(file('f_04', { version: '2.0.0' }));
          await store.insertFile(file('f_05', { status: 'pending', checksum: null }));
          await store.insertFile(file('f_07', { status: 'failed' }));
          await store.insertFile(file('f_08'));
          const page = async (limit: number, after?: string) => (await store.listFilesMissingDigests(limit, after)).map((f) => f.fileId);
          expect(await page(2)).to.deep.equal(['f_01', 'f_03']);
          await store.setFileDigests('f_01', { sha512: 'MDE=', sha1: '01'.repeat(20) });
          await store.setFileDigests('f_03', { sha512: 'MDM=', sha1: '03'.repeat(20) });
          expect(await page(2, 'f_03')).to.deep.equal(['f_04', 'f_06']);
          // A backfill restarted after f_04 picks up where it stopped.
          expect(await page(2, 'f_04')).to.deep.equal(['f_06', 'f_08']);
          expect(await page(2, 'f_08')).to.deep.equal(['f_09']);
          expect(await page(2, 'f_09')).to.deep.equal([]);
          expect(await page(10)).to.deep.equal(['f_04', 'f_06', 'f_08', 'f_09']);
          expect(await store.listFilesMissingDigests(1)).to.deep.equal([file('f_04', { version: '2.0.0' })]);
          for (const bad of [0, -1, 1.5]) expect(await rejectionOf(store.listFilesMissingDigests(bad))).to.be.instanceOf(RangeError);
        });

        it('lists a file once it is available, and no more once it has its digest', async () => {
          await store.insertFile(file('f_1', { status: 'pending', checksum: null }));
          expect(await store.listFilesMissingDigests(10)).to.deep.equal([]);
          await store.setFileStatus('f_1', 'pending', 'available', 'sha256:abc', at(1));
          expect((await store.listFilesMissingDigests(10)).map((f) => f.fileId)).to.deep.equal(['f_1']);
          await store.setFileDigests('f_1', { sha512: 'ZGlnZXN0', sha1: '0a'.repeat(20) });
          expect(await store.listFilesMissingDigests(10)).to.deep.equal([]);
        });
      });
    });

    describe('deleting versions and files', () => {
      it('deletes a draft version with every file record it has, and refuses a published or yanked one', async () => {
        await store.upsertVersion('app_1', '1.0.0', { initialStatus: 'draft' }, at(1));
        const main = await store.insertFile(file('f_1', { fileType: 'MAIN', createdAt: at(1) }));
        const failed = await store.insertFile(file('f_2', { status: 'failed', createdAt: at(2) }));
        const pending = await store.insertFile(file('f_3', { status: 'pending', checksum: null, createdAt: at(3) }));
        await store.insertFile(file('f_other', { version: '2.0.0' }));
        const draft = await store.getVersion('app_1', '1.0.0');
        expect(await store.deleteVersion('app_1', '1.0.0')).to.deep.equal({ outcome: 'deleted', version: draft, files: [main, failed, pending] });
        expect(await store.getVersion('app_1', '1.0.0')).to.equal(null);
        expect(await Promise.all(['f_1', 'f_2', 'f_3'].map((id) => store.getFile(id)))).to.deep.equal([null, null, null]);
        expect(await store.getFile('f_other')).to.not.equal(null);
        expect(await store.deleteVersion('app_1', '1.0.0')).to.deep.equal({ outcome: 'not-found' });
        // Its name and MAIN slot are free again.
        await store.insertFile(file('f_4', { fileType: 'MAIN', fileName: 'f_1.bin' }));

        const published = await store.upsertVersion('app_1', '3.0.0', {}, at(4));
        await store.insertFile(file('f_5', { version: '3.0.0' }));
        expect(await store.deleteVersion('app_1', '3.0.0')).to.deep.equal({ outcome: 'not-draft', version: published });
        const yanked = await store.transitionVersion('app_1', '3.0.0', 'yanked', at(5));
        expect(await store.deleteVersion('app_1', '3.0.0')).to.deep.equal({ outcome: 'not-draft', version: yanked.outcome === 'applied' && yanked.version });
        expect(await store.getFile('f_5')).to.not.equal(null);
      });

      it('deletes a failed file anywhere and an available one of a draft; refuses a pending one and a shipped one', async () => {
        await store.upsertVersion('app_1', '1.0.0', { initialStatus: 'draft' }, at(1));
        await store.upsertVersion('app_1', '2.0.0', {}, at(1));
        const draftFile = await store.insertFile(file('f_draft'));
        const shipped = await store.insertFile(file('f_shipped', { version: '2.0.0' }));
        const failed = await store.insertFile(file('f_failed', { version: '2.0.0', status: 'failed' }));
        const pending = await store.insertFile(file('f_pending', { status: 'pending', checksum: null }));
        expect(await store.deleteFile('f_draft')).to.deep.equal({ outcome: 'deleted', file: draftFile });
        expect(await store.deleteFile('f_failed')).to.deep.equal({ outcome: 'deleted', file: failed });
        expect(await store.deleteFile('f_pending')).to.deep.equal({ outcome: 'refused', file: pending, reason: 'pending' });
        expect(await store.deleteFile('f_shipped')).to.deep.equal({ outcome: 'refused', file: shipped, reason: 'published' });
        await store.transitionVersion('app_1', '2.0.0', 'yanked', at(2));
        expect(await store.deleteFile('f_shipped')).to.deep.equal({ outcome: 'refused', file: shipped, reason: 'yanked' });
        expect(await store.deleteFile('f_draft')).to.deep.equal({ outcome: 'not-found' });
        expect((await store.listVersions('app_1')).map((v) => [v.version, v.files.map((f) => f.fileId)])).to.deep.equal([
          ['2.0.0', ['f_shipped']], ['1.0.0', ['f_pending']],
        ]);
      });
    });

    describe('customers', () => {
      it('stores a customer and refuses a duplicate id', async () => {
        const c = customer('cust_1', { notes: 'Key account', tier: 'gold' });
        expect(await store.createCustomer(c)).to.deep.equal(c);
        expect(await store.getCustomer('cust_1')).to.deep.equal(c);
        expect(await store.getCustomer('cust_unknown')).to.equal(null);
        await expectDuplicate(store.createCustomer(customer('cust_1', { name: 'Other' })), 'customerId');
      });

      it('lists customers in creation order (ties by id), paginated, with the total', async () => {
        for (const [id, minute] of [['cust_c', 2], ['cust_b', 1], ['cust_a', 1]] as const) {
          await store.createCustomer(customer(id, { createdAt: at(minute) }));
        }
        const first = await store.listCustomers(1, 2);
        const second = await store.listCustomers(2, 2);
        expect(first.items.map((c) => c.customerId)).to.deep.equal(['cust_a', 'cust_b']);
        expect(second.items.map((c) => c.customerId)).to.deep.equal(['cust_c']);
        expect([first.total, second.total]).to.deep.equal([3, 3]);
        expect(first.items[0]).to.deep.equal(customer('cust_a', { createdAt: at(1) }));
      });

      it('finds customers by a prefix of their id or name, letters compared without case, wildcards taken literally', async () => {
        await store.createCustomer(customer('cust_acme', { name: 'Acme Corp', createdAt: at(1) }));
        await store.createCustomer(customer('cust_beta', { name: 'acme labs', createdAt: at(2) }));
        await store.createCustomer(customer('cust_gamma', { name: 'Gamma 100%_ done', createdAt: at(3) }));
        await store.createCustomer(customer('CUST_delta', { name: 'Delta (test)', createdAt: at(4) }));
        const found = async (search: string, page = 1, pageSize = 10) => {
          const result = await store.listCustomers(page, pageSize, search);
          return { ids: result.items.map((c) => c.customerId), total: result.total };
        };
        expect(await found('ACME')).to.deep.equal({ ids: ['cust_acme', 'cust_beta'], total: 2 });
        expect(await found('acme', 2, 1)).to.deep.equal({ ids: ['cust_beta'], total: 2 });
        expect(await found('cust_g')).to.deep.equal({ ids: ['cust_gamma'], total: 1 });
        expect(await found('cust_')).to.deep.equal({ ids: ['cust_acme', 'cust_beta', 'cust_gamma', 'CUST_delta'], total: 4 });
        // Not a substring, and SQL and pattern wildcards match only themselves.
        expect(await found('Corp')).to.deep.equal({ ids: [], total: 0 });
        expect(await found('Gamma 100%_')).to.deep.equal({ ids: ['cust_gamma'], total: 1 });
        expect(await found('%')).to.deep.equal({ ids: [], total: 0 });
        expect(await found('cust.')).to.deep.equal({ ids: [], total: 0 });
        expect(await found('Delta (')).to.deep.equal({ ids: ['CUST_delta'], total: 1 });
        expect(await found('.*')).to.deep.equal({ ids: [], total: 0 });
      });

      it('updates only the fields a patch sets, and always updatedAt', async () => {
        const c = customer('cust_1', { notes: 'Note' });
        await store.createCustomer(c);
        const renamed = await store.updateCustomer('cust_1', { name: 'Renamed' }, at(2));
        expect(renamed).to.deep.equal({ ...c, name: 'Renamed', updatedAt: at(2) });
        const changed = await store.updateCustomer('cust_1', { isActive: false, notes: null, tier: 'gold' }, at(3));
        expect(changed).to.deep.equal({ ...c, name: 'Renamed', isActive: false, notes: null, tier: 'gold', updatedAt: at(3) });
        expect(await store.getCustomer('cust_1')).to.deep.equal(changed);
        expect(await store.updateCustomer('cust_unknown', { name: 'x' }, at(4))).to.equal(null);
      });

      it('reports which of the given customer ids do not exist, once each', async () => {
        await store.createCustomer(customer('cust_1'));
        await store.createCustomer(customer('cust_2'));
        expect(await store.findMissingCustomers(['cust_1', 'cust_x', 'cust_2', 'cust_x', 'cust_y'])).to.deep.equal(['cust_x', 'cust_y']);
        expect(await store.findMissingCustomers(['cust_2'])).to.deep.equal([]);
        expect(await store.findMissingCustomers([])).to.deep.equal([]);
      });
    });

    describe('deleting a customer', () => {
      it('deletes the record and its licence acceptances, revokes its keys, access tokens and share links, leaves applications, anonymises its activity and keeps its counts', async () => {
        await store.createCustomer(customer('cust_1'));
        await store.createCustomer(customer('cust_2'));
        await store.createApiKey(apiKey('key_1', { customerId: 'cust_1', keyHash: 'h1' }));
        await store.createApiKey(apiKey('key_2', { customerId: 'cust_1', keyHash: 'h2', revokedAt: at(1) }));
        await store.createApiKey(apiKey('key_3', { customerId: 'cust_2', keyHash: 'h3' }));
        await store.createShareLink(shareLink('token_1', { customerId: 'cust_1' }));
        await store.createShareLink(shareLink('token_2', { customerId: 'cust_2' }));
        await store.createAccessToken(accessToken('tok_1', { customerId: 'cust_1' }));
        await store.createAccessToken(accessToken('tok_2', { customerId: 'cust_2' }));
        await store.createApplication(application('app_1', { customerIds: ['cust_2', 'cust_1', 'cust_3'] }));
        await store.createApplication(application('app_2', { customerIds: ['cust_2'] }));
        const acceptance = (applicationId: string, customerId: string, revision: number) => ({ applicationId, customerId, revision, acceptedAt: at(1), clientIp: null });
        for (const accepted of [acceptance('app_1', 'cust_1', 1), acceptance('app_1', 'cust_1', 2), acceptance('app_2', 'cust_1', 1), acceptance('app_1', 'cust_2', 1)]) {
          await store.recordLicenceAcceptance(accepted);
        }
        await store.insertEvents([
          event('d_1', { customerId: 'cust_1', timestamp: at(2) }),
          event('d_2', { customerId: 'cust_2', timestamp: at(3) }),
          event('d_3', { customerId: 'cust_1', timestamp: at(4) }),
        ]);
        await store.rollupEvents(10);

        const deleted = await store.deleteCustomer('cust_1', at(10));
        expect(deleted).to.deep.equal({ customer: customer('cust_1'), revokedKeys: 1, revokedShareLinks: 1, anonymisedEvents: 2 });
        expect(await store.getCustomer('cust_1')).to.equal(null);
        expect(await store.listApiKeys('cust_1')).to.deep.equal([]);
        expect(await store.findApiKeyByHash('h1')).to.deep.include({ revokedAt: at(10) });
        expect(await store.findApiKeyByHash('h2')).to.deep.include({ revokedAt: at(1) });
        expect(await store.findApiKeyByHash('h3')).to.deep.include({ revokedAt: null });
        expect(await store.getShareLink('token_1')).to.deep.include({ revokedAt: at(10) });
        expect(await store.getShareLink('token_2')).to.deep.include({ revokedAt: null });
        expect(await store.findAccessTokenByHash('hash-tok_1')).to.deep.include({ revokedAt: at(10) });
        expect(await store.findAccessTokenByHash('hash-tok_2')).to.deep.include({ revokedAt: null });
        expect(await store.getApplication('app_1')).to.deep.include({ customerIds: ['cust_2', 'cust_3'], updatedAt: at(10) });
        expect(await store.getApplication('app_2')).to.deep.include({ customerIds: ['cust_2'], updatedAt: at(0) });
        const events = await store.listEvents({ limit: 10 });
        expect(events.map((e) => [e.eventId, e.customerId, e.clientIp, e.userAgent])).to.deep.equal([
          ['d_3', null, null, null], ['d_2', 'cust_2', '203.0.113.7', event('d_2').userAgent], ['d_1', null, null, null],
        ]);
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.0.0', at(0).toISOString().slice(0, 10), 3)]);
        // Its licence acceptances go with it (a customer created again with its id accepts again); others' stay.
        expect(await store.getLicenceAcceptance('app_1', 'cust_1', 1)).to.equal(null);
        expect(await store.getLicenceAcceptance('app_1', 'cust_1', 2)).to.equal(null);
        expect(await store.getLicenceAcceptance('app_2', 'cust_1', 1)).to.equal(null);
        expect(await store.getLicenceAcceptance('app_1', 'cust_2', 1)).to.deep.equal(acceptance('app_1', 'cust_2', 1));
        expect(await store.deleteCustomer('cust_1', at(11))).to.equal(null);
      });
    });

    describe('API keys', () => {
      it('stores a key, finds it by hash, and refuses a duplicate hash or id', async () => {
        const key = apiKey('key_1');
        expect(await store.createApiKey(key)).to.deep.equal(key);
        expect(await store.findApiKeyByHash('hash-key_1')).to.deep.equal(key);
        expect(await store.findApiKeyByHash('hash-unknown')).to.equal(null);
        await expectDuplicate(store.createApiKey(apiKey('key_2', { keyHash: 'hash-key_1' })), 'keyHash');
        await expectDuplicate(store.createApiKey(apiKey('key_1', { keyHash: 'hash-other' })), 'keyId');
      });

      it("lists a customer's unrevoked keys, oldest first (ties by id)", async () => {
        await store.createApiKey(apiKey('key_2', { createdAt: at(2) }));
        await store.createApiKey(apiKey('key_3', { createdAt: at(1) }));
        await store.createApiKey(apiKey('key_1', { createdAt: at(1) }));
        await store.createApiKey(apiKey('key_4', { createdAt: at(0), revokedAt: at(3) }));
        await store.createApiKey(apiKey('key_5', { customerId: 'cust_2' }));
        const keys = await store.listApiKeys('cust_1');
        expect(keys.map((k) => k.keyId)).to.deep.equal(['key_1', 'key_3', 'key_2']);
        expect(keys[0]).to.deep.equal(apiKey('key_1', { createdAt: at(1) }));
        expect(await store.listApiKeys('cust_unknown')).to.deep.equal([]);
      });

      it('revokes a key only for its own customer, and only once', async () => {
        const key = apiKey('key_1');
        await store.createApiKey(key);
        expect(await store.revokeApiKey('cust_2', 'key_1', at(1))).to.equal(null);
        expect(await store.findApiKeyByHash('hash-key_1')).to.deep.equal(key);
        const revoked = await store.revokeApiKey('cust_1', 'key_1', at(3));
        expect(revoked).to.deep.equal({ ...key, revokedAt: at(3) });
        expect(await store.revokeApiKey('cust_1', 'key_1', at(4))).to.equal(null);
        expect(await store.revokeApiKey('cust_1', 'key_unknown', at(4))).to.equal(null);
        expect(await store.findApiKeyByHash('hash-key_1')).to.deep.equal(revoked);
        expect(await store.listApiKeys('cust_1')).to.deep.equal([]);
      });

      it('records when a key was last used', async () => {
        await store.createApiKey(apiKey('key_1'));
        await store.touchApiKey('key_1', at(4));
        expect((await store.findApiKeyByHash('hash-key_1'))?.lastUsedAt).to.deep.equal(at(4));
        await store.touchApiKey('key_1', at(6));
        expect(await store.findApiKeyByHash('hash-key_1')).to.deep.equal(apiKey('key_1', { lastUsedAt: at(6) }));
        await store.touchApiKey('key_unknown', at(7));
      });
    });

    describe('access tokens', () => {
      const use = (overrides: Partial<TokenUse> = {}): TokenUse => ({
        tokenId: 'tok_1', periodStart: at(0), clientHash: 'client-a', bytes: 10, maxDownloads: null, maxClients: null, maxBytes: null, ...overrides,
      });

      it('stores a token with its limits, finds it by hash, and refuses a duplicate hash or id', async () => {
        const token = accessToken('tok_1', {
          name: 'CI', maxDownloads: 10, maxClients: 3, maxBytes: 5_000_000_000, validFrom: at(1), validUntil: at(100),
          applications: ['app_1'], channels: ['stable', 'beta'], platforms: ['linux'], resetEvery: 'week',
        });
        expect(await store.createAccessToken(token)).to.deep.equal(token);
        expect(await store.findAccessTokenByHash('hash-tok_1')).to.deep.equal(token);
        expect(await store.findAccessTokenByHash('hash-unknown')).to.equal(null);
        expect(await store.getAccessToken('cust_1', 'tok_1')).to.deep.equal(token);
        expect(await store.getAccessToken('cust_2', 'tok_1')).to.equal(null);
        await expectDuplicate(store.createAccessToken(accessToken('tok_2', { tokenHash: 'hash-tok_1' })), 'tokenHash');
        await expectDuplicate(store.createAccessToken(accessToken('tok_1', { tokenHash: 'hash-other' })), 'tokenId');
      });

      it("lists a customer's unrevoked tokens, oldest first, and changes or revokes one only for its own customer", async () => {
        await store.createAccessToken(accessToken('tok_2', { createdAt: at(2) }));
        await store.createAccessToken(accessToken('tok_1', { createdAt: at(1) }));
        await store.createAccessToken(accessToken('tok_3', { customerId: 'cust_2' }));
        expect((await store.listAccessTokens('cust_1')).map((t) => t.tokenId)).to.deep.equal(['tok_1', 'tok_2']);

        expect(await store.updateAccessToken('cust_2', 'tok_1', { maxDownloads: 5 }, at(3))).to.equal(null);
        const changed = await store.updateAccessToken('cust_1', 'tok_1', { maxDownloads: 5, channels: ['beta'], validUntil: at(9) }, at(3));
        expect(changed).to.deep.equal(accessToken('tok_1', { createdAt: at(1), updatedAt: at(3), maxDownloads: 5, channels: ['beta'], validUntil: at(9) }));
        const cleared = await store.updateAccessToken('cust_1', 'tok_1', { maxDownloads: null, channels: null }, at(4));
        expect(cleared).to.deep.equal(accessToken('tok_1', { createdAt: at(1), updatedAt: at(4), validUntil: at(9) }));

        expect(await store.revokeAccessToken('cust_2', 'tok_1', at(5))).to.equal(null);
        const revoked = await store.revokeAccessToken('cust_1', 'tok_1', at(5));
        expect(revoked?.revokedAt).to.deep.equal(at(5));
        expect(await store.revokeAccessToken('cust_1', 'tok_1', at(6))).to.equal(null);
        expect(await store.updateAccessToken('cust_1', 'tok_1', { maxDownloads: 1 }, at(6))).to.equal(null);
        expect(await store.findAccessTokenByHash('hash-tok_1')).to.deep.equal(revoked);
        expect((await store.listAccessTokens('cust_1')).map((t) => t.tokenId)).to.deep.equal(['tok_2']);
      });

      it('records when a token was last used, never moving it back', async () => {
        await store.createAccessToken(accessToken('tok_1'));
        await store.touchAccessToken('tok_1', at(6));
        await store.touchAccessToken('tok_1', at(4));
        expect((await store.findAccessTokenByHash('hash-tok_1'))?.lastUsedAt).to.deep.equal(at(6));
        await store.touchAccessToken('tok_unknown', at(7));
      });

      it('counts downloads, distinct clients and bytes per period, and names the limit a refused use would pass', async () => {
        expect(await store.getAccessTokenUsage('tok_1', at(0))).to.deep.equal({ downloads: 0, clients: 0, bytes: 0 });
        const limits = { maxDownloads: 3, maxClients: 2, maxBytes: 100 };
        expect(await store.countAccessTokenUse(use({ ...limits }))).to.deep.equal({ outcome: 'counted', usage: { downloads: 1, clients: 1, bytes: 10 } });
        expect(await store.countAccessTokenUse(use({ ...limits, clientHash: 'client-b' }))).to.deep.equal({ outcome: 'counted', usage: { downloads: 2, clients: 2, bytes: 20 } });
        // A third client is refused; a known one is not a new client.
        expect(await store.countAccessTokenUse(use({ ...limits, clientHash: 'client-c' }))).to.deep.equal({ outcome: 'refused', limit: 'clients', usage: { downloads: 2, clients: 2, bytes: 20 } });
        expect(await store.countAccessTokenUse(use({ ...limits, bytes: 81 }))).to.deep.equal({ outcome: 'refused', limit: 'bytes', usage: { downloads: 2, clients: 2, bytes: 20 } });
        expect(await store.countAccessTokenUse(use({ ...limits, bytes: 80 }))).to.deep.equal({ outcome: 'counted', usage: { downloads: 3, clients: 2, bytes: 100 } });
        expect(await store.countAccessTokenUse(use({ ...limits, bytes: 0 }))).to.deep.equal({ outcome: 'refused', limit: 'downloads', usage: { downloads: 3, clients: 2, bytes: 100 } });
        expect(await store.getAccessTokenUsage('tok_1', at(0))).to.deep.equal({ downloads: 3, clients: 2, bytes: 100 });
        await store.uncountAccessTokenUse('tok_1', at(0), 80);
        expect(await store.getAccessTokenUsage('tok_1', at(0))).to.deep.equal({ downloads: 2, clients: 2, bytes: 20 });

        // A new period starts from nothing; the earlier one is no longer kept.
        expect(await store.countAccessTokenUse(use({ ...limits, periodStart: at(60), clientHash: 'client-c' }))).to.deep.equal({ outcome: 'counted', usage: { downloads: 1, clients: 1, bytes: 10 } });
        expect(await store.getAccessTokenUsage('tok_1', at(0))).to.deep.equal({ downloads: 0, clients: 0, bytes: 0 });
        expect(await store.getAccessTokenUsage('tok_2', at(60))).to.deep.equal({ downloads: 0, clients: 0, bytes: 0 });
      });

      it('never counts past a limit however many uses are counted at once', async () => {
        const downloads = await Promise.all(Array.from({ length: 20 }, (_, i) => store.countAccessTokenUse(use({ maxDownloads: 7, clientHash: `c${i % 3}` }))));
        expect(downloads.filter((outcome) => outcome.outcome === 'counted')).to.have.length(7);
        const clients = await Promise.all(Array.from({ length: 20 }, (_, i) => store.countAccessTokenUse(use({ tokenId: 'tok_2', maxClients: 4, clientHash: `c${i}` }))));
        expect(clients.filter((outcome) => outcome.outcome === 'counted')).to.have.length(4);
        expect(await store.getAccessTokenUsage('tok_2', at(0))).to.deep.equal({ downloads: 4, clients: 4, bytes: 40 });
      });
    });

    describe('admin keys', () => {
      it('stores a key, finds it by hash, and refuses a duplicate hash or id', async () => {
        const limited = adminKey('adk_1', { applicationIds: ['app_1', 'app_2'], expiresAt: at(60), scopes: ['publish'] });
        const unlimited = adminKey('adk_2', { scopes: ['admin'] });
        expect(await store.createAdminKey(limited)).to.deep.equal(limited);
        await store.createAdminKey(unlimited);
        expect(await store.findAdminKeyByHash('admin-hash-adk_1')).to.deep.equal(limited);
        expect(await store.findAdminKeyByHash('admin-hash-adk_2')).to.deep.equal(unlimited);
        expect(await store.findAdminKeyByHash('admin-hash-unknown')).to.equal(null);
        await expectDuplicate(store.createAdminKey(adminKey('adk_3', { keyHash: 'admin-hash-adk_1' })), 'keyHash');
        await expectDuplicate(store.createAdminKey(adminKey('adk_1', { keyHash: 'admin-hash-other' })), 'keyId');
      });

      it('lists the keys not revoked, expired ones included, oldest first (ties by id)', async () => {
        await store.createAdminKey(adminKey('adk_2', { createdAt: at(2) }));
        await store.createAdminKey(adminKey('adk_3', { createdAt: at(1), expiresAt: at(1) }));
        await store.createAdminKey(adminKey('adk_1', { createdAt: at(1) }));
        await store.createAdminKey(adminKey('adk_4', { createdAt: at(0), revokedAt: at(3) }));
        const keys = await store.listAdminKeys();
        expect(keys.map((k) => k.keyId)).to.deep.equal(['adk_1', 'adk_3', 'adk_2']);
        expect(keys[1]).to.deep.equal(adminKey('adk_3', { createdAt: at(1), expiresAt: at(1) }));
      });

      it('revokes a key once, and finds it revoked by its hash', async () => {
        await store.createAdminKey(adminKey('adk_1'));
        const revoked = await store.revokeAdminKey('adk_1', at(3));
        expect(revoked).to.deep.equal(adminKey('adk_1', { revokedAt: at(3) }));
        expect(await store.revokeAdminKey('adk_1', at(4))).to.equal(null);
        expect(await store.revokeAdminKey('adk_unknown', at(4))).to.equal(null);
        expect(await store.findAdminKeyByHash('admin-hash-adk_1')).to.deep.equal(revoked);
        expect(await store.listAdminKeys()).to.deep.equal([]);
      });

      it('moves lastUsedAt forward only: a use recorded late never moves it back', async () => {
        await store.createAdminKey(adminKey('adk_1'));
        await store.touchAdminKey('adk_1', at(4));
        expect((await store.findAdminKeyByHash('admin-hash-adk_1'))?.lastUsedAt).to.deep.equal(at(4));
        await store.touchAdminKey('adk_1', at(2));
        expect((await store.findAdminKeyByHash('admin-hash-adk_1'))?.lastUsedAt).to.deep.equal(at(4));
        await store.touchAdminKey('adk_1', at(6));
        expect(await store.findAdminKeyByHash('admin-hash-adk_1')).to.deep.equal(adminKey('adk_1', { lastUsedAt: at(6) }));
        await store.touchAdminKey('adk_unknown', at(7));
      });
    });

    describe('audit log', () => {
      const log = (query: Partial<AuditQuery> = {}) => store.listAuditEntries({ limit: 100, ...query });
      const entryIds = (entries: AuditEntry[]) => entries.map((e) => e.entryId);

      it('stores an entry as given and refuses a duplicate id', async () => {
        const entry = auditEntry('aud_1', { target: null, applicationId: null });
        expect(await store.insertAuditEntry(entry)).to.deep.equal(entry);
        expect(await log()).to.deep.equal([entry]);
        await expectDuplicate(store.insertAuditEntry(auditEntry('aud_1', { action: 'customer.update' })), 'entryId');
      });

      it('settles a pending entry once, filling in a target and application only when given', async () => {
        await store.insertAuditEntry(auditEntry('aud_1', { target: null, applicationId: null }));
        await store.insertAuditEntry(auditEntry('aud_2'));
        await store.settleAuditEntry('aud_1', { outcome: 'succeeded', status: 201, target: 'app_9', applicationId: 'app_9' });
        await store.settleAuditEntry('aud_2', { outcome: 'refused', status: 404 });
        await store.settleAuditEntry('aud_1', { outcome: 'failed', status: 500, target: 'other' });
        await store.settleAuditEntry('aud_unknown', { outcome: 'failed', status: 500 });
        expect(await log()).to.deep.equal([
          auditEntry('aud_2', { outcome: 'refused', status: 404 }),
          auditEntry('aud_1', { outcome: 'succeeded', status: 201, target: 'app_9', applicationId: 'app_9' }),
        ]);
      });

      it('lists newest first, ties broken by entryId descending, up to the limit', async () => {
        for (const [id, minute] of [['aud_a', 1], ['aud_b', 2], ['aud_c', 2], ['aud_d', 3], ['aud_e', 0]] as const) {
          await store.insertAuditEntry(auditEntry(id, { timestamp: at(minute) }));
        }
        expect(entryIds(await log())).to.deep.equal(['aud_d', 'aud_c', 'aud_b', 'aud_a', 'aud_e']);
        expect(entryIds(await log({ limit: 2 }))).to.deep.equal(['aud_d', 'aud_c']);
      });

      it('pages with a keyset position, never skipping or repeating an entry', async () => {
        const minutes = [5, 3, 3, 3, 7, 1, 3, 5, 0, 7];
        for (const [i, minute] of minutes.entries()) await store.insertAuditEntry(auditEntry(`aud_${i}`, { timestamp: at(minute) }));
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
        for (const entry of entries) await store.insertAuditEntry(entry);
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
        for (const entry of entries) await store.insertAuditEntry(entry);
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

    describe('upload sessions', () => {
      it('stores a session and refuses a duplicate id', async () => {
        const session = uploadSession('up_1');
        expect(await store.createUploadSession(session)).to.deep.equal(session);
        expect(await store.getUploadSession('up_1')).to.deep.equal(session);
        expect(await store.getUploadSession('up_unknown')).to.equal(null);
        await expectDuplicate(store.createUploadSession(uploadSession('up_1', { fileName: 'other.exe' })), 'uploadId');
      });

      it("keeps an upload's release fields until verification, and the defaults for a session given without them", async () => {
        const asked = uploadSession('up_1', { platform: 'linux', arch: 'armv7l', channel: 'beta', versionStatus: 'draft' });
        expect(await store.createUploadSession(asked)).to.deep.equal(asked);
        expect(await store.getUploadSession('up_1')).to.deep.equal(asked);
        const { platform: _platform, arch: _arch, channel: _channel, versionStatus: _versionStatus, ...given } = uploadSession('up_2');
        expect(await store.createUploadSession(given)).to.deep.equal(uploadSession('up_2'));
        expect(await store.getUploadSession('up_2')).to.deep.include({ platform: 'any', arch: 'any', channel: null, versionStatus: null });
        const verifying = await store.updateUploadSession('up_1', ['issued'], { status: 'verifying' }, at(1));
        expect(verifying).to.deep.equal({ ...asked, status: 'verifying', updatedAt: at(1) });
      });

      it("keeps a multipart session's store upload id and part size, and reads a session given without them as a single PUT", async () => {
        const multipart = uploadSession('up_1', {
          fileSize: 5 * 1024 ** 4,
          storageKey: 'files/app_1/file_up_1',
          multipart: { storageUploadId: 'VXBsb2FkIElEIGZvciA2aWWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA.-_~', partSize: 550_502_400 },
          expiresAt: at(5),
        });
        expect(await store.createUploadSession(multipart)).to.deep.equal(multipart);
        expect(await store.getUploadSession('up_1')).to.deep.equal(multipart);
        const { multipart: _multipart, ...given } = uploadSession('up_2');
        expect(await store.createUploadSession(given)).to.deep.equal(uploadSession('up_2'));
        expect((await store.getUploadSession('up_2'))?.multipart).to.equal(null);
        expect(await store.listExpiredUploadSessions(at(5), 10)).to.deep.equal([multipart]);
        const aborted = await store.updateUploadSession('up_1', ['issued'], { status: 'aborted' }, at(6));
        expect(aborted).to.deep.equal({ ...multipart, status: 'aborted', updatedAt: at(6) });
        expect(await store.listExpiredUploadSessions(at(10), 10)).to.deep.equal([]);
      });

      it('updates a session only from the expected statuses, leaving omitted fields unchanged', async () => {
        const session = uploadSession('up_1');
        await store.createUploadSession(session);
        expect(await store.updateUploadSession('up_1', ['verifying'], { status: 'completed' }, at(1))).to.equal(null);
        expect(await store.updateUploadSession('up_1', [], { status: 'completed' }, at(1))).to.equal(null);
        expect(await store.getUploadSession('up_1')).to.deep.equal(session);
        const verifying = await store.updateUploadSession('up_1', ['issued', 'verifying'], { status: 'verifying', expectedChecksum: 'abc' }, at(2));
        expect(verifying).to.deep.equal({ ...session, status: 'verifying', expectedChecksum: 'abc', updatedAt: at(2) });
        expect(await store.updateUploadSession('up_1', ['issued'], { status: 'expired' }, at(3))).to.equal(null);
        const failed = await store.updateUploadSession('up_1', ['verifying'],
          { status: 'failed', failureReason: 'checksum mismatch', releaseNotes: null }, at(4));
        expect(failed).to.deep.equal({
          ...session, status: 'failed', expectedChecksum: 'abc', failureReason: 'checksum mismatch', releaseNotes: null, updatedAt: at(4),
        });
        expect(await store.getUploadSession('up_1')).to.deep.equal(failed);
        expect(await store.updateUploadSession('up_unknown', ['issued'], { status: 'expired' }, at(5))).to.equal(null);
      });

      it('lists issued sessions expired at or before now, soonest first, up to the limit', async () => {
        await store.createUploadSession(uploadSession('up_1', { expiresAt: at(10) }));
        await store.createUploadSession(uploadSession('up_2', { expiresAt: at(5) }));
        await store.createUploadSession(uploadSession('up_3', { expiresAt: at(20) }));
        await store.createUploadSession(uploadSession('up_4', { expiresAt: at(1), status: 'verifying' }));
        await store.createUploadSession(uploadSession('up_5', { expiresAt: at(8) }));
        const expired = await store.listExpiredUploadSessions(at(10), 10);
        expect(expired.map((s) => s.uploadId)).to.deep.equal(['up_2', 'up_5', 'up_1']);
        expect(expired[0]).to.deep.equal(uploadSession('up_2', { expiresAt: at(5) }));
        expect((await store.listExpiredUploadSessions(at(10), 2)).map((s) => s.uploadId)).to.deep.equal(['up_2', 'up_5']);
        expect(await store.listExpiredUploadSessions(at(4), 10)).to.deep.equal([]);
      });
    });

    describe('share links', () => {
      it('stores a link and refuses a duplicate token hash', async () => {
        const link = shareLink('token_1');
        expect(await store.createShareLink(link)).to.deep.equal(link);
        expect(await store.getShareLink('token_1')).to.deep.equal(link);
        expect(await store.getShareLink('token_unknown')).to.equal(null);
        await expectDuplicate(store.createShareLink(shareLink('token_1', { customerId: 'cust_2' })), 'tokenHash');
      });

      it("lists a customer's links newest first, at most the limit, revoked ones included", async () => {
        await store.createShareLink(shareLink('token_old', { createdAt: at(1) }));
        await store.createShareLink(shareLink('token_new', { createdAt: at(3) }));
        await store.createShareLink(shareLink('token_mid', { createdAt: at(2), maxDownloads: 5 }));
        await store.createShareLink(shareLink('token_other', { customerId: 'cust_2', createdAt: at(4) }));
        await store.revokeShareLink('token_mid', 'cust_1', at(5));
        const listed = await store.listShareLinks('cust_1', 10);
        expect(listed.map((link) => link.tokenHash)).to.deep.equal(['token_new', 'token_mid', 'token_old']);
        expect(listed[1]).to.deep.equal(shareLink('token_mid', { createdAt: at(2), maxDownloads: 5, revokedAt: at(5) }));
        expect((await store.listShareLinks('cust_1', 2)).map((link) => link.tokenHash)).to.deep.equal(['token_new', 'token_mid']);
        expect(await store.listShareLinks('cust_unknown', 10)).to.deep.equal([]);
      });

      it('revokes a link only for the customer who created it, and only once', async () => {
        const link = shareLink('token_1');
        await store.createShareLink(link);
        expect(await store.revokeShareLink('token_1', 'cust_2', at(1))).to.equal(null);
        expect(await store.getShareLink('token_1')).to.deep.equal(link);
        const revoked = await store.revokeShareLink('token_1', 'cust_1', at(3));
        expect(revoked).to.deep.equal({ ...link, revokedAt: at(3) });
        expect(await store.revokeShareLink('token_1', 'cust_1', at(4))).to.equal(null);
        expect(await store.revokeShareLink('token_unknown', 'cust_1', at(4))).to.equal(null);
        expect(await store.getShareLink('token_1')).to.deep.equal(revoked);
      });

      it('marks a link expired only once its expiry has come, and only the first time', async () => {
        await store.createShareLink(shareLink('token_1', { expiresAt: at(10) }));
        await store.markShareLinkExpired('token_1', at(5));
        expect((await store.getShareLink('token_1'))?.expiredAt).to.equal(null);
        await store.markShareLinkExpired('token_1', at(10));
        expect((await store.getShareLink('token_1'))?.expiredAt).to.deep.equal(at(10));
        await store.markShareLinkExpired('token_1', at(12));
        expect(await store.getShareLink('token_1')).to.deep.equal(shareLink('token_1', { expiresAt: at(10), expiredAt: at(10) }));
      });

      it('counts uses of a capped link up to its cap, every concurrent use counted once, and gives a use back', async () => {
        await store.createShareLink(shareLink('token_capped', { maxDownloads: 3 }));
        const uses = await Promise.all(Array.from({ length: 8 }, () => store.countShareLinkUse('token_capped')));
        const counted = uses.filter((link) => link !== null).map((link) => link?.downloadCount).sort();
        expect(counted).to.deep.equal([1, 2, 3]);
        expect(await store.getShareLink('token_capped')).to.deep.equal(shareLink('token_capped', { maxDownloads: 3, downloadCount: 3 }));
        expect(await store.countShareLinkUse('token_capped')).to.equal(null);

        await store.uncountShareLinkUse('token_capped');
        expect((await store.countShareLinkUse('token_capped'))?.downloadCount).to.equal(3);
        expect(await store.countShareLinkUse('token_capped')).to.equal(null);
      });

      it('counts nothing for a link without a cap or an unknown one, and never gives back below zero', async () => {
        await store.createShareLink(shareLink('token_open'));
        expect(await store.countShareLinkUse('token_open')).to.equal(null);
        expect(await store.countShareLinkUse('token_unknown')).to.equal(null);
        await store.uncountShareLinkUse('token_open');
        await store.uncountShareLinkUse('token_unknown');
        expect(await store.getShareLink('token_open')).to.deep.equal(shareLink('token_open'));
        await store.createShareLink(shareLink('token_one', { maxDownloads: 1 }));
        await store.uncountShareLinkUse('token_one');
        expect((await store.getShareLink('token_one'))?.downloadCount).to.equal(0);
        expect((await store.countShareLinkUse('token_one'))?.downloadCount).to.equal(1);
      });

      it('purges links that expired before the cutoff, up to the limit', async () => {
        for (const [hash, minute] of [['token_1', 1], ['token_2', 2], ['token_3', 3], ['token_4', 10]] as const) {
          await store.createShareLink(shareLink(hash, { expiresAt: at(minute) }));
        }
        expect(await store.purgeShareLinks(at(3), 10)).to.equal(2);
        expect(await store.getShareLink('token_1')).to.equal(null);
        expect(await store.getShareLink('token_2')).to.equal(null);
        expect(await store.getShareLink('token_3')).to.deep.equal(shareLink('token_3', { expiresAt: at(3) }));
        expect(await store.purgeShareLinks(at(11), 1)).to.equal(1);
        expect(await store.purgeShareLinks(at(11), 10)).to.equal(1);
        expect(await store.purgeShareLinks(at(11), 10)).to.equal(0);
        expect(await store.getShareLink('token_4')).to.equal(null);
      });
    });

    describe('webhooks', () => {
      const endpointIds = (endpoints: { webhookId: string }[]) => endpoints.map((endpoint) => endpoint.webhookId);

      it('stores an endpoint, refuses a duplicate id, and pages endpoints oldest first', async () => {
        const first = webhookEndpoint('whk_1', { description: 'CRM', previousSecret: 'sealed-old', previousSecretExpiresAt: at(60) });
        expect(await store.createWebhookEndpoint(first)).to.deep.equal(first);
        expect(await store.getWebhookEndpoint('whk_1')).to.deep.equal(first);
        expect(await store.getWebhookEndpoint('whk_unknown')).to.equal(null);
        await expectDuplicate(store.createWebhookEndpoint(webhookEndpoint('whk_1')), 'webhookId');
        await store.createWebhookEndpoint(webhookEndpoint('whk_3', { createdAt: at(2) }));
        await store.createWebhookEndpoint(webhookEndpoint('whk_2', { createdAt: at(1) }));
        const page = await store.listWebhookEndpoints(1, 2);
        expect(endpointIds(page.items)).to.deep.equal(['whk_1', 'whk_2']);
        expect(page.total).to.equal(3);
        expect(endpointIds((await store.listWebhookEndpoints(2, 2)).items)).to.deep.equal(['whk_3']);
      });

      it('finds the active subscribers of an event type, following changes to events and status', async () => {
        await store.createWebhookEndpoint(webhookEndpoint('whk_1', { events: ['customer.created', 'download.recorded'] }));
        await store.createWebhookEndpoint(webhookEndpoint('whk_2', { events: ['customer.created'], createdAt: at(1) }));
        await store.createWebhookEndpoint(webhookEndpoint('whk_3', { events: ['download.recorded'], isActive: false, createdAt: at(2) }));
        expect(endpointIds(await store.listSubscribedWebhookEndpoints('customer.created'))).to.deep.equal(['whk_1', 'whk_2']);
        expect(endpointIds(await store.listSubscribedWebhookEndpoints('download.recorded'))).to.deep.equal(['whk_1']);
        expect(await store.listSubscribedWebhookEndpoints('apikey.created')).to.deep.equal([]);

        const changed = await store.updateWebhookEndpoint('whk_1', { events: ['apikey.created'], description: 'keys' }, at(5));
        expect(changed).to.deep.equal(webhookEndpoint('whk_1', { events: ['apikey.created'], description: 'keys', updatedAt: at(5) }));
        await store.updateWebhookEndpoint('whk_3', { isActive: true }, at(5));
        expect(endpointIds(await store.listSubscribedWebhookEndpoints('customer.created'))).to.deep.equal(['whk_2']);
        expect(endpointIds(await store.listSubscribedWebhookEndpoints('download.recorded'))).to.deep.equal(['whk_3']);
        expect(endpointIds(await store.listSubscribedWebhookEndpoints('apikey.created'))).to.deep.equal(['whk_1']);
        expect(await store.updateWebhookEndpoint('whk_unknown', { isActive: false }, at(5))).to.equal(null);
      });

      it('starts a run of failures once, until it is cleared', async () => {
        await store.createWebhookEndpoint(webhookEndpoint('whk_1'));
        expect((await store.markWebhookEndpointFailing('whk_1', at(1)))?.failingSince).to.deep.equal(at(1));
        expect((await store.markWebhookEndpointFailing('whk_1', at(2)))?.failingSince).to.deep.equal(at(1));
        await store.updateWebhookEndpoint('whk_1', { failingSince: null }, at(3));
        expect((await store.markWebhookEndpointFailing('whk_1', at(4)))?.failingSince).to.deep.equal(at(4));
        expect(await store.markWebhookEndpointFailing('whk_unknown', at(4))).to.equal(null);
      });

      it('records deliveries, refuses a duplicate id, and pages an endpoint\'s log newest first', async () => {
        const first = webhookDelivery('msg_1');
        expect(await store.insertWebhookDelivery(first)).to.deep.equal(first);
        expect(await store.getWebhookDelivery('msg_1')).to.deep.equal(first);
        expect(await store.getWebhookDelivery('msg_unknown')).to.equal(null);
        await expectDuplicate(store.insertWebhookDelivery(webhookDelivery('msg_1', { eventId: 'evt_2' })), 'deliveryId');
        await store.insertWebhookDelivery(webhookDelivery('msg_2', { createdAt: at(1) }));
        await store.insertWebhookDelivery(webhookDelivery('msg_3', { createdAt: at(1) }));
        await store.insertWebhookDelivery(webhookDelivery('msg_4', { webhookId: 'whk_2', createdAt: at(2) }));
        const page = await store.listWebhookDeliveries('whk_1', 1, 2);
        expect(page.items.map((d) => d.deliveryId)).to.deep.equal(['msg_3', 'msg_2']);
        expect(page.total).to.equal(3);
        expect((await store.listWebhookDeliveries('whk_1', 2, 2)).items.map((d) => d.deliveryId)).to.deep.equal(['msg_1']);
        expect((await store.listWebhookDeliveries('whk_2', 1, 10)).items.map((d) => d.deliveryId)).to.deep.equal(['msg_4']);
      });

      it('counts attempts while a delivery is pending, and changes its status only from the statuses named', async () => {
        await store.insertWebhookDelivery(webhookDelivery('msg_1'));
        const failedOnce = { status: 'pending' as const, responseStatus: 500, responseBody: 'oops', error: 'the receiver answered 500', deliveredAt: null };
        expect(await store.recordWebhookAttempt('msg_1', failedOnce, at(1))).to.deep.equal(
          webhookDelivery('msg_1', { ...failedOnce, attempts: 1, lastAttemptAt: at(1), updatedAt: at(1) }),
        );
        const delivered = { status: 'delivered' as const, responseStatus: 204, responseBody: '', error: null, deliveredAt: at(2) };
        expect(await store.recordWebhookAttempt('msg_1', delivered, at(2))).to.deep.equal(
          webhookDelivery('msg_1', { ...delivered, attempts: 2, lastAttemptAt: at(2), updatedAt: at(2) }),
        );
        expect(await store.recordWebhookAttempt('msg_1', failedOnce, at(3))).to.equal(null);
        expect(await store.setWebhookDeliveryStatus('msg_1', ['failed'], 'pending', null, at(3))).to.equal(null);
        const again = await store.setWebhookDeliveryStatus('msg_1', ['delivered', 'failed'], 'pending', null, at(3));
        expect(again).to.deep.include({ status: 'pending', attempts: 2, updatedAt: at(3) });
        expect((await store.setWebhookDeliveryStatus('msg_1', ['pending'], 'failed', 'given up', at(4)))).to.include({ status: 'failed', error: 'given up' });
        expect(await store.setWebhookDeliveryStatus('msg_unknown', ['pending'], 'failed', null, at(4))).to.equal(null);
      });

      it('deletes an endpoint with its log, and purges old deliveries up to the limit', async () => {
        await store.createWebhookEndpoint(webhookEndpoint('whk_1', { events: ['customer.created'] }));
        await store.createWebhookEndpoint(webhookEndpoint('whk_2'));
        for (const [id, webhookId, minute] of [['msg_1', 'whk_1', 1], ['msg_2', 'whk_2', 1], ['msg_3', 'whk_2', 2], ['msg_4', 'whk_2', 10]] as const) {
          await store.insertWebhookDelivery(webhookDelivery(id, { webhookId, createdAt: at(minute) }));
        }
        expect(await store.deleteWebhookEndpoint('whk_1')).to.equal(true);
        expect(await store.deleteWebhookEndpoint('whk_1')).to.equal(false);
        expect(await store.getWebhookEndpoint('whk_1')).to.equal(null);
        expect(await store.getWebhookDelivery('msg_1')).to.equal(null);
        expect(endpointIds(await store.listSubscribedWebhookEndpoints('customer.created'))).to.deep.equal(['whk_2']);

        expect(await store.purgeWebhookDeliveries(at(5), 1)).to.equal(1);
        expect(await store.purgeWebhookDeliveries(at(5), 10)).to.equal(1);
        expect(await store.purgeWebhookDeliveries(at(5), 10)).to.equal(0);
        expect((await store.listWebhookDeliveries('whk_2', 1, 10)).items.map((d) => d.deliveryId)).to.deep.equal(['msg_4']);
        await expectRangeErrorOf(store.purgeWebhookDeliveries(at(5), 0));
        await expectRangeErrorOf(store.listWebhookDeliveries('whk_2', 0, 10));
        await expectRangeErrorOf(store.listWebhookEndpoints(1, 0));
      });

      it('keeps outbox entries once per event id, lists those written before a time oldest first from a position, confirms pending ones and removes them', async () => {
        const entry = (eventId: string, minute: number, state: 'pending' | 'ready' = 'pending'): WebhookOutboxEntry => ({
          eventId, type: 'customer.created', occurredAt: at(minute), state, data: state === 'ready' ? { customerId: `cus-${eventId}`, tags: ['a'], nested: { $key: 1 } } : null,
          subject: [`cus-${eventId}`], writtenAt: at(minute + 1),
        });
        await store.addWebhookOutboxEntries([entry('evt_b', 2), entry('evt_a', 3, 'ready')]);
        await store.addWebhookOutboxEntries([entry('evt_c', 1)]);
        await store.addWebhookOutboxEntries([{ ...entry('evt_b', 9, 'ready'), type: 'customer.updated' }]);
        await Promise.all([store.addWebhookOutboxEntries([entry('evt_d', 20)]), store.addWebhookOutboxEntries([entry('evt_d', 20)])]);
        await store.addWebhookOutboxEntries([]);

        const ids = (entries: WebhookOutboxEntry[]) => entries.map((listed) => listed.eventId);
        const all = await store.listWebhookOutboxEntries(at(100), 10);
        expect(ids(all)).to.deep.equal(['evt_c', 'evt_b', 'evt_a', 'evt_d']);
        expect(all[1], 'a repeat leaves the entry as it is').to.deep.equal(entry('evt_b', 2));
        expect(all[2], 'data of any shape, as written').to.deep.equal(entry('evt_a', 3, 'ready'));
        expect(ids(await store.listWebhookOutboxEntries(at(100), 2))).to.deep.equal(['evt_c', 'evt_b']);
        expect(ids(await store.listWebhookOutboxEntries(at(4), 10)), 'written before the time only').to.deep.equal(['evt_c', 'evt_b']);
        expect(ids(await store.listWebhookOutboxEntries(at(100), 10, { writtenAt: at(3), eventId: 'evt_b' })), 'after a position').to.deep.equal(['evt_a', 'evt_d']);
        // Two entries written at the same time: the position orders them by id.
        await store.addWebhookOutboxEntries([{ ...entry('evt_e', 2), writtenAt: at(3) }]);
        expect(ids(await store.listWebhookOutboxEntries(at(100), 10, { writtenAt: at(3), eventId: 'evt_b' }))).to.deep.equal(['evt_e', 'evt_a', 'evt_d']);

        await store.confirmWebhookOutboxEntries([{ eventId: 'evt_b', data: { customerId: 'cus-b' } }, { eventId: 'evt_a', data: { overwritten: true } }, { eventId: 'evt_none', data: {} }]);
        await store.confirmWebhookOutboxEntries([]);
        const confirmed = await store.listWebhookOutboxEntries(at(100), 10);
        expect(confirmed.find((listed) => listed.eventId === 'evt_b')).to.deep.equal({ ...entry('evt_b', 2), state: 'ready', data: { customerId: 'cus-b' } });
        expect(confirmed.find((listed) => listed.eventId === 'evt_a'), 'a ready entry keeps its data').to.deep.equal(entry('evt_a', 3, 'ready'));
        expect(ids(confirmed)).to.not.include('evt_none');

        expect(await store.deleteWebhookOutboxEntries(['evt_b', 'evt_none'])).to.equal(1);
        expect(await store.deleteWebhookOutboxEntries(['evt_b'])).to.equal(0);
        expect(await store.deleteWebhookOutboxEntries([])).to.equal(0);
        expect(ids(await store.listWebhookOutboxEntries(at(100), 10))).to.deep.equal(['evt_c', 'evt_e', 'evt_a', 'evt_d']);
        await expectRangeErrorOf(store.listWebhookOutboxEntries(at(100), 0));
      });
    });

    describe('events', () => {
      const feed = (query: Partial<ActivityQuery> = {}) => store.listEvents({ limit: 100, ...query });

      it('stores events as given and skips an eventId already stored', async () => {
        const first = event('ev_1', { customerId: null, clientIp: null, userAgent: null, type: 'upload' });
        const second = event('ev_2', { timestamp: at(1) });
        await store.insertEvents([first, second]);
        await store.insertEvents([event('ev_2', { timestamp: at(1), fileId: 'file_other' }), event('ev_3', { timestamp: at(2) })]);
        await store.insertEvents([]);
        expect(await feed()).to.deep.equal([event('ev_3', { timestamp: at(2) }), second, first]);
        expect(await store.getEvent('ev_2'), 'one event by its id').to.deep.equal(second);
        expect(await store.getEvent('ev_9')).to.equal(null);
      });

      it("stores each event's platform and arch", async () => {
        const events = [event('ev_1', { platform: 'windows', arch: 'x64' }), event('ev_2', { timestamp: at(1), platform: 'macos', arch: 'universal' })];
        await store.insertEvents(events);
        expect(await feed()).to.deep.equal([events[1], events[0]]);
      });

      it('lists newest first, ties broken by eventId descending, up to the limit', async () => {
        await store.insertEvents([
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
        await store.insertEvents(minutes.map((minute, i) => event(`ev_${i}`, { timestamp: at(minute) })));
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
        await store.insertEvents([
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
        await store.insertEvents([
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
        expect(await store.rollupEvents(100)).to.equal(7);
        const expected = [
          daily('app_1', '1.0.0', '2026-03-02', 1),
          daily('app_1', '2.0.0', '2026-03-02', 3),
          daily('app_1', '1.0.0', '2026-03-01', 2),
        ];
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal(expected);
        expect(await store.listDailyCounts('app_2', {})).to.deep.equal([daily('app_2', '1.0.0', '2026-03-01', 1)]);
        expect(await store.rollupEvents(100)).to.equal(0);
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal(expected);
      });

      it('counts downloads per platform of their files, besides version and UTC day', async () => {
        const day = (d: number, hour = 12) => utc(`2026-03-0${d}T${String(hour).padStart(2, '0')}:00:00.000Z`);
        await store.insertEvents([
          event('d_1', { timestamp: day(1), platform: 'windows', arch: 'x64' }),
          event('d_2', { timestamp: day(1, 13), platform: 'windows', arch: 'arm64' }),
          event('d_3', { timestamp: day(1), platform: 'macos', arch: 'universal' }),
          event('d_4', { timestamp: day(1) }),
          event('d_5', { timestamp: day(2), platform: 'linux', arch: 'x64', version: '2.0.0' }),
          event('d_6', { timestamp: day(2), platform: 'linux', arch: 'armv7l', version: '2.0.0' }),
          event('d_7', { timestamp: day(2), platform: 'windows', arch: 'x64' }),
          event('u_1', { timestamp: day(2), platform: 'windows', arch: 'x64', type: 'upload', customerId: null }),
        ]);
        expect(await store.rollupEvents(100)).to.equal(7);
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal([
          daily('app_1', '1.0.0', '2026-03-02', 1, 'windows'),
          daily('app_1', '2.0.0', '2026-03-02', 2, 'linux'),
          daily('app_1', '1.0.0', '2026-03-01', 1, 'any'),
          daily('app_1', '1.0.0', '2026-03-01', 1, 'macos'),
          daily('app_1', '1.0.0', '2026-03-01', 2, 'windows'),
        ]);
        await store.insertEvents([event('d_8', { timestamp: day(1, 20), platform: 'macos', arch: 'arm64' })]);
        expect(await store.rollupEvents(100)).to.equal(1);
        expect(await store.listDailyCounts('app_1', { to: '2026-03-01' })).to.deep.equal([
          daily('app_1', '1.0.0', '2026-03-01', 1, 'any'),
          daily('app_1', '1.0.0', '2026-03-01', 2, 'macos'),
          daily('app_1', '1.0.0', '2026-03-01', 2, 'windows'),
        ]);
      });

      it('counts each event once per platform when rollups run concurrently', async () => {
        const platforms: Platform[] = ['windows', 'macos', 'linux', 'any'];
        const events = Array.from({ length: 40 }, (_, i) =>
          event(`d_${String(i).padStart(2, '0')}`, { timestamp: at(i * 45), version: `${i % 2}.0.0`, platform: platforms[i % 3 + (i % 7 === 0 ? 1 : 0)] }));
        await store.insertEvents(events);
        for (let round = 0; round < 40; round += 1) {
          const folded = await Promise.all([store.rollupEvents(3), store.rollupEvents(3), store.rollupEvents(3)]);
          if (folded.every((n) => n === 0)) break;
        }
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal(dailyCountsOf('app_1', events));
      });

      it('counts downloads per arch and per customer in the same rollup, and names the customers with most downloads', async () => {
        await store.upsertVersion('app_1', '1.0.0', {}, at(0));
        await store.upsertVersion('app_1', '2.0.0-beta.1', { channel: 'beta' }, at(0));
        const day = (d: number, hour = 12) => utc(`2026-03-0${d}T${String(hour).padStart(2, '0')}:00:00.000Z`);
        await store.insertEvents([
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
        expect(await store.rollupEvents(100)).to.equal(8);
        const everything = {
          byArch: { x64: 4, arm64: 2, any: 1 },
          topCustomers: [{ customerId: 'cust_c', downloads: 3 }, { customerId: 'cust_a', downloads: 2 }, { customerId: 'cust_b', downloads: 2 }],
        };
        expect(await store.listDownloadBreakdown('app_1', {}, 10)).to.deep.equal(everything);
        expect(await store.rollupEvents(100), 'a second rollup finds nothing').to.equal(0);
        expect(await store.listDownloadBreakdown('app_1', {}, 10)).to.deep.equal(everything);
        expect((await store.listDownloadBreakdown('app_1', {}, 2)).topCustomers, 'ties by customer id').to.deep.equal(everything.topCustomers.slice(0, 2));
        // The same filters as the daily counts: period, version and the channel each version is in now.
        expect(await store.listDownloadBreakdown('app_1', { to: '2026-03-01' }, 10)).to.deep.equal({
          byArch: { x64: 1, arm64: 2 }, topCustomers: [{ customerId: 'cust_b', downloads: 2 }, { customerId: 'cust_a', downloads: 1 }],
        });
        expect(await store.listDownloadBreakdown('app_1', { channel: 'beta' }, 10)).to.deep.equal({
          byArch: { x64: 2 }, topCustomers: [{ customerId: 'cust_c', downloads: 2 }],
        });
        expect(await store.listDownloadBreakdown('app_1', { version: '1.0.0', from: '2026-03-02' }, 10)).to.deep.equal({
          byArch: { x64: 1, any: 1 }, topCustomers: [{ customerId: 'cust_a', downloads: 1 }, { customerId: 'cust_c', downloads: 1 }],
        });
        expect(await store.listDownloadBreakdown('app_2', {}, 10)).to.deep.equal({ byArch: { x64: 1 }, topCustomers: [{ customerId: 'cust_z', downloads: 1 }] });
        expect(await store.listDownloadBreakdown('app_3', {}, 10)).to.deep.equal({ byArch: {}, topCustomers: [] });
      });

      it('counts each event once per arch and customer when rollups run concurrently', async () => {
        const archs = ['x64', 'arm64', 'universal'] as const;
        const events = Array.from({ length: 40 }, (_, i) =>
          event(`d_${String(i).padStart(2, '0')}`, { timestamp: at(i * 45), version: `${i % 2}.0.0`, arch: archs[i % 3], customerId: `cust_${i % 4}` }));
        await store.insertEvents(events);
        for (let round = 0; round < 40; round += 1) {
          const folded = await Promise.all([store.rollupEvents(3), store.rollupEvents(3), store.rollupEvents(3)]);
          if (folded.every((n) => n === 0)) break;
        }
        expect(await store.listDownloadBreakdown('app_1', {}, 10)).to.deep.equal({
          byArch: { x64: 14, arm64: 13, universal: 13 },
          topCustomers: [0, 1, 2, 3].map((c) => ({ customerId: `cust_${c}`, downloads: 10 })),
        });
      });

      it('restricts daily counts to the versions now in a channel', async () => {
        await store.upsertVersion('app_1', '1.0.0', {}, at(0));
        await store.upsertVersion('app_1', '2.0.0-beta.1', { channel: 'beta' }, at(0));
        await store.upsertVersion('app_2', '3.0.0', { channel: 'beta' }, at(0));
        await store.insertEvents([
          event('d_1', { platform: 'windows' }),
          event('d_2', { version: '2.0.0-beta.1', platform: 'macos' }),
          event('d_3', { version: '2.0.0-beta.1', platform: 'macos', timestamp: at(24 * 60) }),
          event('d_4', { version: '3.0.0', platform: 'linux' }),
          event('d_5', { applicationId: 'app_2', version: '3.0.0' }),
        ]);
        await store.rollupEvents(100);
        const stable = [daily('app_1', '1.0.0', '2026-03-01', 1, 'windows')];
        const beta = [daily('app_1', '2.0.0-beta.1', '2026-03-02', 1, 'macos'), daily('app_1', '2.0.0-beta.1', '2026-03-01', 1, 'macos')];
        expect(await store.listDailyCounts('app_1', { channel: 'stable' })).to.deep.equal(stable);
        expect(await store.listDailyCounts('app_1', { channel: 'beta' })).to.deep.equal(beta);
        expect(await store.listDailyCounts('app_1', { channel: 'beta', version: '1.0.0' })).to.deep.equal([]);
        expect(await store.listDailyCounts('app_1', { channel: 'beta', from: '2026-03-02' })).to.deep.equal([beta[0]]);
        expect(await store.listDailyCounts('app_1', { channel: 'rc' })).to.deep.equal([]);
        // Promoted to stable, the version's downloads count there, those of before included.
        await store.updateVersion('app_1', '2.0.0-beta.1', { channel: 'stable' }, at(1));
        expect(await store.listDailyCounts('app_1', { channel: 'stable' })).to.deep.equal([beta[0], stable[0], beta[1]]);
        expect(await store.listDailyCounts('app_1', { channel: 'stable', version: '2.0.0-beta.1' })).to.deep.equal(beta);
      });

      it('tells when the download waiting longest to be counted happened, until every download is counted', async () => {
        expect(await store.oldestUncountedEventAt()).to.equal(null);
        await store.insertEvents([event('u_1', { type: 'upload', customerId: null, timestamp: at(0) })]);
        expect(await store.oldestUncountedEventAt(), 'uploads are never counted').to.equal(null);
        await store.insertEvents([event('d_1', { timestamp: at(1) }), event('d_2', { timestamp: at(2) })]);
        await store.insertEvents([event('d_3', { timestamp: at(3) })]);
        expect((await store.oldestUncountedEventAt())?.toISOString()).to.equal(at(1).toISOString());
        expect(await store.rollupEvents(1)).to.equal(1);
        expect((await store.oldestUncountedEventAt())?.toISOString()).to.equal(at(2).toISOString());
        await store.rollupEvents(100);
        expect(await store.oldestUncountedEventAt()).to.equal(null);
        await store.insertEvents([event('d_4', { timestamp: at(9) })]);
        expect((await store.oldestUncountedEventAt())?.toISOString()).to.equal(at(9).toISOString());
      });

      it('counts nothing when there are only uploads', async () => {
        await store.insertEvents([event('u_1', { type: 'upload' }), event('u_2', { type: 'upload', timestamp: at(1) })]);
        expect(await store.rollupEvents(100)).to.equal(0);
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal([]);
      });

      it('folds at most `limit` events per call and counts each event once, even when its insert is retried', async () => {
        await store.insertEvents([1, 2, 3, 4, 5].map((i) => event(`d_${i}`, { timestamp: at(i) })));
        expect(await store.rollupEvents(2)).to.equal(2);
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.0.0', '2026-03-01', 2)]);
        expect(await store.rollupEvents(2)).to.equal(2);
        expect(await store.rollupEvents(2)).to.equal(1);
        expect(await store.rollupEvents(2)).to.equal(0);
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.0.0', '2026-03-01', 5)]);
        await store.insertEvents([1, 2, 3, 4, 5, 6].map((i) => event(`d_${i}`, { timestamp: at(i) })));
        expect(await store.rollupEvents(100)).to.equal(1);
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.0.0', '2026-03-01', 6)]);
      });

      it('counts each event once when rollups run concurrently', async () => {
        await store.insertEvents(Array.from({ length: 30 }, (_, i) => event(`d_${i}`, { timestamp: at(i * 60), version: `${i % 2}.0.0` })));
        for (let round = 0; round < 30; round += 1) {
          const folded = await Promise.all([store.rollupEvents(4), store.rollupEvents(4), store.rollupEvents(4)]);
          if (folded.every((n) => n === 0)) break;
        }
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal([
          daily('app_1', '0.0.0', '2026-03-02', 8),
          daily('app_1', '1.0.0', '2026-03-02', 8),
          daily('app_1', '0.0.0', '2026-03-01', 7),
          daily('app_1', '1.0.0', '2026-03-01', 7),
        ]);
      });

      it('filters daily counts by version and by inclusive date bounds, newest date first', async () => {
        const days = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04'];
        await store.insertEvents(days.flatMap((day, i) => [
          ...Array.from({ length: i + 1 }, (_, n) => event(`v1_${day}_${n}`, { timestamp: utc(`${day}T06:00:00.000Z`) })),
          event(`v2_${day}`, { timestamp: utc(`${day}T18:00:00.000Z`), version: '2.0.0' }),
        ]));
        expect(await store.rollupEvents(1000)).to.equal(14);
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal([
          daily('app_1', '1.0.0', '2026-03-04', 4),
          daily('app_1', '2.0.0', '2026-03-04', 1),
          daily('app_1', '1.0.0', '2026-03-03', 3),
          daily('app_1', '2.0.0', '2026-03-03', 1),
          daily('app_1', '1.0.0', '2026-03-02', 2),
          daily('app_1', '2.0.0', '2026-03-02', 1),
          daily('app_1', '1.0.0', '2026-03-01', 1),
          daily('app_1', '2.0.0', '2026-03-01', 1),
        ]);
        expect(await store.listDailyCounts('app_1', { version: '1.0.0' })).to.deep.equal([
          daily('app_1', '1.0.0', '2026-03-04', 4),
          daily('app_1', '1.0.0', '2026-03-03', 3),
          daily('app_1', '1.0.0', '2026-03-02', 2),
          daily('app_1', '1.0.0', '2026-03-01', 1),
        ]);
        expect(await store.listDailyCounts('app_1', { from: '2026-03-03' })).to.deep.equal([
          daily('app_1', '1.0.0', '2026-03-04', 4),
          daily('app_1', '2.0.0', '2026-03-04', 1),
          daily('app_1', '1.0.0', '2026-03-03', 3),
          daily('app_1', '2.0.0', '2026-03-03', 1),
        ]);
        expect(await store.listDailyCounts('app_1', { to: '2026-03-01' })).to.deep.equal([
          daily('app_1', '1.0.0', '2026-03-01', 1),
          daily('app_1', '2.0.0', '2026-03-01', 1),
        ]);
        expect(await store.listDailyCounts('app_1', { version: '2.0.0', from: '2026-03-02', to: '2026-03-03' })).to.deep.equal([
          daily('app_1', '2.0.0', '2026-03-03', 1),
          daily('app_1', '2.0.0', '2026-03-02', 1),
        ]);
        expect(await store.listDailyCounts('app_1', { from: '2026-03-04', to: '2026-03-01' })).to.deep.equal([]);
        expect(await store.listDailyCounts('app_2', {})).to.deep.equal([]);
      });
    });

    describe('update checks and adoption', () => {
      const check = (id: string, overrides: Partial<CheckEvent> = {}) => checkEvent(id, overrides);
      const count = (overrides: Partial<AdoptionCount>): AdoptionCount => ({
        applicationId: 'app_1', date: '2026-03-01', channel: ALL, platform: ALL, arch: ALL, version: ALL, checks: 0, installs: 0, ...overrides,
      });
      const selection = { channel: ALL, platform: ALL, arch: ALL, from: '2026-01-01', to: '2026-12-31' };

      it('claims checks in the order stored, the same batch until it is finished, and each batch counts once', async () => {
        await store.insertCheckEvents([check('c_1'), check('c_2', { runningVersion: '2.0.0' }), check('c_3')]);
        await store.insertCheckEvents([check('c_1')]);
        const batch = await store.claimCheckBatch(2);
        expect(batch?.events.map((e) => e.eventId)).to.deep.equal(['c_1', 'c_2']);
        expect(batch?.events[1]).to.deep.equal(check('c_2', { runningVersion: '2.0.0' }));
        const again = await store.claimCheckBatch(2);
        expect(again?.batchId).to.equal(batch?.batchId);
        const counts = [count({ checks: 2, installs: 2 }), count({ version: '1.0.0', checks: 1, installs: 1 })];
        const seen = [{ applicationId: 'app_1', customerId: 'cust_1', version: '1.0.0', lastReportedAt: at(0) }];
        // Two finishers of one batch (a worker that stalled and the one that took over): counted once.
        const finished = await Promise.all([store.finishCheckBatch(batch!.batchId, counts, seen), store.finishCheckBatch(batch!.batchId, counts, seen)]);
        expect(finished.filter(Boolean).length).to.be.at.least(1);
        expect(await store.finishCheckBatch(batch!.batchId, counts, seen)).to.equal(false);
        expect(await store.listAdoptionCounts('app_1', selection)).to.deep.equal(counts);
        const next = await store.claimCheckBatch(2);
        expect(next?.events.map((e) => e.eventId)).to.deep.equal(['c_3']);
        await store.finishCheckBatch(next!.batchId, [count({ checks: 1, installs: 1 })], []);
        expect(await store.claimCheckBatch(2)).to.equal(null);
        expect(await store.listAdoptionCounts('app_1', selection)).to.deep.equal([count({ checks: 3, installs: 2 }), counts[1]]);
      });

      it('raises installs to an estimate but never lowers them, and reads one selection within the dates', async () => {
        const batches: string[] = [];
        for (const id of ['c_1', 'c_2']) {
          await store.insertCheckEvents([check(id)]);
          batches.push((await store.claimCheckBatch(10))!.batchId);
          const installs = id === 'c_1' ? 5 : 3;
          await store.finishCheckBatch(batches[batches.length - 1], [
            count({ checks: 1, installs }),
            count({ platform: 'linux', checks: 1, installs }),
            count({ date: '2026-03-02', checks: 1, installs: 1 }),
            count({ applicationId: 'app_2', checks: 1, installs: 1 }),
          ], []);
        }
        expect(await store.listAdoptionCounts('app_1', selection)).to.deep.equal([
          count({ checks: 2, installs: 5 }), count({ date: '2026-03-02', checks: 2, installs: 1 }),
        ]);
        expect(await store.listAdoptionCounts('app_1', { ...selection, platform: 'linux' })).to.deep.equal([count({ platform: 'linux', checks: 2, installs: 5 })]);
        expect(await store.listAdoptionCounts('app_1', { ...selection, from: '2026-03-02', to: '2026-03-02' })).to.deep.equal([count({ date: '2026-03-02', checks: 2, installs: 1 })]);
      });

      it("keeps each customer's latest report per version, paged by customer", async () => {
        await store.insertCheckEvents([check('c_1')]);
        const batch = (await store.claimCheckBatch(10))!;
        await store.finishCheckBatch(batch.batchId, [], [
          { applicationId: 'app_1', customerId: 'cust_b', version: '1.0.0', lastReportedAt: at(5) },
          { applicationId: 'app_1', customerId: 'cust_a', version: '1.0.0', lastReportedAt: at(1) },
          { applicationId: 'app_1', customerId: 'cust_a', version: '2.0.0', lastReportedAt: at(2) },
          { applicationId: 'app_2', customerId: 'cust_c', version: '2.0.0', lastReportedAt: at(2) },
        ]);
        await store.insertCheckEvents([check('c_2')]);
        const later = (await store.claimCheckBatch(10))!;
        await store.finishCheckBatch(later.batchId, [], [
          { applicationId: 'app_1', customerId: 'cust_b', version: '1.0.0', lastReportedAt: at(3) },
          { applicationId: 'app_1', customerId: 'cust_a', version: '1.0.0', lastReportedAt: at(4) },
        ]);
        const first = await store.listCustomerAdoption('app_1', 1, 1);
        expect(first).to.deep.equal({ total: 2, items: [{ customerId: 'cust_a', versions: [{ version: '1.0.0', lastReportedAt: at(4) }, { version: '2.0.0', lastReportedAt: at(2) }] }] });
        const second = await store.listCustomerAdoption('app_1', 2, 1);
        expect(second.items).to.deep.equal([{ customerId: 'cust_b', versions: [{ version: '1.0.0', lastReportedAt: at(5) }] }]);
        await expectRangeErrorOf(store.listCustomerAdoption('app_1', 0, 1));
      });

      it('purges only rolled-up checks older than the cut-off, at most `limit` at a time', async () => {
        await store.insertCheckEvents([check('c_1', { timestamp: at(0) }), check('c_2', { timestamp: at(1) }), check('c_3', { timestamp: at(2) })]);
        const batch = (await store.claimCheckBatch(2))!;
        await store.finishCheckBatch(batch.batchId, [], []);
        await store.insertCheckEvents([check('c_4', { timestamp: at(0) })]);
        // c_3 and c_4 are not rolled up yet: kept whatever their age.
        expect(await store.purgeCheckEvents(at(10), 1)).to.equal(1);
        expect(await store.purgeCheckEvents(at(10), 10)).to.equal(1);
        expect(await store.purgeCheckEvents(at(10), 10)).to.equal(0);
        expect((await store.claimCheckBatch(10))?.events.map((e) => e.eventId)).to.deep.equal(['c_3', 'c_4']);
        await expectRangeErrorOf(store.purgeCheckEvents(at(10), 0));
      });
    });

    describe('records stored under earlier input rules', () => {
      // The gateway now refuses such ids and text, but records written before must read back exactly.
      const text = 'nul\u0000 crlf\r\n cr\r c1\u0085 ls\u2028 rlo\u202E tab\t';

      it('returns ids that are object property names and text with control characters exactly as stored', async () => {
        const c = customer('__proto__', { name: text, notes: text });
        await store.createCustomer(c);
        await store.createCustomer(customer('constructor'));
        expect(await store.getCustomer('__proto__')).to.deep.equal(c);
        expect((await store.updateCustomer('__proto__', { tier: 'gold' }, at(1)))?.name).to.equal(text);
        expect(await store.findMissingCustomers(['__proto__', 'toString', 'constructor'])).to.deep.equal(['toString']);

        const app = application('constructor', { name: text, description: text, tags: [text, 'toString'], customerIds: ['__proto__'] });
        await store.createApplication(app);
        expect(await store.getApplication('constructor')).to.deep.equal(app);
        expect(ids((await store.listApplications({ page: 1, pageSize: 10, tag: 'toString', customerId: '__proto__' })).items)).to.deep.equal(['constructor']);

        for (const version of ['..', '%', '?x', '__proto__', 'constructor']) {
          const stored = await store.upsertVersion('constructor', version, { releaseNotes: text }, at(2));
          expect(await store.getVersion('constructor', version)).to.deep.equal(stored);
          const f = await store.insertFile(file(`f_${version}`, { applicationId: 'constructor', version, fileName: text, fileType: 'MAIN' }));
          expect(await store.getFile(f.fileId)).to.deep.equal(f);
        }
        expect((await store.listVersions('constructor')).map((v) => v.version)).to.have.members(['..', '%', '?x', '__proto__', 'constructor']);

        await store.insertEvents([event('e_1', { applicationId: 'constructor', version: '__proto__' }), event('e_2', { applicationId: 'constructor', version: 'constructor' })]);
        await store.rollupEvents(10);
        expect(await store.listDailyCounts('constructor', { version: '__proto__' })).to.deep.equal([daily('constructor', '__proto__', '2026-03-01', 1)]);
      });
    });
  });
}

describeStoreContract('SQLite', async (options) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-store-contract-'));
  const store = new SqliteStore(path.join(dir, 'store.sqlite'), options);
  return {
    store,
    async dispose() {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

/**
 * What the SQLite store's migration does to a database of the release before the release model:
 * the rows that release wrote, in its schema, read back with the defaults, in the version order.
 */
describe('SQLite store: customer search and share link listing', () => {
  it('reach their rows through indexes, never a scan of the whole table', async () => {
    const store = new SqliteStore(':memory:');
    try {
      const { db } = (store as unknown as { database: { db: Database.Database } }).database;
      const plans = [
        ["SELECT COUNT(*) AS n FROM customers WHERE customer_id LIKE 'ac%' ESCAPE '\\' OR name LIKE 'ac%' ESCAPE '\\'", []],
        ['SELECT * FROM share_links WHERE customer_id = ? ORDER BY created_at DESC, token_hash DESC LIMIT ?', ['cust_1', 10]],
      ] as const;
      for (const [sql, parameters] of plans) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map((step) => step.detail);
        expect(plan.filter((detail) => /^SCAN /.test(detail)), `${sql}\n${plan.join('\n')}`).to.deep.equal([]);
      }
    } finally {
      await store.close();
    }
  });
});

describe('SQLite store: webhook statements', () => {
  it('reads and writes webhook tables only through their keys and indexes, never a scan of a whole table', async () => {
    const store = new SqliteStore(':memory:');
    try {
      // Every webhook method once; the statements they prepared are then planned one by one.
      await store.createWebhookEndpoint(webhookEndpoint('whk_1', { events: ['customer.created', 'download.recorded'] }));
      await store.getWebhookEndpoint('whk_1');
      await store.listWebhookEndpoints(1, 10);
      await store.updateWebhookEndpoint('whk_1', { events: ['customer.created'], isActive: true }, at(1));
      await store.markWebhookEndpointFailing('whk_1', at(2));
      await store.listSubscribedWebhookEndpoints('customer.created');
      await store.insertWebhookDelivery(webhookDelivery('msg_1'));
      await store.getWebhookDelivery('msg_1');
      await store.listWebhookDeliveries('whk_1', 1, 10);
      await store.recordWebhookAttempt('msg_1', { status: 'failed', responseStatus: 500, responseBody: '', error: 'x', deliveredAt: null }, at(3));
      await store.setWebhookDeliveryStatus('msg_1', ['failed'], 'pending', null, at(4));
      await store.purgeWebhookDeliveries(at(10), 10);
      await store.deleteWebhookEndpoint('whk_1');
      await store.addWebhookOutboxEntries([{ eventId: 'evt_1', type: 'customer.created', occurredAt: at(1), state: 'pending', data: null, subject: ['cus_1'], writtenAt: at(1) }]);
      await store.confirmWebhookOutboxEntries([{ eventId: 'evt_1', data: {} }]);
      await store.listWebhookOutboxEntries(at(2), 10);
      await store.listWebhookOutboxEntries(at(2), 10, { writtenAt: at(0), eventId: 'evt_0' });
      await store.deleteWebhookOutboxEntries(['evt_1']);

      const { db, statements } = (store as unknown as { database: { db: Database.Database; statements: Map<string, unknown> } }).database;
      const webhookStatements = [...statements.keys()].filter((sql) => /webhook_/.test(sql) && !/^INSERT/.test(sql.trim()));
      expect(webhookStatements.length).to.be.at.least(14);
      for (const sql of webhookStatements) {
        const parameters = (sql.match(/\?/g) ?? []).map(() => null);
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map((step) => step.detail);
        // Only the listing of all endpoints walks a whole index (in order, or to count); a statement
        // with a condition reaches its rows through a key (SEARCH), never by reading every row (SCAN).
        const scans = plan.filter((detail) => (/\bWHERE\b/.test(sql) ? /^SCAN /.test(detail) : /^SCAN \w+$/.test(detail)));
        expect(scans, `${sql}\n${plan.join('\n')}`).to.deep.equal([]);
      }
    } finally {
      await store.close();
    }
  });
});

describe('SQLite store opening a database of the release before the release model', () => {
  let dir: string;
  let databaseFile: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-store-migration-'));
    databaseFile = path.join(dir, 'store.sqlite');
    const db = new Database(databaseFile);
    db.exec(FIRST_SCHEMA);
    const ms = (minutes: number) => at(minutes).getTime();
    const version = db.prepare('INSERT INTO versions (application_id, version, release_notes, required_tier, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
    db.prepare(`INSERT INTO applications (application_id, name, description, tags, customer_ids, created_at, updated_at, deleted_at)
       VALUES ('app_1', 'Old app', NULL, '[]', '[]', ?, ?, NULL)`).run(ms(0), ms(0));
    version.run('app_1', '1.10.0', 'Old', null, ms(1), ms(1));
    version.run('app_1', '1.9.0', null, 'gold', ms(2), ms(2));
    version.run('app_1', 'nightly', null, null, ms(3), ms(3));
    const insertFile = db.prepare(
      `INSERT INTO files (file_id, application_id, version, file_name, file_size, content_type, checksum, file_type, status, live, storage_key, created_at, updated_at)
       VALUES (?, 'app_1', ?, ?, 5000000000, 'application/octet-stream', ?, 'MAIN', ?, 1, ?, ?, ?)`,
    );
    insertFile.run('f_old', '1.10.0', 'f_old.bin', `sha256:${'ab'.repeat(32)}`, 'available', 'apps/app_1/f_old', ms(0), ms(0));
    insertFile.run('f_pending', '1.9.0', 'f_pending.bin', null, 'pending', 'apps/app_1/f_pending', ms(0), ms(0));
    db.prepare(
      `INSERT INTO upload_sessions (upload_id, application_id, version, file_name, file_size, content_type, file_type, release_notes, required_tier,
         file_id, storage_key, status, expected_checksum, failure_reason, expires_at, created_at, updated_at)
       VALUES ('up_1', 'app_1', '1.0.0', 'installer.exe', 123456, 'application/octet-stream', 'MAIN', 'First release', NULL,
         'file_up_1', 'uploads/up_1', 'issued', NULL, NULL, ?, ?, ?)`,
    ).run(ms(60), ms(0), ms(0));
    const insertEvent = db.prepare(
      `INSERT INTO events (event_id, type, application_id, version, file_id, customer_id, client_ip, user_agent, ts)
       VALUES (?, ?, 'app_1', '1.10.0', 'file_1', ?, '203.0.113.7', 'curl/8.5.0', ?)`,
    );
    insertEvent.run('d_counted', 'download', 'cust_1', ms(0));
    insertEvent.run('u_1', 'upload', null, ms(1));
    insertEvent.run('d_uncounted', 'download', 'cust_1', ms(2));
    db.prepare('INSERT INTO rollup_state (id, last_seq) VALUES (1, 1)').run();
    db.prepare(`INSERT INTO daily_counts (application_id, version, date, count) VALUES ('app_1', '1.10.0', '2026-03-01', 1)`).run();
    db.prepare(
      `INSERT INTO share_links (token_hash, customer_id, application_id, version, file_id, expires_at, revoked_at, expired_at, created_at)
       VALUES ('token_old', 'cust_1', 'app_1', '1.0.0', 'file_1', ?, NULL, NULL, ?)`,
    ).run(ms(60), ms(0));
    db.close();
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function withStore<T>(use: (store: SqliteStore) => Promise<T>): Promise<T> {
    const store = new SqliteStore(databaseFile, { defaultChannel: 'main' });
    try {
      return await use(store);
    } finally {
      await store.close();
    }
  }

  const schemaVersion = () => {
    const db = new Database(databaseFile, { readonly: true });
    try {
      return db.pragma('user_version', { simple: true });
    } finally {
      db.close();
    }
  };

  it('reads applications as publishing the versions their uploads create, as they did', async () => {
    await withStore(async (store) => {
      expect(await store.getApplication('app_1')).to.deep.equal(application('app_1', { name: 'Old app', createdAt: at(0), updatedAt: at(0), defaultVersionStatus: 'published' }));
    });
  });

  it('reads versions as published since their creation, in the default channel, to everyone, in the version order', async () => {
    await withStore(async (store) => {
      expect(await store.getVersion('app_1', '1.10.0')).to.deep.equal(versionRecord('app_1', '1.10.0', {
        releaseNotes: 'Old', channel: 'main', publishedAt: at(1), createdAt: at(1), updatedAt: at(1),
      }));
      // Creation order and string order both put 1.9.0 first: only the order key puts 1.10.0 there.
      expect(versionNames(await store.listVersions('app_1'))).to.deep.equal(['1.10.0', '1.9.0', 'nightly']);
      expect(versionNames(await store.listVersions('app_1', { channels: ['main'], statuses: ['published'] }))).to.deep.equal(['1.10.0', '1.9.0', 'nightly']);
      const yanked = await store.transitionVersion('app_1', '1.9.0', 'yanked', at(5));
      expect(yanked).to.deep.include({ outcome: 'applied', from: 'published' });
      expect(await store.getVersion('app_1', '1.9.0')).to.deep.include({ status: 'yanked', publishedAt: at(2), requiredTier: 'gold' });
    });
    expect(schemaVersion()).to.equal(SCHEMA_VERSION);
  });

  it('reads files for any platform and arch without a SHA-512, and holds their MAIN slots per platform and arch', async () => {
    await withStore(async (store) => {
      const old = await store.getFile('f_old');
      expect(old).to.deep.equal(file('f_old', { fileType: 'MAIN', version: '1.10.0', createdAt: at(0), updatedAt: at(0) }));
      expect(await store.listFilesMissingDigests(10)).to.deep.equal([old]);
      await expectDuplicate(store.insertFile(file('f_2', { version: '1.10.0', fileType: 'MAIN' })), 'mainFile');
      await expectDuplicate(store.insertFile(file('f_3', { version: '1.9.0', fileType: 'MAIN' })), 'mainFile');
      await store.insertFile(file('f_4', { version: '1.10.0', fileType: 'MAIN', platform: 'windows', arch: 'x64' }));
    });
  });

  it('reads sessions and events for any platform and arch, and keeps counting every download once', async () => {
    await withStore(async (store) => {
      expect(await store.getUploadSession('up_1')).to.deep.equal(uploadSession('up_1'));
      expect((await store.listEvents({ limit: 10 })).map((e) => [e.eventId, e.platform, e.arch])).to.deep.equal([
        ['d_uncounted', 'any', 'any'], ['u_1', 'any', 'any'], ['d_counted', 'any', 'any'],
      ]);
      expect(await store.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.10.0', '2026-03-01', 1)]);
      expect(await store.rollupEvents(100)).to.equal(1);
      await store.insertEvents([event('d_new', { version: '1.10.0', platform: 'windows', arch: 'x64' })]);
      expect(await store.rollupEvents(100)).to.equal(1);
      expect(await store.listDailyCounts('app_1', {})).to.deep.equal([
        daily('app_1', '1.10.0', '2026-03-01', 2),
        daily('app_1', '1.10.0', '2026-03-01', 1, 'windows'),
      ]);
    });
  });

  it('reads share links as links without a cap, whose uses are not counted', async () => {
    await withStore(async (store) => {
      expect(await store.getShareLink('token_old')).to.deep.equal(shareLink('token_old'));
      expect(await store.countShareLinkUse('token_old')).to.equal(null);
    });
  });

  it('migrates once: opening the migrated file again changes nothing', async () => {
    const first = await withStore(async (store) => [await store.listVersions('app_1'), await store.listDailyCounts('app_1', {})]);
    expect(await withStore(async (store) => [await store.listVersions('app_1'), await store.listDailyCounts('app_1', {})])).to.deep.equal(first);
    expect(schemaVersion()).to.equal(SCHEMA_VERSION);
  });
});

/** Versions an earlier version order keyed as free-form: SemVer with a number past 2^53 and a prerelease or build metadata. */
const KEYED_AS_FREE_FORM = ['99999999999999999999999.0.0-rc.1', '1.2.99999999999999999999+build.7'];
/** What listings show once every key is this release's. */
const REKEYED_ORDER = ['99999999999999999999999.0.0-rc.1', '1.2.99999999999999999999+build.7', '1.1.0', 'nightly'];
/** The key an earlier version order gave a free-form version. */
const EARLIER_FREE_FORM_KEY = '0';

describe('SQLite store opening a database keyed by an earlier version order', () => {
  let dir: string;
  let databaseFile: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-store-rekey-'));
    databaseFile = path.join(dir, 'store.sqlite');
    // As the release before migration 9 left it.
    const db = new Database(databaseFile);
    migrateSchema(db, DEFAULT_STORE_OPTIONS, 8);
    const insert = db.prepare('INSERT INTO versions (application_id, version, order_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
    for (const [i, version] of ['1.1.0', 'nightly', ...KEYED_AS_FREE_FORM].entries()) {
      const key = KEYED_AS_FREE_FORM.includes(version) ? EARLIER_FREE_FORM_KEY : versionOrderKey(version);
      insert.run('app_1', version, key, at(i).getTime(), at(i).getTime());
    }
    db.close();
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives every version the key of this release when it opens, so listings sort them in the version order', async () => {
    const store = new SqliteStore(databaseFile);
    try {
      expect(versionNames(await store.listVersions('app_1'))).to.deep.equal(REKEYED_ORDER);
    } finally {
      await store.close();
    }
    const db = new Database(databaseFile, { readonly: true });
    try {
      const keys = db.prepare('SELECT version, order_key FROM versions').all() as { version: string; order_key: string }[];
      for (const { version, order_key: key } of keys) expect(key, version).to.equal(versionOrderKey(version));
      expect(db.pragma('user_version', { simple: true })).to.equal(SCHEMA_VERSION);
    } finally {
      db.close();
    }
  });
});

describe('SQLite store opening a database of the release before the webhook outbox', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-store-outbox-migration-'));
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('moves the events kept while Redis refused them into the outbox, ready to be relayed', async () => {
    const databaseFile = path.join(dir, 'store.sqlite');
    // As that release left it (schema 8), with one event kept.
    const db = new Database(databaseFile);
    migrateSchema(db, DEFAULT_STORE_OPTIONS, 8);
    db.prepare('INSERT INTO unqueued_webhook_events VALUES (?, ?, ?, ?, ?)').run('evt_kept', 'customer.created', at(1).getTime(), '{"customerId":"cus_1"}', at(2).getTime());
    db.close();

    const store = new SqliteStore(databaseFile);
    try {
      expect(await store.listWebhookOutboxEntries(at(3), 10)).to.deep.equal([{
        eventId: 'evt_kept', type: 'customer.created', occurredAt: at(1), state: 'ready', data: { customerId: 'cus_1' }, subject: [], writtenAt: at(2),
      }]);
    } finally {
      await store.close();
    }
  });
});

/**
 * A fresh database on the server of `uri`, named after the URI's own database plus `suffix`.
 * Credentials keep authenticating against the database they were given for.
 */
function freshDatabase(uri: string, suffix: string): { name: string; uri: string } {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/([^?]*))?(?:\?(.*))?$/.exec(uri);
  if (!match) throw new Error('MONGODB_URI is not a mongodb:// URI');
  const [, server, base = '', query = ''] = match;
  const options = new URLSearchParams(query);
  if (server.includes('@') && !options.has('authSource')) options.set('authSource', base || 'admin');
  const name = `${base || 'bds'}_${suffix}`;
  const search = options.toString();
  return { name, uri: `${server}/${name}${search ? `?${search}` : ''}` };
}

/** Needs no server: the driver's own failure to reach one. */
describe('MongoStore with no server at its address', () => {
  it('refuses to connect with DependencyUnavailableError', async () => {
    const unused = net.createServer();
    await new Promise<void>((resolve) => unused.listen(0, '127.0.0.1', resolve));
    const { port } = unused.address() as net.AddressInfo;
    await new Promise((resolve) => unused.close(resolve));
    const error = await rejectionOf(MongoStore.connect(`mongodb://127.0.0.1:${port}/bds?serverSelectionTimeoutMS=200`));
    expect(error).to.be.instanceOf(DependencyUnavailableError);
    expect(error).to.include({ dependency: 'database' });
  });
});

const mongodbUri = process.env.MONGODB_URI;
if (mongodbUri) {
  describe('with MongoDB', () => {
    const run = randomBytes(4).toString('hex');
    let tests = 0;
    let admin: Connection | undefined;

    before(async () => {
      admin = await mongoose.createConnection(mongodbUri).asPromise();
    });

    after(async () => {
      await admin?.close();
    });

    describeStoreContract('MongoDB', async (options) => {
      tests += 1;
      const database = freshDatabase(mongodbUri, `contract_${run}_${tests}`);
      const store = await MongoStore.connect(database.uri, options);
      return {
        store,
        async dispose() {
          await store.close();
          await admin?.useDb(database.name, { useCache: false }).dropDatabase();
        },
      };
    });

    /** Indexes across a rolling deploy: a start creates what is missing and drops nothing; the migration step drops. */
    describe('MongoStore indexes', () => {
      let database: { name: string; uri: string };
      let db: Connection;

      beforeEach(() => {
        tests += 1;
        database = freshDatabase(mongodbUri, `contract_${run}_${tests}`);
        db = (admin as Connection).useDb(database.name, { useCache: false });
      });

      afterEach(async () => {
        await db.dropDatabase();
      });

      const indexNames = async (collection: string) => (await db.collection(collection).indexes()).map((index) => index.name).sort();

      it('keeps an index an older release relies on when a new one starts, and drops it only when migrated', async () => {
        await db.collection('applications').createIndex({ name: 1 }, { name: 'name_from_an_older_release' });
        const store = await MongoStore.connect(database.uri);
        await store.close();
        const started = await indexNames('applications');
        expect(started).to.include('name_from_an_older_release').and.to.include('unique_applicationId');
        const { dropped } = await migrateDatabase(database.uri, DEFAULT_STORE_OPTIONS);
        expect(dropped.applications).to.deep.equal(['name_from_an_older_release']);
        expect(Object.values(dropped).flat()).to.deep.equal(['name_from_an_older_release']);
        expect(await indexNames('applications')).to.deep.equal(started.filter((name) => name !== 'name_from_an_older_release'));
      });

      it('relays the events an earlier release kept while Redis refused them: its documents read as ready outbox entries', async () => {
        const keptAt = new Date('2026-01-02T03:04:05.000Z');
        await db.collection('unqueuedWebhookEvents').insertOne({
          eventId: 'evt_kept', type: 'customer.created', occurredAt: keptAt, data: JSON.stringify({ customerId: 'cus_1' }), keptAt,
        });
        const store = await MongoStore.connect(database.uri);
        try {
          expect(await store.listWebhookOutboxEntries(new Date(keptAt.getTime() + 1), 10)).to.deep.equal([{
            eventId: 'evt_kept', type: 'customer.created', occurredAt: keptAt, state: 'ready', data: { customerId: 'cus_1' }, subject: [], writtenAt: keptAt,
          }]);
          expect(await indexNames('unqueuedWebhookEvents'), 'the relay reads by (keptAt, eventId)').to.include('keptAt_1_eventId_1');
        } finally {
          await store.close();
        }
      });

      it('creates every declared index at start, so migrating an up-to-date database drops nothing', async () => {
        const store = await MongoStore.connect(database.uri);
        await store.close();
        const before = await Promise.all(['files', 'events', 'dailyCounts'].map(indexNames));
        expect(before[0]).to.include('unique_mainFileOfTarget').and.to.include('unique_fileName');
        expect(Object.values((await migrateDatabase(database.uri, DEFAULT_STORE_OPTIONS)).dropped).flat()).to.deep.equal([]);
        expect(await Promise.all(['files', 'events', 'dailyCounts'].map(indexNames))).to.deep.equal(before);
      });
    });

    /**
     * Documents and indexes of the release before the release model, as a rolling deploy finds them:
     * read with the defaults by the new release at once, given their fields by `npm run migrate`.
     */
    describe('MongoStore reading documents of the release before the release model', () => {
      let database: { name: string; uri: string };
      let db: Connection;
      let store: MongoStore;
      const options = { defaultChannel: 'main' };

      beforeEach(async () => {
        tests += 1;
        database = freshDatabase(mongodbUri, `contract_${run}_${tests}`);
        db = (admin as Connection).useDb(database.name, { useCache: false });
        // The indexes of that release that this one no longer declares, and its file-name index, older than the new MAIN index.
        await db.collection('files').createIndex({ applicationId: 1, version: 1 },
          { name: 'unique_mainFile', unique: true, partialFilterExpression: { live: true, fileType: 'MAIN' } });
        await db.collection('files').createIndex({ applicationId: 1, version: 1, fileName: 1 },
          { name: 'unique_fileName', unique: true, partialFilterExpression: { live: true } });
        await db.collection('versions').createIndex({ applicationId: 1, createdAt: -1, version: -1 });
        const { isActive: _isActive, defaultVersionStatus: _status, ...oldApplication } = application('app_1');
        await db.collection('applications').insertOne(oldApplication);
        await db.collection('versions').insertMany([
          { applicationId: 'app_1', version: '1.10.0', releaseNotes: 'Old', requiredTier: null, createdAt: at(1), updatedAt: at(1) },
          { applicationId: 'app_1', version: '1.9.0', releaseNotes: null, requiredTier: 'gold', createdAt: at(2), updatedAt: at(2) },
          { applicationId: 'app_1', version: 'nightly', releaseNotes: null, requiredTier: null, createdAt: at(3), updatedAt: at(3) },
        ]);
        const { platform: _platform, arch: _arch, sha512: _sha512, sha1: _sha1, ...old } = file('f_old', { fileType: 'MAIN', version: '1.10.0' });
        await db.collection('files').insertOne({ ...old, live: true });
        const { platform: _p, arch: _a, channel: _c, versionStatus: _v, ...session } = uploadSession('up_1');
        await db.collection('uploadSessions').insertOne(session);
        const { platform: _ep, arch: _ea, ...downloaded } = event('d_counted', { version: '1.10.0' });
        await db.collection('events').insertMany([
          { ...downloaded, counted: true, batchId: 'old' },
          { ...downloaded, eventId: 'd_uncounted', timestamp: at(2), counted: false, batchId: null },
        ]);
        await db.collection('dailyCounts').insertOne({ applicationId: 'app_1', version: '1.10.0', date: '2026-03-01', count: 1, appliedBatches: ['old'] });
        const { maxDownloads: _m, downloadCount: _d, ...link } = shareLink('token_old');
        await db.collection('shareLinks').insertOne(link);
        store = await MongoStore.connect(database.uri, options);
      });

      afterEach(async () => {
        await store.close();
        await db.dropDatabase();
      });

      it('reads applications as publishing the versions their uploads create, before and after migrating', async () => {
        expect(await store.getApplication('app_1')).to.deep.equal(application('app_1'));
        await migrateDatabase(database.uri, options);
        expect(await db.collection('applications').findOne({ applicationId: 'app_1' })).to.include({ defaultVersionStatus: 'published' });
        expect(await store.getApplication('app_1')).to.deep.equal(application('app_1'));
      });

      it('reads versions as published since their creation, in the default channel, in the version order, before and after migrating', async () => {
        const old = versionRecord('app_1', '1.10.0', { releaseNotes: 'Old', channel: 'main', publishedAt: at(1), createdAt: at(1), updatedAt: at(1) });
        expect(await store.getVersion('app_1', '1.10.0')).to.deep.equal(old);
        await store.upsertVersion('app_1', '1.11.0', {}, at(4));
        await store.upsertVersion('app_1', '2.0.0-rc.1', { channel: 'rc', initialStatus: 'draft' }, at(4));
        const all = ['2.0.0-rc.1', '1.11.0', '1.10.0', '1.9.0', 'nightly'];
        const listings = async () => [
          versionNames(await store.listVersions('app_1')),
          versionNames(await store.listVersions('app_1', { channels: ['main'], statuses: ['published'] })),
          versionNames(await store.listVersions('app_1', { channels: ['rc'] })),
          versionNames(await store.listVersions('app_1', { statuses: ['yanked', 'draft'] })),
        ];
        const expected = [all, ['1.11.0', '1.10.0', '1.9.0', 'nightly'], ['2.0.0-rc.1'], ['2.0.0-rc.1']];
        expect(await listings()).to.deep.equal(expected);

        const report = await migrateDatabase(database.uri, options);
        expect(report.backfilled).to.deep.equal({ versions: 3, files: 1, orderKeys: 0, applications: 1 });
        expect(report.dropped.versions).to.deep.equal(['applicationId_1_createdAt_-1_version_-1']);
        expect(await db.collection('versions').findOne({ version: '1.10.0' }, { projection: { _id: 0 } })).to.deep.equal({
          applicationId: 'app_1', version: '1.10.0', releaseNotes: 'Old', requiredTier: null, channel: 'main', status: 'published',
          rolloutPercentage: 100, publishedAt: at(1), orderKey: versionOrderKey('1.10.0'), createdAt: at(1), updatedAt: at(1),
        });
        expect(await listings()).to.deep.equal(expected);
        expect(await store.getVersion('app_1', '1.10.0')).to.deep.equal(old);
        expect((await migrateDatabase(database.uri, options)).backfilled).to.deep.equal({ versions: 0, files: 0, orderKeys: 0, applications: 0 });
      });

      it("keeps the earlier one-MAIN-per-version index's refusals until migrated, then holds one MAIN per platform and arch", async () => {
        const old = await store.getFile('f_old');
        expect(old).to.deep.equal(file('f_old', { fileType: 'MAIN', version: '1.10.0' }));
        expect(await store.listFilesMissingDigests(10)).to.deep.equal([old]);
        await expectDuplicate(store.insertFile(file('f_win', { version: '1.10.0', fileType: 'MAIN', platform: 'windows', arch: 'x64' })), 'mainFile');
        await expectDuplicate(store.insertFile(file('f_2', { version: '1.10.0', fileName: 'f_old.bin', fileType: 'MAIN' })), 'mainFile');

        expect((await migrateDatabase(database.uri, options)).dropped.files).to.deep.equal(['unique_mainFile']);
        await store.insertFile(file('f_win', { version: '1.10.0', fileType: 'MAIN', platform: 'windows', arch: 'x64' }));
        await expectDuplicate(store.insertFile(file('f_any', { version: '1.10.0', fileType: 'MAIN' })), 'mainFile');
        // Colliding on both the name and the slot, where the name index is the older one.
        await expectDuplicate(store.insertFile(file('f_2', { version: '1.10.0', fileName: 'f_old.bin', fileType: 'MAIN' })), 'mainFile');
        await expectDuplicate(store.insertFile(file('f_3', { version: '1.10.0', fileName: 'f_old.bin', fileType: 'MAIN', platform: 'linux' })), 'fileName');
      });

      it('reads share links as links without a cap, whose uses are not counted', async () => {
        expect(await store.getShareLink('token_old')).to.deep.equal(shareLink('token_old'));
        expect(await store.countShareLinkUse('token_old')).to.equal(null);
      });

      it('reads sessions and events for any platform and arch, and counts what the earlier release counted as any', async () => {
        expect(await store.getUploadSession('up_1')).to.deep.equal(uploadSession('up_1'));
        expect((await store.listEvents({ limit: 10 })).map((e) => [e.eventId, e.platform, e.arch])).to.deep.equal([
          ['d_uncounted', 'any', 'any'], ['d_counted', 'any', 'any'],
        ]);
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.10.0', '2026-03-01', 1)]);
        await store.insertEvents([event('d_new', { version: '1.10.0', platform: 'windows', arch: 'x64' })]);
        expect(await store.rollupEvents(100)).to.equal(2);
        expect(await store.rollupEvents(100)).to.equal(0);
        // A rollup of the earlier release, still running during a rolling deploy, adds to the total only.
        await db.collection('dailyCounts').updateOne({ applicationId: 'app_1', version: '1.10.0' }, { $inc: { count: 1 } });
        const counts = [daily('app_1', '1.10.0', '2026-03-01', 3), daily('app_1', '1.10.0', '2026-03-01', 1, 'windows')];
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal(counts);
        // The version, stored without a channel, is in the default one.
        expect(await store.listDailyCounts('app_1', { channel: 'main' })).to.deep.equal(counts);
        expect(await store.listDailyCounts('app_1', { channel: 'beta' })).to.deep.equal([]);
      });
    });

    /** What the contract cannot reach: a rollup interrupted between its steps, rebuilt here in the stored documents. */
    /** Versions keyed by an earlier version order, as a deploy finds them: read in order at once, rekeyed by `npm run migrate`. */
    describe('MongoStore reading versions keyed by an earlier version order', () => {
      let database: { name: string; uri: string };
      let db: Connection;
      let store: MongoStore;

      beforeEach(async () => {
        tests += 1;
        database = freshDatabase(mongodbUri, `contract_${run}_${tests}`);
        db = (admin as Connection).useDb(database.name, { useCache: false });
        store = await MongoStore.connect(database.uri);
        for (const [i, version] of ['1.1.0', 'nightly', ...KEYED_AS_FREE_FORM].entries()) await store.upsertVersion('app_1', version, {}, at(i));
        await db.collection('versions').updateMany({ version: { $in: KEYED_AS_FREE_FORM } }, { $set: { orderKey: EARLIER_FREE_FORM_KEY } });
      });

      afterEach(async () => {
        await store.close();
        await db.dropDatabase();
      });

      it('lists them in the version order before and after migrating, which gives each the key of this release', async () => {
        expect(versionNames(await store.listVersions('app_1'))).to.deep.equal(REKEYED_ORDER);
        expect((await migrateDatabase(database.uri, DEFAULT_STORE_OPTIONS)).backfilled).to.deep.equal({ versions: 0, files: 0, orderKeys: 2, applications: 0 });
        const stored = await db.collection('versions').find({}, { projection: { _id: 0, version: 1, orderKey: 1 } }).toArray();
        for (const { version, orderKey } of stored) expect(orderKey, version).to.equal(versionOrderKey(version));
        expect(versionNames(await store.listVersions('app_1'))).to.deep.equal(REKEYED_ORDER);
        expect((await migrateDatabase(database.uri, DEFAULT_STORE_OPTIONS)).backfilled).to.deep.equal({ versions: 0, files: 0, orderKeys: 0, applications: 0 });
      });
    });

    describe('MongoStore rollup resumed after a crash', () => {
      let store: MongoStore;
      let db: Connection;

      beforeEach(async () => {
        tests += 1;
        const database = freshDatabase(mongodbUri, `contract_${run}_${tests}`);
        store = await MongoStore.connect(database.uri);
        db = (admin as Connection).useDb(database.name, { useCache: false });
      });

      afterEach(async () => {
        await store.close();
        await db.dropDatabase();
      });

      /** Rebuilds the state a rollup leaves when it dies: its batch record, and the events it claimed so far. */
      async function crashedBatch(eventIdsInBatch: string[], claimed: string[]): Promise<void> {
        const events = await db.collection('events').find({ eventId: { $in: eventIdsInBatch } }).toArray();
        await db.collection<{ _id: string; eventIds: unknown[] }>('rollupBatches').insertOne({ _id: 'crashed', eventIds: events.map((e) => e._id) });
        await db.collection('events').updateMany({ eventId: { $in: claimed } }, { $set: { counted: true, batchId: 'crashed' } });
      }

      it('finishes a batch opened before the crash before opening a new one', async () => {
        await store.insertEvents([event('d_1'), event('d_2'), event('d_3', { timestamp: at(1) })]);
        await crashedBatch(['d_1', 'd_2'], []);
        expect(await store.rollupEvents(1)).to.equal(2);
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.0.0', '2026-03-01', 2)]);
        expect(await store.rollupEvents(100)).to.equal(1);
        expect(await store.rollupEvents(100)).to.equal(0);
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.0.0', '2026-03-01', 3)]);
      });

      it('finishes a batch whose claim was cut short', async () => {
        await store.insertEvents([event('d_1'), event('d_2'), event('d_3', { version: '2.0.0' })]);
        await crashedBatch(['d_1', 'd_2', 'd_3'], ['d_2']);
        expect(await store.rollupEvents(100)).to.equal(3);
        expect(await store.rollupEvents(100)).to.equal(0);
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal([
          daily('app_1', '1.0.0', '2026-03-01', 2),
          daily('app_1', '2.0.0', '2026-03-01', 1),
        ]);
      });

      it('adds a batch to a counter only once when the crash came after some of its counters', async () => {
        await store.insertEvents([event('d_1'), event('d_2', { version: '2.0.0' }), event('d_3', { version: '2.0.0' })]);
        await crashedBatch(['d_1', 'd_2', 'd_3'], ['d_1', 'd_2', 'd_3']);
        await db.collection('dailyCounts').insertOne(
          { applicationId: 'app_1', version: '1.0.0', date: '2026-03-01', count: 1, appliedBatches: ['crashed'] },
        );
        expect(await store.rollupEvents(100)).to.equal(3);
        const expected = [daily('app_1', '1.0.0', '2026-03-01', 1), daily('app_1', '2.0.0', '2026-03-01', 2)];
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal(expected);
        expect(await store.rollupEvents(100)).to.equal(0);
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal(expected);
      });

      it('closes a batch whose counters were all added before the crash, adding nothing', async () => {
        await store.insertEvents([event('d_1'), event('d_2')]);
        await crashedBatch(['d_1', 'd_2'], ['d_1', 'd_2']);
        await db.collection('dailyCounts').insertOne(
          { applicationId: 'app_1', version: '1.0.0', date: '2026-03-01', count: 2, appliedBatches: ['crashed'] },
        );
        expect(await store.rollupEvents(100)).to.equal(2);
        expect(await db.collection('rollupBatches').countDocuments()).to.equal(0);
        expect(await store.rollupEvents(100)).to.equal(0);
        expect(await store.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.0.0', '2026-03-01', 2)]);
      });
    });
  });
}
