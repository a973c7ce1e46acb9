import { expect } from 'chai';
import net from 'node:net';
import type { Connection } from 'mongoose';
import { DependencyUnavailableError } from '../../shared/errors';
import { MongoStore } from '../../shared/store/mongo/mongo-store';
import { describeWithMongo } from '../support/mongo-test-server';
import { at, downloadEvent as event } from '../support/records';
import { rejectionOf } from '../support/rejection';
import { daily } from '../support/store-expectations';

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

describeWithMongo('with MongoDB', (server) => {
  /** What the contract cannot reach: a rollup interrupted between its steps, rebuilt here in the stored documents. */
  describe('MongoStore rollup resumed after a crash', () => {
    let store: MongoStore;
    let db: Connection;

    beforeEach(async () => {
      const database = server.freshDatabase();
      store = await MongoStore.connect(database.uri);
      db = server.admin.useDb(database.name, { useCache: false });
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
      await store.activity.insertEvents([event('d_1'), event('d_2'), event('d_3', { timestamp: at(1) })]);
      await crashedBatch(['d_1', 'd_2'], []);
      expect(await store.activity.rollupEvents(1)).to.equal(2);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.0.0', '2026-03-01', 2)]);
      expect(await store.activity.rollupEvents(100)).to.equal(1);
      expect(await store.activity.rollupEvents(100)).to.equal(0);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.0.0', '2026-03-01', 3)]);
    });

    it('finishes a batch whose claim was cut short', async () => {
      await store.activity.insertEvents([event('d_1'), event('d_2'), event('d_3', { version: '2.0.0' })]);
      await crashedBatch(['d_1', 'd_2', 'd_3'], ['d_2']);
      expect(await store.activity.rollupEvents(100)).to.equal(3);
      expect(await store.activity.rollupEvents(100)).to.equal(0);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([
        daily('app_1', '1.0.0', '2026-03-01', 2),
        daily('app_1', '2.0.0', '2026-03-01', 1),
      ]);
    });

    it('adds a batch to a counter only once when the crash came after some of its counters', async () => {
      await store.activity.insertEvents([event('d_1'), event('d_2', { version: '2.0.0' }), event('d_3', { version: '2.0.0' })]);
      await crashedBatch(['d_1', 'd_2', 'd_3'], ['d_1', 'd_2', 'd_3']);
      await db.collection('dailyCounts').insertOne(
        { applicationId: 'app_1', version: '1.0.0', date: '2026-03-01', count: 1, appliedBatches: ['crashed'] },
      );
      expect(await store.activity.rollupEvents(100)).to.equal(3);
      const expected = [daily('app_1', '1.0.0', '2026-03-01', 1), daily('app_1', '2.0.0', '2026-03-01', 2)];
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal(expected);
      expect(await store.activity.rollupEvents(100)).to.equal(0);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal(expected);
    });

    it('closes a batch whose counters were all added before the crash, adding nothing', async () => {
      await store.activity.insertEvents([event('d_1'), event('d_2')]);
      await crashedBatch(['d_1', 'd_2'], ['d_1', 'd_2']);
      await db.collection('dailyCounts').insertOne(
        { applicationId: 'app_1', version: '1.0.0', date: '2026-03-01', count: 2, appliedBatches: ['crashed'] },
      );
      expect(await store.activity.rollupEvents(100)).to.equal(2);
      expect(await db.collection('rollupBatches').countDocuments()).to.equal(0);
      expect(await store.activity.rollupEvents(100)).to.equal(0);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.0.0', '2026-03-01', 2)]);
    });
  });
});
