import { Queue } from 'bullmq';
import { expect } from 'chai';
import IORedis from 'ioredis';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from '../../shared/net';
import { DedicatedRedis, startDedicatedRedis } from '../support/dedicated-redis';
import { HttpClient } from '../support/http-client';
import { NodeProcess } from '../support/node-process';
import { pollUntil } from '../support/poll';
import { WEBHOOK_OUTBOX_ABANDON_AFTER_MS } from '../../shared/policy';
import { createLogger } from '../../shared/logger';
import { JobQueues } from '../../shared/queues/job-queues';
import { createWorkerConnection } from '../../shared/redis/connections';
import { RedisOutageLog } from '../../shared/redis/redis-outage-log';
import type { WebhookOutboxEntry } from '../../shared/store/models';
import { freshDatabase, startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

const STALLED = /"msg":"outbox fault: a change was written, its event is not queued"/;

/**
 * A gateway killed (SIGKILL) after it wrote a change and before it queued the change's event: the
 * event stays pending in the outbox, and the workers, started afterwards, find the change in the
 * store and deliver the event to a real receiver, once. The Procfile processes on a Redis of their
 * own, SQLite (or MongoDB when MONGODB_URI is set, a database of its own).
 */
describe('webhook events of a gateway killed between the change and the queueing', function () {
  this.timeout(120_000);

  const adminKey = `adm_${randomBytes(24).toString('hex')}`;
  let redis: DedicatedRedis;
  let receiver: WebhookReceiver;
  let dataDir: string;
  let env: Record<string, string>;
  let admin: HttpClient;
  const started: NodeProcess[] = [];

  const start = async (entry: string, extraEnv: Record<string, string>, ready: RegExp) => {
    const child = new NodeProcess(entry, { ...env, ...extraEnv });
    started.push(child);
    await child.waitForOutput(ready, 30_000);
    return child;
  };
  const startStallingGateway = () => start('test/support/outbox-fault-gateway.js', { OUTBOX_FAULT: 'stall-before-queue' }, /"msg":"gateway listening"/);

  /** Sends the change, waits until the gateway has written it and stalls, and kills the gateway there. */
  async function killAfterChange(gateway: NodeProcess, send: () => Promise<unknown>): Promise<void> {
    const answer = send().then(() => 'answered', () => 'no answer');
    await gateway.waitForOutput(STALLED, 20_000);
    gateway.signal('SIGKILL');
    expect((await gateway.exitWithin(5_000)).signal).to.equal('SIGKILL');
    expect(await answer, 'the request died with the gateway').to.equal('no answer');
  }

  before(async () => {
    redis = await startDedicatedRedis();
    receiver = await WebhookReceiver.start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-outbox-'));
    const port = await findFreePort();
    env = {
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_API_KEYS: adminKey,
      REDIS_URL: redis.url,
      REDIS_PREFIX: `p${randomBytes(6).toString('hex')}`,
      LOG_LEVEL: 'info',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_BASE_MS: '20',
      ...(process.env.MONGODB_URI ? { MONGODB_URI: freshDatabase(process.env.MONGODB_URI), WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'), REPOSITORY_KEY_SECRET: randomBytes(32).toString('hex') } : {}),
    };
    admin = new HttpClient(`http://127.0.0.1:${port}`, adminKey);
  });

  after(async () => {
    await Promise.all(started.map((child) => child.kill()));
    await receiver?.close();
    await redis?.dispose();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers the event of a created customer and of a deleted application once the workers run', async () => {
    let gateway = await startStallingGateway();
    const registered = await admin.post('/v1/management/webhooks', { url: receiver.url(), events: ['customer.created', 'application.deleted'] });
    expect(registered.status, registered.raw.toString()).to.equal(201);
    const applicationId = `outbox-${randomBytes(4).toString('hex')}`;
    expect((await admin.post('/v1/management/applications', { applicationId, name: 'Outbox' })).status).to.equal(201);

    const customerId = `outbox-${randomBytes(4).toString('hex')}`;
    await killAfterChange(gateway, () => admin.post('/v1/management/customers', { customerId, name: 'Written, not queued', tier: 'standard' }));
    gateway = await startStallingGateway();
    await killAfterChange(gateway, () => admin.delete(`/v1/management/applications/${applicationId}`));
    expect(receiver.requests, 'nothing queued, nothing delivered').to.deep.equal([]);

    // The changes were written before the kills: a gateway serving normally sees them.
    await start('bin/web.js', {}, /"msg":"gateway listening"/);
    expect((await admin.get(`/v1/management/customers/${customerId}`)).body.data).to.include({ customerId, name: 'Written, not queued' });
    expect((await admin.get(`/v1/management/applications/${applicationId}?includeDeleted=true`)).body.data.deletedAt).to.be.a('string');

    await start('bin/worker.js', {}, /"msg":"workers started"/);
    await pollUntil(() => (receiver.ofType('customer.created').length > 0 && receiver.ofType('application.deleted').length > 0 ? true : undefined), 60_000, 'both events delivered');
    const [created] = receiver.ofType('customer.created');
    expect(JSON.parse(created.body).data).to.include({ customerId, name: 'Written, not queued', tier: 'standard' });
    expect(created.headers['webhook-id']).to.be.a('string');
    const [deleted] = receiver.ofType('application.deleted');
    expect(JSON.parse(deleted.body).data).to.include({ applicationId, name: 'Outbox' });

    // Relayed once: relay runs that end after the deliveries find the outbox empty and queue nothing more.
    const deliveredAt = Date.now();
    const connection = new IORedis(redis.url, { maxRetriesPerRequest: null });
    const webhooks = new Queue('webhooks', { connection, prefix: env.REDIS_PREFIX });
    try {
      const relaysSince = async () => (await webhooks.getJobs(['completed']))
        .filter((job) => job.name === 'relay-webhook-outbox' && (job.processedOn ?? 0) > deliveredAt).length;
      await pollUntil(async () => ((await relaysSince()) >= 2 ? true : undefined), 30_000, 'two more relay runs');
    } finally {
      await webhooks.close();
      connection.disconnect();
    }
    expect(receiver.requests).to.have.length(2);
  });
});

/**
 * The relay's handling of pending entries, the outbox written directly: an entry whose change is in
 * the store is delivered with the record's data, one whose change is not there yet is left for later,
 * and one whose change is still not there long after it was written is dropped.
 */
describe('the webhook outbox relay settling pending entries', function () {
  this.timeout(60_000);
  let app: TestApp;
  let receiver: WebhookReceiver;

  before(async () => {
    receiver = await WebhookReceiver.start();
    app = await startTestApp({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '20' } });
  });

  after(async () => {
    await app?.close();
    await receiver?.close();
  });

  /** Adds a run of the relay at once, as its scheduler would. */
  async function runRelay(): Promise<void> {
    const connection = createWorkerConnection(app.config.redisUrl as string);
    const outage = new RedisOutageLog(createLogger('silent', 'test'), 'failedOperations');
    const jobs = new JobQueues(connection, app.config.redisPrefix, createLogger('silent', 'test'), outage);
    try {
      await jobs.enqueue('relay-webhook-outbox', {});
    } finally {
      await jobs.close();
      connection.disconnect();
      outage.close();
    }
  }

  it('delivers an entry whose change is written, keeps one whose change may still come, and drops one whose change never came', async () => {
    const registered = await app.http.post('/v1/management/webhooks', { url: receiver.url(), events: ['customer.created'] });
    expect(registered.status, registered.raw.toString()).to.equal(201);
    const suffix = randomBytes(4).toString('hex');
    const createdAt = new Date(Date.now() - 60_000);
    await app.core.store.accounts.createCustomer({
      customerId: `written-${suffix}`, name: 'Written', tier: 'standard', isActive: true, notes: null, updatesUntil: null, versionRange: null, createdAt, updatedAt: createdAt,
    });
    const pending = (customerId: string, writtenAgoMs: number, at = createdAt): WebhookOutboxEntry => ({
      eventId: `evt_${customerId}`, type: 'customer.created', occurredAt: at, state: 'pending', data: null, subject: [customerId],
      writtenAt: new Date(Date.now() - writtenAgoMs),
    });
    await app.core.store.webhooks.addWebhookOutboxEntries([
      pending(`written-${suffix}`, 60_000),
      pending(`coming-${suffix}`, 60_000),
      pending(`never-${suffix}`, WEBHOOK_OUTBOX_ABANDON_AFTER_MS + 60_000),
      // The customer exists, but not from this change: created at another time.
      { ...pending(`written-${suffix}`, 60_000, new Date(createdAt.getTime() - 1)), eventId: `evt_other-${suffix}` },
    ]);
    const outbox = async () => (await app.core.store.webhooks.listWebhookOutboxEntries(new Date(), 10)).map((entry) => entry.eventId).sort();

    await runRelay();
    await pollUntil(async () => ((await outbox()).length === 2 ? true : undefined), 20_000, 'the relay to settle what it can');
    expect(await outbox()).to.deep.equal([`evt_coming-${suffix}`, `evt_other-${suffix}`].sort());
    const delivered = await pollUntil(() => (receiver.ofType('customer.created').length > 0 ? receiver.ofType('customer.created') : undefined), 20_000, 'delivered');
    expect(delivered).to.have.length(1);
    expect(delivered[0].headers['webhook-id']).to.be.a('string');
    expect(JSON.parse(delivered[0].body)).to.deep.include({ type: 'customer.created', timestamp: createdAt.toISOString() });
    expect(JSON.parse(delivered[0].body).data).to.include({ customerId: `written-${suffix}`, name: 'Written', createdAt: createdAt.toISOString() });
  });
});
