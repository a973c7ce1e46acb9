import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoStore } from '../../../shared/store/mongo/mongo-store';
import type { StoreOptions } from '../../../shared/store/options';
import { SqliteStore } from '../../../shared/store/sqlite/sqlite-store';
import type { Store } from '../../../shared/store/store';
import { describeWithMongo, type MongoTestServer } from '../../support/mongo-test-server';

/** A store made for one test, and how to be rid of it. */
export interface StoreFixture {
  store: Store;
  dispose(): Promise<void>;
}

/** The adapter a concern's cases run against: the running test's store, and more when a case needs one. */
export interface StoreUnderTest {
  /** The running test's store: fresh and empty. */
  readonly store: Store;
  /** Another fresh store, `options` as a deployment would configure them; the caller disposes of it. */
  make(options?: StoreOptions): Promise<StoreFixture>;
}

type StoreMaker = (options?: StoreOptions) => Promise<StoreFixture>;

async function makeSqliteStore(options?: StoreOptions): Promise<StoreFixture> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-store-contract-'));
  const store = new SqliteStore(path.join(dir, 'store.sqlite'), options);
  return {
    store,
    async dispose() {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh MongoDB database per store, dropped when the store is disposed of. */
function mongoStoreMaker(server: MongoTestServer): StoreMaker {
  return async (options) => {
    const database = server.freshDatabase();
    const store = await MongoStore.connect(database.uri, options);
    return {
      store,
      async dispose() {
        await store.close();
        await server.admin.useDb(database.name, { useCache: false }).dropDatabase();
      },
    };
  };
}

function describeOn(adapter: string, concern: string, makeStore: StoreMaker, cases: (subject: StoreUnderTest) => void): void {
  describe(`Store contract: ${adapter}: ${concern}`, () => {
    let fixture: StoreFixture | undefined;
    const subject: StoreUnderTest = {
      get store() {
        if (!fixture) throw new Error('no store outside a test');
        return fixture.store;
      },
      make: makeStore,
    };

    beforeEach(async () => {
      fixture = await makeStore();
    });

    afterEach(async () => {
      await fixture?.dispose();
      fixture = undefined;
    });

    cases(subject);
  });
}

/**
 * The one contract every Store adapter passes, one concern at a time: `cases` run against SQLite
 * always, and against MongoDB too when MONGODB_URI names a server (each test in a database of its
 * own, dropped after it). Each test gets a fresh, empty store.
 */
export function describeStoreContract(concern: string, cases: (subject: StoreUnderTest) => void): void {
  describeOn('SQLite', concern, makeSqliteStore, cases);
  describeWithMongo('with MongoDB', (server) => describeOn('MongoDB', concern, mongoStoreMaker(server), cases));
}
