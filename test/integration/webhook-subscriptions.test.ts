import { expect } from 'chai';
import { Queue } from 'bullmq';
import { HttpClient } from '../support/http-client';
import { pollUntil } from '../support/poll';
import { SecondGateway, startSecondGateway, startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

const WEBHOOKS = '/v1/management/webhooks';

/**
 * Events nobody subscribes to queue no job; a subscription made through one gateway is known to
 * every other process before its answer, so the very next event there is delivered.
 */
describe('webhook subscriptions known in process', function () {
  this.timeout(60_000);
  let app: TestApp;
  let second: SecondGateway;
  let other: HttpClient;
  let receiver: WebhookReceiver;
  let queue: Queue;
  let counter = 0;

  before(async () => {
    app = await startTestApp({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '20' } });
    second = await startSecondGateway(app);
    other = second.http;
    receiver = await WebhookReceiver.start();
    queue = new Queue('webhooks', { connection: { url: app.config.redisUrl }, prefix: app.config.redisPrefix });
  });

  after(async () => {
    await queue?.close();
    await second?.close();
    await app?.close();
    await receiver?.close();
  });

  afterEach(async () => {
    const { body } = await app.http.get(`${WEBHOOKS}?pageSize=100`);
    for (const webhook of body.data.webhooks as { webhookId: string }[]) await app.http.delete(`${WEBHOOKS}/${webhook.webhookId}`);
  });

  const createCustomer = async (client: HttpClient) => {
    const customerId = `sub-${Date.now().toString(36)}-${(counter += 1)}`;
    const created = await client.post('/v1/management/customers', { customerId, name: 'Subscriber test', tier: 'standard' });
    expect(created.status, created.raw.toString()).to.equal(201);
    return customerId;
  };

  /** The dispatch jobs queued for events of `customerId`, whatever state they are in now. */
  const dispatchesFor = async (customerId: string) => {
    const jobs = await queue.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized']);
    return jobs.filter((job) => job?.name === 'dispatch-webhook-event' && (job.data.data as { customerId?: string }).customerId === customerId);
  };

  it('queues no job for an event no active endpoint subscribes to, and one for an event one does', async () => {
    const unwanted = await createCustomer(app.http);
    expect(await dispatchesFor(unwanted), 'no endpoint at all').to.deep.equal([]);

    const registered = await app.http.post(WEBHOOKS, { url: receiver.url(), events: ['apikey.created'] });
    expect(registered.status).to.equal(201);
    const half = await createCustomer(app.http);
    expect((await dispatchesFor(half)).map((job) => job.data.type), 'only the subscribed type').to.deep.equal(['apikey.created']);

    await app.http.patch(`${WEBHOOKS}/${registered.body.data.webhookId}`, { isActive: false });
    const inactive = await createCustomer(app.http);
    expect(await dispatchesFor(inactive), 'an inactive endpoint wants nothing').to.deep.equal([]);
  });

  it('a subscription made through one gateway reaches the next event on another at once', async () => {
    // The other gateway learns there is no subscriber (and keeps knowing it).
    await createCustomer(other);
    await createCustomer(other);
    const registered = await app.http.post(WEBHOOKS, { url: receiver.url(), events: ['customer.created'] });
    expect(registered.status).to.equal(201);

    const customerId = await createCustomer(other);
    const delivered = await pollUntil(
      () => receiver.ofType('customer.created').find((request) => JSON.parse(request.body).data.customerId === customerId),
      20_000, 'customer.created received',
    );
    expect(delivered).to.not.equal(undefined);

    // Unsubscribing is not urgent: until the other gateway has the change's release, it counts every
    // type as wanted (the dispatcher finds no endpoint). Soon after, it queues nothing again.
    await app.http.patch(`${WEBHOOKS}/${registered.body.data.webhookId}`, { events: ['apikey.revoked'] });
    await pollUntil(async () => ((await dispatchesFor(await createCustomer(other))).length === 0 ? true : undefined), 10_000, 'nothing queued once unsubscribed');
  });
});
