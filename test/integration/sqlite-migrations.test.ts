import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { versionOrderKey } from '../../shared/releases/version-order';
import { DEFAULT_STORE_OPTIONS } from '../../shared/store/options';
import { FIRST_SCHEMA, migrateSchema, SCHEMA_VERSION } from '../../shared/store/sqlite/schema';
import { readStoredChecks } from '../../shared/store/sqlite/check-windows';
import { SqliteStore } from '../../shared/store/sqlite/sqlite-store';
import { application, at, checkEvent, downloadEvent as event, file, shareLink, uploadSession, version as versionRecord } from '../support/records';
import { daily, EARLIER_FREE_FORM_KEY, expectDuplicate, KEYED_AS_FREE_FORM, REKEYED_ORDER, versionNames } from '../support/store-expectations';

/** A new directory for the store's file before each test of the enclosing describe, removed after it; gives the file's path. */
function databaseFilePerTest(prefix: string): () => string {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => path.join(dir, 'store.sqlite');
}

/**
 * What the SQLite store's migration does to a database of the release before the release model:
 * the rows that release wrote, in its schema, read back with the defaults, in the version order.
 */
describe('SQLite store opening a database of the release before the release model', () => {
  const freshDatabaseFile = databaseFilePerTest('bds-store-migration-');
  let databaseFile: string;

  beforeEach(() => {
    databaseFile = freshDatabaseFile();
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
      expect(await store.applications.getApplication('app_1')).to.deep.equal(application('app_1', { name: 'Old app', createdAt: at(0), updatedAt: at(0), defaultVersionStatus: 'published' }));
    });
  });

  it('reads versions as published since their creation, in the default channel, to everyone, in the version order', async () => {
    await withStore(async (store) => {
      expect(await store.versions.getVersion('app_1', '1.10.0')).to.deep.equal(versionRecord('app_1', '1.10.0', {
        releaseNotes: 'Old', channel: 'main', publishedAt: at(1), createdAt: at(1), updatedAt: at(1),
      }));
      // Creation order and string order both put 1.9.0 first: only the order key puts 1.10.0 there.
      expect(versionNames(await store.versions.listVersions('app_1'))).to.deep.equal(['1.10.0', '1.9.0', 'nightly']);
      expect(versionNames(await store.versions.listVersions('app_1', { channels: ['main'], statuses: ['published'] }))).to.deep.equal(['1.10.0', '1.9.0', 'nightly']);
      const yanked = await store.versions.transitionVersion('app_1', '1.9.0', 'yanked', at(5));
      expect(yanked).to.deep.include({ outcome: 'applied', from: 'published' });
      expect(await store.versions.getVersion('app_1', '1.9.0')).to.deep.include({ status: 'yanked', publishedAt: at(2), requiredTier: 'gold' });
    });
    expect(schemaVersion()).to.equal(SCHEMA_VERSION);
  });

  it('reads files for any platform and arch without a SHA-512, and holds their MAIN slots per platform and arch', async () => {
    await withStore(async (store) => {
      const old = await store.versions.getFile('f_old');
      expect(old).to.deep.equal(file('f_old', { fileType: 'MAIN', version: '1.10.0', createdAt: at(0), updatedAt: at(0) }));
      expect(await store.versions.listFilesMissingDigests(10)).to.deep.equal([old]);
      await expectDuplicate(store.versions.insertFile(file('f_2', { version: '1.10.0', fileType: 'MAIN' })), 'mainFile');
      await expectDuplicate(store.versions.insertFile(file('f_3', { version: '1.9.0', fileType: 'MAIN' })), 'mainFile');
      await store.versions.insertFile(file('f_4', { version: '1.10.0', fileType: 'MAIN', platform: 'windows', arch: 'x64' }));
    });
  });

  it('reads sessions and events for any platform and arch, and keeps counting every download once', async () => {
    await withStore(async (store) => {
      expect(await store.uploads.getUploadSession('up_1')).to.deep.equal(uploadSession('up_1'));
      expect((await store.activity.listEvents({ limit: 10 })).map((e) => [e.eventId, e.platform, e.arch])).to.deep.equal([
        ['d_uncounted', 'any', 'any'], ['u_1', 'any', 'any'], ['d_counted', 'any', 'any'],
      ]);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.10.0', '2026-03-01', 1)]);
      expect(await store.activity.rollupEvents(100)).to.equal(1);
      await store.activity.insertEvents([event('d_new', { version: '1.10.0', platform: 'windows', arch: 'x64' })]);
      expect(await store.activity.rollupEvents(100)).to.equal(1);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([
        daily('app_1', '1.10.0', '2026-03-01', 2),
        daily('app_1', '1.10.0', '2026-03-01', 1, 'windows'),
      ]);
    });
  });

  it('reads share links as links without a cap, whose uses are not counted', async () => {
    await withStore(async (store) => {
      expect(await store.shareLinks.getShareLink('token_old')).to.deep.equal(shareLink('token_old'));
      expect(await store.shareLinks.countShareLinkUse('token_old')).to.equal(null);
    });
  });

  it('migrates once: opening the migrated file again changes nothing', async () => {
    const first = await withStore(async (store) => [await store.versions.listVersions('app_1'), await store.activity.listDailyCounts('app_1', {})]);
    expect(await withStore(async (store) => [await store.versions.listVersions('app_1'), await store.activity.listDailyCounts('app_1', {})])).to.deep.equal(first);
    expect(schemaVersion()).to.equal(SCHEMA_VERSION);
  });
});

