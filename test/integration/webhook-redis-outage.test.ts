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
 * A change written while Redis refuses jobs is still announced: its event is kept in the store and
 * queued by requeue-webhook-events once Redis answers (which the workers run every 30 s; added here
 * at once, as the scheduler would).
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

  async function runRequeue(): Promise<void> {
    const connection = createWorkerConnection(redis.url);
    const outage = new RedisOutageLog(createLogger('silent', 'test'), 'failedOperations');
    const jobs = new JobQueues(connection, app.config.redisPrefix, createLogger('silent', 'test'), outage);
    try {
      await jobs.enqueue('requeue-webhook-events', {});
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
    const kept = await app.core.store.listUnqueuedWebhookEvents(10);
    expect(kept.map((event) => [event.type, (event.data as { customerId: string }).customerId])).to.have.deep.members([
      ['customer.created', customerId], ['apikey.created', customerId],
    ]);
    expect(app.logs.some((line) => /kept in the store/.test(String(line.msg)))).to.equal(true);

    await redis.restart();
    await runRequeue();
    const delivered = await pollUntil(() => (receiver.ofType('customer.created').length > 0 ? receiver.ofType('customer.created') : undefined), 20_000, 'customer.created received');
    expect(delivered).to.have.length(1);
    expect(JSON.parse(delivered[0].body).data.customerId).to.equal(customerId);
    expect(delivered[0].headers['webhook-id'], 'the delivery of the kept event').to.be.a('string');
    expect(await app.core.store.listUnqueuedWebhookEvents(10), 'forgotten once queued').to.deep.equal([]);

    // Queued again (a run that stopped between queueing and forgetting): still one delivery.
    await app.core.store.keepUnqueuedWebhookEvent(kept.find((event) => event.type === 'customer.created') as (typeof kept)[number]);
    await runRequeue();
    await pollUntil(async () => ((await app.core.store.listUnqueuedWebhookEvents(10)).length === 0 ? true : undefined), 20_000, 'the repeat queued');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.ofType('customer.created')).to.have.length(1);
  });
});
