import { expect } from 'chai';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../shared/store/sqlite/sqlite-store';
import { application, at, webhookDelivery, webhookEndpoint } from '../support/records';

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
      await store.webhooks.createWebhookEndpoint(webhookEndpoint('whk_1', { events: ['customer.created', 'download.recorded'] }));
      await store.webhooks.getWebhookEndpoint('whk_1');
      await store.webhooks.listWebhookEndpoints(1, 10);
      await store.webhooks.updateWebhookEndpoint('whk_1', { events: ['customer.created'], isActive: true }, at(1));
      await store.webhooks.markWebhookEndpointFailing('whk_1', at(2));
      await store.webhooks.listSubscribedWebhookEndpoints('customer.created');
      await store.webhooks.insertWebhookDelivery(webhookDelivery('msg_1'));
      await store.webhooks.getWebhookDelivery('msg_1');
      await store.webhooks.listWebhookDeliveries('whk_1', 1, 10);
      await store.webhooks.recordWebhookAttempt('msg_1', { status: 'failed', responseStatus: 500, responseBody: '', error: 'x', deliveredAt: null }, at(3));
      await store.webhooks.setWebhookDeliveryStatus('msg_1', ['failed'], 'pending', null, at(4));
      await store.webhooks.purgeWebhookDeliveries(at(10), 10);
      await store.webhooks.deleteWebhookEndpoint('whk_1');
      await store.webhooks.addWebhookOutboxEntries([{ eventId: 'evt_1', type: 'customer.created', occurredAt: at(1), state: 'pending', data: null, subject: ['cus_1'], writtenAt: at(1) }]);
      await store.webhooks.confirmWebhookOutboxEntries([{ eventId: 'evt_1', data: {} }]);
      await store.webhooks.listWebhookOutboxEntries(at(2), 10);
      await store.webhooks.listWebhookOutboxEntries(at(2), 10, { writtenAt: at(0), eventId: 'evt_0' });
      await store.webhooks.deleteWebhookOutboxEntries(['evt_1']);

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

describe('SQLite store: the purge of releases and the digests of files', () => {
  it('reach their rows through keys and indexes, never a scan of a whole table', async () => {
    const store = new SqliteStore(':memory:');
    try {
      await store.applications.createApplication(application('app_1'));
      await store.applications.softDeleteApplication('app_1', at(1));
      await store.applications.startReleasePurge('app_1', at(1), at(2));
      await store.applications.releasePurgeStartedAt('app_1');
      await store.applications.restoreApplication('app_1', at(3));
      await store.versions.setFileDigests('f_1', { sha512: 'ZGlnZXN0', sha1: '0a'.repeat(20) });
      await store.versions.deletePurgedReleases('app_1');

      const { db, statements } = (store as unknown as { database: { db: Database.Database; statements: Map<string, unknown> } }).database;
      const purgeStatements = [...statements.keys()].filter((sql) => /release_purge_started_at|DELETE FROM (files|versions) WHERE application_id = \?$|COALESCE\(sha512/.test(sql.trim()));
      expect(purgeStatements.length).to.be.at.least(6);
      for (const sql of purgeStatements) {
        const parameters = (sql.match(/\?/g) ?? []).map(() => null);
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map((step) => step.detail);
        expect(plan.filter((detail) => /^SCAN /.test(detail)), `${sql}\n${plan.join('\n')}`).to.deep.equal([]);
      }
    } finally {
      await store.close();
    }
  });
});

describe('SQLite store: file objects', () => {
  it('answers whether another file points at an object through files_storage_key', async () => {
    const store = new SqliteStore(':memory:');
    try {
      await store.versions.fileObjectShared(`files/app_1/sha256/${'ab'.repeat(32)}`, 'fil_1');
      const { db, statements } = (store as unknown as { database: { db: Database.Database; statements: Map<string, unknown> } }).database;
      const sql = [...statements.keys()].find((text) => /FROM files WHERE storage_key = \?/.test(text));
      expect(sql).to.be.a('string');
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('k', 'f') as { detail: string }[]).map((step) => step.detail);
      expect(plan.join('\n')).to.match(/SEARCH files USING INDEX files_storage_key/);
    } finally {
      await store.close();
    }
  });
});

describe("SQLite store: a release's downloads by customer", () => {
  it('are read through their partial index, never a scan of the events', async () => {
    const store = new SqliteStore(':memory:');
    try {
      await store.activity.listReleaseDownloads('app_1', '2.0.0', { from: at(0), to: at(10) }, null, 10);
      await store.activity.listReleaseDownloads('app_1', '2.0.0', { from: at(0), to: at(10) }, { customerId: 'cust_1', eventId: 'ev_1', at: at(1) }, 10);
      const { db, statements } = (store as unknown as { database: { db: Database.Database; statements: Map<string, unknown> } }).database;
      const reads = [...statements.keys()].filter((sql) => /events_release_downloads/.test(sql));
      expect(reads.length).to.equal(2);
      for (const sql of reads) {
        const parameters = (sql.match(/\?/g) ?? []).map(() => null);
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map((step) => step.detail);
        // One seek of the release's range (to the position when there is one), the index covering the columns read.
        expect(plan, `${sql}\n${plan.join('\n')}`).to.have.length(1);
        expect(plan[0]).to.match(/^SEARCH events USING COVERING INDEX events_release_downloads \(application_id=\? AND version=\? AND /);
      }
    } finally {
      await store.close();
    }
  });
});