describe('SQLite store opening a database keyed by an earlier version order', () => {
  const freshDatabaseFile = databaseFilePerTest('bds-store-rekey-');
  let databaseFile: string;

  beforeEach(() => {
    databaseFile = freshDatabaseFile();
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

  it('gives every version the key of this release when it opens, so listings sort them in the version order', async () => {
    const store = new SqliteStore(databaseFile);
    try {
      expect(versionNames(await store.versions.listVersions('app_1'))).to.deep.equal(REKEYED_ORDER);
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
  const databaseFile = databaseFilePerTest('bds-store-outbox-migration-');

  it('moves the events kept while Redis refused them into the outbox, ready to be relayed', async () => {
    // As that release left it (schema 8), with one event kept.
    const db = new Database(databaseFile());
    migrateSchema(db, DEFAULT_STORE_OPTIONS, 8);
    db.prepare('INSERT INTO unqueued_webhook_events VALUES (?, ?, ?, ?, ?)').run('evt_kept', 'customer.created', at(1).getTime(), '{"customerId":"cus_1"}', at(2).getTime());
    db.close();

    const store = new SqliteStore(databaseFile());
    try {
      expect(await store.webhooks.listWebhookOutboxEntries(at(3), 10)).to.deep.equal([{
        eventId: 'evt_kept', type: 'customer.created', occurredAt: at(1), state: 'ready', data: { customerId: 'cus_1' }, subject: [], writtenAt: at(2),
      }]);
    } finally {
      await store.close();
    }
  });
});

describe('SQLite store opening a database that kept a row per update check', () => {
  const databaseFile = databaseFilePerTest('bds-store-check-windows-');

  it('keeps every check with its number, and the rollup goes on from where it stopped', async () => {
    // As the release before the windows left it: checks 1 to 3 rolled up, 6 and 7 not (4 and 5 purged or never stored).
    const db = new Database(databaseFile());
    migrateSchema(db, DEFAULT_STORE_OPTIONS, 24); // the schema before the check windows (migration 25)
    const insert = db.prepare(
      `INSERT INTO check_events (seq, event_id, application_id, customer_id, client, platform, arch, channel, running_version, offered_version, install_id, install_hash, ts)
       VALUES (?, ?, 'app_1', 'cust_1', 'tauri', 'linux', 'x64', 'stable', ?, ?, ?, ?, ?)`,
    );
    insert.run(1, 'c_1', '1.0.0', '1.1.0', null, 'hash_c_1', at(0).getTime());
    insert.run(2, 'c_2', '1.0.0', null, 'staging-2', 'hash_c_2', at(1).getTime());
    insert.run(3, 'c_3', '2.0.0', null, null, 'hash_c_3', at(2).getTime());
    insert.run(6, 'c_6', '1.0.0', '1.1.0', null, 'hash_c_6', at(3).getTime());
    insert.run(7, 'c_7', '2.0.0', null, null, 'hash_c_7', at(4).getTime());
    db.prepare('INSERT INTO check_rollup_state (id, last_seq) VALUES (1, 3)').run();
    db.close();

    const store = new SqliteStore(databaseFile());
    try {
      const batch = await store.adoption.claimCheckBatch(10);
      expect(batch?.batchId).to.equal('3-7');
      expect(batch?.checks).to.equal(2);
      expect(batch?.groups.map((g) => [g.runningVersion, g.checks, g.installHashes])).to.deep.equal([['1.0.0', 1, ['hash_c_6']], ['2.0.0', 1, ['hash_c_7']]]);
      expect(await store.adoption.finishCheckBatch(batch!.batchId, [], [])).to.equal(true);
      // A check written now is numbered after them.
      await store.adoption.insertCheckEvents([checkEvent('c_8')]);
      expect((await store.adoption.claimCheckBatch(10))?.batchId).to.equal('7-8');
    } finally {
      await store.close();
    }
    const migrated = new Database(databaseFile(), { readonly: true });
    try {
      expect(readStoredChecks(migrated).map((c) => [c.seq, c.event_id, c.running_version, c.offered_version, c.install_id, c.install_hash, c.ts])).to.deep.equal([
        [1, 'c_1', '1.0.0', '1.1.0', null, 'hash_c_1', at(0).getTime()],
        [2, 'c_2', '1.0.0', null, 'staging-2', 'hash_c_2', at(1).getTime()],
        [3, 'c_3', '2.0.0', null, null, 'hash_c_3', at(2).getTime()],
        [6, 'c_6', '1.0.0', '1.1.0', null, 'hash_c_6', at(3).getTime()],
        [7, 'c_7', '2.0.0', null, null, 'hash_c_7', at(4).getTime()],
        [8, 'c_8', '1.0.0', null, null, 'hash_c_8', at(0).getTime()],
      ]);
      expect(migrated.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'check_events'").get()).to.deep.equal({ n: 0 });
    } finally {
      migrated.close();
    }
  });
});
