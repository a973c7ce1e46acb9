import { expect } from 'chai';
import { JobQueues } from '../../shared/queues/job-queues';
import { createWorkerConnection } from '../../shared/redis/connections';
import { RedisOutageLog } from '../../shared/redis/redis-outage-log';
import { createLogger } from '../../shared/logger';
import { DedicatedRedis, startDedicatedRedis } from '../support/dedicated-redis';
import { pollUntil } from '../support/poll';
import { startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

const WEBHOOKS = '/v1/management/webhooks';

/**
 * A change written while Redis refuses jobs is still announced: its event stays in the store's
 * outbox, ready, and is queued by relay-webhook-outbox once Redis answers (which the workers run every
 * few seconds; added here at once, as the scheduler would).
 */
describe('webhook events announced while Redis is down', function () {
  this.timeout(60_000);
  let redis: DedicatedRedis;
  let app: TestApp;
  let receiver: WebhookReceiver;

  before(async () => {
    redis = await startDedicatedRedis({ persistent: true });
    receiver = await WebhookReceiver.start();
    app = await startTestApp({ env: { REDIS_URL: redis.url, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '20' }, captureLogs: true });
  });

  after(async () => {
    await app?.close();
    await receiver?.close();
    await redis?.dispose();
  });

  async function runRelay(): Promise<void> {
    const connection = createWorkerConnection(redis.url);
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

  it('keeps the event of a change written during the outage in the store, and delivers it once Redis is back', async () => {
    const registered = await app.http.post(WEBHOOKS, { url: receiver.url(), events: ['customer.created'] });
    expect(registered.status, registered.raw.toString()).to.equal(201);

    await redis.stop();
    const customerId = `outage-${Date.now().toString(36)}`;
    const created = await app.http.post('/v1/management/customers', { customerId, name: 'During the outage', tier: 'standard' });
    expect(created.status, created.raw.toString()).to.equal(201);
    // The relay takes entries their writer has had time to queue: every entry, seen from a moment ahead.
    const outbox = () => app.core.store.webhooks.listWebhookOutboxEntries(new Date(Date.now() + 60_000), 10);
    const kept = await outbox();
    expect(kept.map((entry) => [entry.type, entry.state, (entry.data as { customerId: string }).customerId])).to.have.deep.members([
      ['customer.created', 'ready', customerId], ['apikey.created', 'ready', customerId],
    ]);
    expect(app.logs.some((line) => /kept in the outbox/.test(String(line.msg)))).to.equal(true);

    await redis.restart();
    // Written just now: the relay leaves them to their writer for WEBHOOK_OUTBOX_RELAY_AFTER_MS, then queues them.
    await pollUntil(async () => {
      await runRelay();
      return receiver.ofType('customer.created').length > 0 ? true : undefined;
    }, 30_000, 'customer.created received');
    const delivered = receiver.ofType('customer.created');
    expect(delivered).to.have.length(1);
    expect(JSON.parse(delivered[0].body).data.customerId).to.equal(customerId);
    expect(delivered[0].headers['webhook-id'], 'the delivery of the kept event').to.be.a('string');
    await pollUntil(async () => ((await outbox()).length === 0 ? true : undefined), 20_000, 'removed once queued');

    // Queued again (a run that stopped between queueing and removing): still one delivery.
    await app.core.store.webhooks.addWebhookOutboxEntries([kept.find((entry) => entry.type === 'customer.created') as (typeof kept)[number]]);
    await runRelay();
    await pollUntil(async () => ((await outbox()).length === 0 ? true : undefined), 20_000, 'the repeat queued');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.ofType('customer.created')).to.have.length(1);
  });
});
