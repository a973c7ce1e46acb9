import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { WalCheckpointer } from '../../shared/store/sqlite/wal-checkpointer';
import { pollUntil } from '../support/poll';

const PAGE_BYTES = 4096;

describe('WAL checkpoints off the serving connection', () => {
  let dir: string;
  let file: string;
  let db: Database.Database;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-wal-'));
    file = path.join(dir, 'store.sqlite');
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB)');
  });
  afterEach(() => {
    if (db.open) db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('turns the connection\'s own checkpoints off and copies the WAL into the file from its thread', async () => {
    const checkpointer = new WalCheckpointer(db, file);
    try {
      expect(db.pragma('wal_autocheckpoint', { simple: true })).to.equal(0);
      // Well past the 1000 pages at which the connection would otherwise checkpoint in a commit.
      const insert = db.prepare('INSERT INTO blobs (data) VALUES (?)');
      db.transaction(() => {
        for (let i = 0; i < 1500; i += 1) insert.run(Buffer.alloc(PAGE_BYTES, i % 256));
      })();
      await pollUntil(() => (fs.statSync(file).size > 1500 * PAGE_BYTES ? true : undefined), 10_000, 'the database file to receive the WAL\'s pages');
    } finally {
      await checkpointer.stop();
    }
    expect(db.prepare('SELECT count(*) AS n FROM blobs').get()).to.deep.equal({ n: 1500 });
  });

  it('lets the connection checkpoint for itself again when the thread cannot run', async () => {
    const checkpointer = new WalCheckpointer(db, path.join(dir, 'missing', 'store.sqlite'));
    await pollUntil(() => (db.pragma('wal_autocheckpoint', { simple: true }) === 1000 ? true : undefined), 10_000, 'autocheckpoint to be restored');
    await checkpointer.stop();
  });
});
