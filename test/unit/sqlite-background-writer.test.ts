import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BackgroundWriter } from '../../shared/store/sqlite/background-writer';
import { DEFAULT_STORE_OPTIONS } from '../../shared/store/options';
import { migrateSchema } from '../../shared/store/sqlite/schema';
import { numberedDownloadEvent } from '../support/records';
import { pollUntil } from '../support/poll';

describe('SQLite background writer', () => {
  let dir: string;
  let file: string;
  let db: Database.Database;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-background-'));
    file = path.join(dir, 'store.sqlite');
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    migrateSchema(db, DEFAULT_STORE_OPTIONS);
  });
  afterEach(() => {
    if (db.open) db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;

  it('stores events from its thread, visible to the serving connection once the write resolves', async () => {
    const writer = new BackgroundWriter(db, file);
    try {
      expect(writer.threaded).to.equal(true);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).to.equal(0);
      await writer.insertEvents([numberedDownloadEvent(1), numberedDownloadEvent(2)]);
      expect(count('SELECT count(*) AS n FROM events')).to.equal(2);
      // An id already stored is skipped, not counted twice.
      await writer.insertEvents([numberedDownloadEvent(2), numberedDownloadEvent(3)]);
      expect(count('SELECT count(*) AS n FROM events')).to.equal(3);
      expect(await writer.rollupEvents(2)).to.equal(2);
      expect(await writer.rollupEvents(10)).to.equal(1);
      expect(await writer.rollupEvents(10)).to.equal(0);
      expect(count('SELECT sum(count) AS n FROM daily_counts')).to.equal(3);
    } finally {
      await writer.stop();
    }
  });

  it('copies the WAL into the database file from its thread', async () => {
    const writer = new BackgroundWriter(db, file);
    try {
      const before = fs.statSync(file).size;
      // Well past the 1000 pages at which a connection would otherwise checkpoint inside a commit.
      const insert = db.prepare(`INSERT INTO daily_counts (application_id, version, platform, date, count) VALUES (?, ?, 'any', ?, 1)`);
      db.transaction(() => {
        for (let i = 0; i < 60_000; i += 1) insert.run(`application-${i}-${'x'.repeat(40)}`, '1.0.0', '2026-01-01');
      })();
      await pollUntil(() => (fs.statSync(file).size > before + 4 * 1024 * 1024 ? true : undefined), 10_000, 'the database file to receive the WAL\'s pages');
    } finally {
      await writer.stop();
    }
  });

  it('waits for writes in flight when stopped', async () => {
    const writer = new BackgroundWriter(db, file);
    const events = Array.from({ length: 2_000 }, (_, i) => numberedDownloadEvent(i));
    const writing = writer.insertEvents(events);
    await writer.stop();
    await writing;
    expect(count('SELECT count(*) AS n FROM events')).to.equal(2_000);
  });

  it('does the work on the serving connection when its thread cannot run', async () => {
    const writer = new BackgroundWriter(db, path.join(dir, 'missing', 'store.sqlite'));
    const writing = writer.insertEvents([numberedDownloadEvent(1)]);
    await writing;
    expect(writer.threaded).to.equal(false);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).to.equal(1000);
    expect(count('SELECT count(*) AS n FROM events')).to.equal(1);
    expect(await writer.rollupEvents(10)).to.equal(1);
    await writer.stop();
  });
});
