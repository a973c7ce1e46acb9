import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DependencyUnavailableError } from '../../shared/errors';
import { SqliteStore } from '../../shared/store/sqlite/sqlite-store';
import { customer, downloadEvent } from '../support/records';
import { rejectionOf } from '../support/rejection';

/** What the contract cannot reach on SQLite: another process holding the file's write lock beyond busy_timeout. */
describe('SQLite store while another connection holds the write lock', function () {
  this.timeout(30_000);
  let dir: string;
  let store: SqliteStore;
  let other: Database.Database;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-sqlite-busy-'));
    const file = path.join(dir, 'store.sqlite');
    store = new SqliteStore(file);
    other = new Database(file);
  });
  afterEach(async () => {
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('rejects writes, on the serving connection and on the write thread, with DependencyUnavailableError', async () => {
    other.exec('BEGIN EXCLUSIVE');
    const eventWrite = rejectionOf(store.activity.insertEvents([downloadEvent('d_1')]));
    const customerWrite = rejectionOf(store.accounts.createCustomer(customer('cust_1')));
    for (const error of await Promise.all([eventWrite, customerWrite])) {
      expect(error).to.be.instanceOf(DependencyUnavailableError);
      expect((error as DependencyUnavailableError).cause).to.include({ code: 'SQLITE_BUSY' });
    }
    other.exec('ROLLBACK');
    await store.accounts.createCustomer(customer('cust_1'));
    await store.activity.insertEvents([downloadEvent('d_1')]);
    expect((await store.activity.listEvents({ limit: 10 })).map((e) => e.eventId)).to.deep.equal(['d_1']);
  });
});
