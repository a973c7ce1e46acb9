import { expect } from 'chai';
import type { Connection } from 'mongoose';
import { migrateDatabase } from '../../shared/store/mongo/index-migration';
import { MongoStore } from '../../shared/store/mongo/mongo-store';
import { DEFAULT_STORE_OPTIONS } from '../../shared/store/options';
import { describeWithMongo } from '../support/mongo-test-server';

describeWithMongo('with MongoDB', (server) => {
  /** Indexes across a rolling deploy: a start creates what is missing and drops nothing; the migration step drops. */
  describe('MongoStore indexes', () => {
    let database: { name: string; uri: string };
    let db: Connection;

    beforeEach(() => {
      database = server.freshDatabase();
      db = server.admin.useDb(database.name, { useCache: false });
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
        expect(await store.webhooks.listWebhookOutboxEntries(new Date(keptAt.getTime() + 1), 10)).to.deep.equal([{
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
});
