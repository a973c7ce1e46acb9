import { expect } from 'chai';
import type { Connection } from 'mongoose';
import { versionOrderKey } from '../../shared/releases/version-order';
import { migrateDatabase } from '../../shared/store/mongo/index-migration';
import { MongoStore } from '../../shared/store/mongo/mongo-store';
import { DEFAULT_STORE_OPTIONS } from '../../shared/store/options';
import { describeWithMongo } from '../support/mongo-test-server';
import { application, at, downloadEvent as event, file, shareLink, uploadSession, version as versionRecord } from '../support/records';
import { daily, EARLIER_FREE_FORM_KEY, expectDuplicate, KEYED_AS_FREE_FORM, REKEYED_ORDER, versionNames } from '../support/store-expectations';

describeWithMongo('with MongoDB', (server) => {
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
      database = server.freshDatabase();
      db = server.admin.useDb(database.name, { useCache: false });
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
      expect(await store.applications.getApplication('app_1')).to.deep.equal(application('app_1'));
      await migrateDatabase(database.uri, options);
      expect(await db.collection('applications').findOne({ applicationId: 'app_1' })).to.include({ defaultVersionStatus: 'published' });
      expect(await store.applications.getApplication('app_1')).to.deep.equal(application('app_1'));
    });

    it('keeps an application stored with drafts as the status of what its uploads create, before and after migrating', async () => {
      const { isActive: _isActive, ...drafting } = application('app_2', { defaultVersionStatus: 'draft' });
      await db.collection('applications').insertOne(drafting);
      expect(await store.applications.getApplication('app_2')).to.include({ defaultVersionStatus: 'draft' });
      await migrateDatabase(database.uri, options);
      expect(await db.collection('applications').findOne({ applicationId: 'app_2' })).to.include({ defaultVersionStatus: 'draft' });
      expect(await store.applications.getApplication('app_2')).to.deep.equal(application('app_2', { defaultVersionStatus: 'draft' }));
    });

    it('reads versions as published since their creation, in the default channel, in the version order, before and after migrating', async () => {
      const old = versionRecord('app_1', '1.10.0', { releaseNotes: 'Old', channel: 'main', publishedAt: at(1), createdAt: at(1), updatedAt: at(1) });
      expect(await store.versions.getVersion('app_1', '1.10.0')).to.deep.equal(old);
      await store.versions.upsertVersion('app_1', '1.11.0', {}, at(4));
      await store.versions.upsertVersion('app_1', '2.0.0-rc.1', { channel: 'rc', initialStatus: 'draft' }, at(4));
      const all = ['2.0.0-rc.1', '1.11.0', '1.10.0', '1.9.0', 'nightly'];
      const listings = async () => [
        versionNames(await store.versions.listVersions('app_1')),
        versionNames(await store.versions.listVersions('app_1', { channels: ['main'], statuses: ['published'] })),
        versionNames(await store.versions.listVersions('app_1', { channels: ['rc'] })),
        versionNames(await store.versions.listVersions('app_1', { statuses: ['yanked', 'draft'] })),
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
      expect(await store.versions.getVersion('app_1', '1.10.0')).to.deep.equal(old);
      expect((await migrateDatabase(database.uri, options)).backfilled).to.deep.equal({ versions: 0, files: 0, orderKeys: 0, applications: 0 });
    });

    it("keeps the earlier one-MAIN-per-version index's refusals until migrated, then holds one MAIN per platform and arch", async () => {
      const old = await store.versions.getFile('f_old');
      expect(old).to.deep.equal(file('f_old', { fileType: 'MAIN', version: '1.10.0' }));
      expect(await store.versions.listFilesMissingDigests(10)).to.deep.equal([old]);
      await expectDuplicate(store.versions.insertFile(file('f_win', { version: '1.10.0', fileType: 'MAIN', platform: 'windows', arch: 'x64' })), 'mainFile');
      await expectDuplicate(store.versions.insertFile(file('f_2', { version: '1.10.0', fileName: 'f_old.bin', fileType: 'MAIN' })), 'mainFile');

      expect((await migrateDatabase(database.uri, options)).dropped.files).to.deep.equal(['unique_mainFile']);
      await store.versions.insertFile(file('f_win', { version: '1.10.0', fileType: 'MAIN', platform: 'windows', arch: 'x64' }));
      await expectDuplicate(store.versions.insertFile(file('f_any', { version: '1.10.0', fileType: 'MAIN' })), 'mainFile');
      // Colliding on both the name and the slot, where the name index is the older one.
      await expectDuplicate(store.versions.insertFile(file('f_2', { version: '1.10.0', fileName: 'f_old.bin', fileType: 'MAIN' })), 'mainFile');
      await expectDuplicate(store.versions.insertFile(file('f_3', { version: '1.10.0', fileName: 'f_old.bin', fileType: 'MAIN', platform: 'linux' })), 'fileName');
    });

    it('reads share links as links without a cap, whose uses are not counted', async () => {
      expect(await store.shareLinks.getShareLink('token_old')).to.deep.equal(shareLink('token_old'));
      expect(await store.shareLinks.countShareLinkUse('token_old')).to.equal(null);
    });

    it('reads sessions and events for any platform and arch, and counts what the earlier release counted as any', async () => {
      expect(await store.uploads.getUploadSession('up_1')).to.deep.equal(uploadSession('up_1'));
      expect((await store.activity.listEvents({ limit: 10 })).map((e) => [e.eventId, e.platform, e.arch])).to.deep.equal([
        ['d_uncounted', 'any', 'any'], ['d_counted', 'any', 'any'],
      ]);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.10.0', '2026-03-01', 1)]);
      await store.activity.insertEvents([event('d_new', { version: '1.10.0', platform: 'windows', arch: 'x64' })]);
      expect(await store.activity.rollupEvents(100)).to.equal(2);
      expect(await store.activity.rollupEvents(100)).to.equal(0);
      // A rollup of the earlier release, still running during a rolling deploy, adds to the total only.
      await db.collection('dailyCounts').updateOne({ applicationId: 'app_1', version: '1.10.0' }, { $inc: { count: 1 } });
      const counts = [daily('app_1', '1.10.0', '2026-03-01', 3), daily('app_1', '1.10.0', '2026-03-01', 1, 'windows')];
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal(counts);
      // The version, stored without a channel, is in the default one.
      expect(await store.activity.listDailyCounts('app_1', { channel: 'main' })).to.deep.equal(counts);
      expect(await store.activity.listDailyCounts('app_1', { channel: 'beta' })).to.deep.equal([]);
    });
  });

  /** Versions keyed by an earlier version order, as a deploy finds them: read in order at once, rekeyed by `npm run migrate`. */
  describe('MongoStore reading versions keyed by an earlier version order', () => {
    let database: { name: string; uri: string };
    let db: Connection;
    let store: MongoStore;

    beforeEach(async () => {
      database = server.freshDatabase();
      db = server.admin.useDb(database.name, { useCache: false });
      store = await MongoStore.connect(database.uri);
      for (const [i, version] of ['1.1.0', 'nightly', ...KEYED_AS_FREE_FORM].entries()) await store.versions.upsertVersion('app_1', version, {}, at(i));
      await db.collection('versions').updateMany({ version: { $in: KEYED_AS_FREE_FORM } }, { $set: { orderKey: EARLIER_FREE_FORM_KEY } });
    });

    afterEach(async () => {
      await store.close();
      await db.dropDatabase();
    });

    it('lists them in the version order before and after migrating, which gives each the key of this release', async () => {
      expect(versionNames(await store.versions.listVersions('app_1'))).to.deep.equal(REKEYED_ORDER);
      expect((await migrateDatabase(database.uri, DEFAULT_STORE_OPTIONS)).backfilled).to.deep.equal({ versions: 0, files: 0, orderKeys: 2, applications: 0 });
      const stored = await db.collection('versions').find({}, { projection: { _id: 0, version: 1, orderKey: 1 } }).toArray();
      for (const { version, orderKey } of stored) expect(orderKey, version).to.equal(versionOrderKey(version));
      expect(versionNames(await store.versions.listVersions('app_1'))).to.deep.equal(REKEYED_ORDER);
      expect((await migrateDatabase(database.uri, DEFAULT_STORE_OPTIONS)).backfilled).to.deep.equal({ versions: 0, files: 0, orderKeys: 0, applications: 0 });
    });
  });
});
