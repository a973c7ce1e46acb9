import { expect } from 'chai';
import type { WebhookOutboxEntry } from '../../../shared/store/models';
import type { Store } from '../../../shared/store/store';
import { at, webhookDelivery, webhookEndpoint } from '../../support/records';
import { rejectionOf } from '../../support/rejection';
import { expectDuplicate } from '../../support/store-expectations';
import { describeStoreContract } from './harness';

async function expectRangeErrorOf(promise: Promise<unknown>): Promise<void> {
  expect(await rejectionOf(promise)).to.be.instanceOf(RangeError);
}

/** The WebhookStore port: endpoints, deliveries and the outbox. */
describeStoreContract('webhooks', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  const endpointIds = (endpoints: { webhookId: string }[]) => endpoints.map((endpoint) => endpoint.webhookId);

  it('stores an endpoint, refuses a duplicate id, and pages endpoints oldest first', async () => {
    const first = webhookEndpoint('whk_1', { description: 'CRM', previousSecret: 'sealed-old', previousSecretExpiresAt: at(60) });
    expect(await store.webhooks.createWebhookEndpoint(first)).to.deep.equal(first);
    expect(await store.webhooks.getWebhookEndpoint('whk_1')).to.deep.equal(first);
    expect(await store.webhooks.getWebhookEndpoint('whk_unknown')).to.equal(null);
    await expectDuplicate(store.webhooks.createWebhookEndpoint(webhookEndpoint('whk_1')), 'webhookId');
    await store.webhooks.createWebhookEndpoint(webhookEndpoint('whk_3', { createdAt: at(2) }));
    await store.webhooks.createWebhookEndpoint(webhookEndpoint('whk_2', { createdAt: at(1) }));
    const page = await store.webhooks.listWebhookEndpoints(1, 2);
    expect(endpointIds(page.items)).to.deep.equal(['whk_1', 'whk_2']);
    expect(page.total).to.equal(3);
    expect(endpointIds((await store.webhooks.listWebhookEndpoints(2, 2)).items)).to.deep.equal(['whk_3']);
  });

  it('finds the active subscribers of an event type, following changes to events and status', async () => {
    await store.webhooks.createWebhookEndpoint(webhookEndpoint('whk_1', { events: ['customer.created', 'download.recorded'] }));
    await store.webhooks.createWebhookEndpoint(webhookEndpoint('whk_2', { events: ['customer.created'], createdAt: at(1) }));
    await store.webhooks.createWebhookEndpoint(webhookEndpoint('whk_3', { events: ['download.recorded'], isActive: false, createdAt: at(2) }));
    expect(endpointIds(await store.webhooks.listSubscribedWebhookEndpoints('customer.created'))).to.deep.equal(['whk_1', 'whk_2']);
    expect(endpointIds(await store.webhooks.listSubscribedWebhookEndpoints('download.recorded'))).to.deep.equal(['whk_1']);
    expect(await store.webhooks.listSubscribedWebhookEndpoints('apikey.created')).to.deep.equal([]);

    const changed = await store.webhooks.updateWebhookEndpoint('whk_1', { events: ['apikey.created'], description: 'keys' }, at(5));
    expect(changed).to.deep.equal(webhookEndpoint('whk_1', { events: ['apikey.created'], description: 'keys', updatedAt: at(5) }));
    await store.webhooks.updateWebhookEndpoint('whk_3', { isActive: true }, at(5));
    expect(endpointIds(await store.webhooks.listSubscribedWebhookEndpoints('customer.created'))).to.deep.equal(['whk_2']);
    expect(endpointIds(await store.webhooks.listSubscribedWebhookEndpoints('download.recorded'))).to.deep.equal(['whk_3']);
    expect(endpointIds(await store.webhooks.listSubscribedWebhookEndpoints('apikey.created'))).to.deep.equal(['whk_1']);
    expect(await store.webhooks.updateWebhookEndpoint('whk_unknown', { isActive: false }, at(5))).to.equal(null);
  });

  it('starts a run of failures once, until it is cleared', async () => {
    await store.webhooks.createWebhookEndpoint(webhookEndpoint('whk_1'));
    expect((await store.webhooks.markWebhookEndpointFailing('whk_1', at(1)))?.failingSince).to.deep.equal(at(1));
    expect((await store.webhooks.markWebhookEndpointFailing('whk_1', at(2)))?.failingSince).to.deep.equal(at(1));
    await store.webhooks.updateWebhookEndpoint('whk_1', { failingSince: null }, at(3));
    expect((await store.webhooks.markWebhookEndpointFailing('whk_1', at(4)))?.failingSince).to.deep.equal(at(4));
    expect(await store.webhooks.markWebhookEndpointFailing('whk_unknown', at(4))).to.equal(null);
  });

  it('records deliveries, refuses a duplicate id, and pages an endpoint\'s log newest first', async () => {
    const first = webhookDelivery('msg_1');
    expect(await store.webhooks.insertWebhookDelivery(first)).to.deep.equal(first);
    expect(await store.webhooks.getWebhookDelivery('msg_1')).to.deep.equal(first);
    expect(await store.webhooks.getWebhookDelivery('msg_unknown')).to.equal(null);
    await expectDuplicate(store.webhooks.insertWebhookDelivery(webhookDelivery('msg_1', { eventId: 'evt_2' })), 'deliveryId');
    await store.webhooks.insertWebhookDelivery(webhookDelivery('msg_2', { createdAt: at(1) }));
    await store.webhooks.insertWebhookDelivery(webhookDelivery('msg_3', { createdAt: at(1) }));
    await store.webhooks.insertWebhookDelivery(webhookDelivery('msg_4', { webhookId: 'whk_2', createdAt: at(2) }));
    const page = await store.webhooks.listWebhookDeliveries('whk_1', 1, 2);
    expect(page.items.map((d) => d.deliveryId)).to.deep.equal(['msg_3', 'msg_2']);
    expect(page.total).to.equal(3);
    expect((await store.webhooks.listWebhookDeliveries('whk_1', 2, 2)).items.map((d) => d.deliveryId)).to.deep.equal(['msg_1']);
    expect((await store.webhooks.listWebhookDeliveries('whk_2', 1, 10)).items.map((d) => d.deliveryId)).to.deep.equal(['msg_4']);
  });

  it('counts attempts while a delivery is pending, and changes its status only from the statuses named', async () => {
    await store.webhooks.insertWebhookDelivery(webhookDelivery('msg_1'));
    const failedOnce = { status: 'pending' as const, responseStatus: 500, responseBody: 'oops', error: 'the receiver answered 500', deliveredAt: null };
    expect(await store.webhooks.recordWebhookAttempt('msg_1', failedOnce, at(1))).to.deep.equal(
      webhookDelivery('msg_1', { ...failedOnce, attempts: 1, lastAttemptAt: at(1), updatedAt: at(1) }),
    );
    const delivered = { status: 'delivered' as const, responseStatus: 204, responseBody: '', error: null, deliveredAt: at(2) };
    expect(await store.webhooks.recordWebhookAttempt('msg_1', delivered, at(2))).to.deep.equal(
      webhookDelivery('msg_1', { ...delivered, attempts: 2, lastAttemptAt: at(2), updatedAt: at(2) }),
    );
    expect(await store.webhooks.recordWebhookAttempt('msg_1', failedOnce, at(3))).to.equal(null);
    expect(await store.webhooks.setWebhookDeliveryStatus('msg_1', ['failed'], 'pending', null, at(3))).to.equal(null);
    const again = await store.webhooks.setWebhookDeliveryStatus('msg_1', ['delivered', 'failed'], 'pending', null, at(3));
    expect(again).to.deep.include({ status: 'pending', attempts: 2, updatedAt: at(3) });
    expect((await store.webhooks.setWebhookDeliveryStatus('msg_1', ['pending'], 'failed', 'given up', at(4)))).to.include({ status: 'failed', error: 'given up' });
    expect(await store.webhooks.setWebhookDeliveryStatus('msg_unknown', ['pending'], 'failed', null, at(4))).to.equal(null);
  });

  it('deletes an endpoint with its log, and purges old deliveries up to the limit', async () => {
    await store.webhooks.createWebhookEndpoint(webhookEndpoint('whk_1', { events: ['customer.created'] }));
    await store.webhooks.createWebhookEndpoint(webhookEndpoint('whk_2'));
    for (const [id, webhookId, minute] of [['msg_1', 'whk_1', 1], ['msg_2', 'whk_2', 1], ['msg_3', 'whk_2', 2], ['msg_4', 'whk_2', 10]] as const) {
      await store.webhooks.insertWebhookDelivery(webhookDelivery(id, { webhookId, createdAt: at(minute) }));
    }
    expect(await store.webhooks.deleteWebhookEndpoint('whk_1')).to.equal(true);
    expect(await store.webhooks.deleteWebhookEndpoint('whk_1')).to.equal(false);
    expect(await store.webhooks.getWebhookEndpoint('whk_1')).to.equal(null);
    expect(await store.webhooks.getWebhookDelivery('msg_1')).to.equal(null);
    expect(endpointIds(await store.webhooks.listSubscribedWebhookEndpoints('customer.created'))).to.deep.equal(['whk_2']);

    expect(await store.webhooks.purgeWebhookDeliveries(at(5), 1)).to.equal(1);
    expect(await store.webhooks.purgeWebhookDeliveries(at(5), 10)).to.equal(1);
    expect(await store.webhooks.purgeWebhookDeliveries(at(5), 10)).to.equal(0);
    expect((await store.webhooks.listWebhookDeliveries('whk_2', 1, 10)).items.map((d) => d.deliveryId)).to.deep.equal(['msg_4']);
    await expectRangeErrorOf(store.webhooks.purgeWebhookDeliveries(at(5), 0));
    await expectRangeErrorOf(store.webhooks.listWebhookDeliveries('whk_2', 0, 10));
    await expectRangeErrorOf(store.webhooks.listWebhookEndpoints(1, 0));
  });

  it('keeps outbox entries once per event id, lists those written before a time oldest first from a position, confirms pending ones and removes them', async () => {
    const entry = (eventId: string, minute: number, state: 'pending' | 'ready' = 'pending'): WebhookOutboxEntry => ({
      eventId, type: 'customer.created', occurredAt: at(minute), state, data: state === 'ready' ? { customerId: `cus-${eventId}`, tags: ['a'], nested: { $key: 1 } } : null,
      subject: [`cus-${eventId}`], writtenAt: at(minute + 1),
    });
    await store.webhooks.addWebhookOutboxEntries([entry('evt_b', 2), entry('evt_a', 3, 'ready')]);
    await store.webhooks.addWebhookOutboxEntries([entry('evt_c', 1)]);
    await store.webhooks.addWebhookOutboxEntries([{ ...entry('evt_b', 9, 'ready'), type: 'customer.updated' }]);
    await Promise.all([store.webhooks.addWebhookOutboxEntries([entry('evt_d', 20)]), store.webhooks.addWebhookOutboxEntries([entry('evt_d', 20)])]);
    await store.webhooks.addWebhookOutboxEntries([]);

    const ids = (entries: WebhookOutboxEntry[]) => entries.map((listed) => listed.eventId);
    const all = await store.webhooks.listWebhookOutboxEntries(at(100), 10);
    expect(ids(all)).to.deep.equal(['evt_c', 'evt_b', 'evt_a', 'evt_d']);
    expect(all[1], 'a repeat leaves the entry as it is').to.deep.equal(entry('evt_b', 2));
    expect(all[2], 'data of any shape, as written').to.deep.equal(entry('evt_a', 3, 'ready'));
    expect(ids(await store.webhooks.listWebhookOutboxEntries(at(100), 2))).to.deep.equal(['evt_c', 'evt_b']);
    expect(ids(await store.webhooks.listWebhookOutboxEntries(at(4), 10)), 'written before the time only').to.deep.equal(['evt_c', 'evt_b']);
    expect(ids(await store.webhooks.listWebhookOutboxEntries(at(100), 10, { writtenAt: at(3), eventId: 'evt_b' })), 'after a position').to.deep.equal(['evt_a', 'evt_d']);
    // Two entries written at the same time: the position orders them by id.
    await store.webhooks.addWebhookOutboxEntries([{ ...entry('evt_e', 2), writtenAt: at(3) }]);
    expect(ids(await store.webhooks.listWebhookOutboxEntries(at(100), 10, { writtenAt: at(3), eventId: 'evt_b' }))).to.deep.equal(['evt_e', 'evt_a', 'evt_d']);

    await store.webhooks.confirmWebhookOutboxEntries([{ eventId: 'evt_b', data: { customerId: 'cus-b' } }, { eventId: 'evt_a', data: { overwritten: true } }, { eventId: 'evt_none', data: {} }]);
    await store.webhooks.confirmWebhookOutboxEntries([]);
    const confirmed = await store.webhooks.listWebhookOutboxEntries(at(100), 10);
    expect(confirmed.find((listed) => listed.eventId === 'evt_b')).to.deep.equal({ ...entry('evt_b', 2), state: 'ready', data: { customerId: 'cus-b' } });
    expect(confirmed.find((listed) => listed.eventId === 'evt_a'), 'a ready entry keeps its data').to.deep.equal(entry('evt_a', 3, 'ready'));
    expect(ids(confirmed)).to.not.include('evt_none');

    expect(await store.webhooks.deleteWebhookOutboxEntries(['evt_b', 'evt_none'])).to.equal(1);
    expect(await store.webhooks.deleteWebhookOutboxEntries(['evt_b'])).to.equal(0);
    expect(await store.webhooks.deleteWebhookOutboxEntries([])).to.equal(0);
    expect(ids(await store.webhooks.listWebhookOutboxEntries(at(100), 10))).to.deep.equal(['evt_c', 'evt_e', 'evt_a', 'evt_d']);
    await expectRangeErrorOf(store.webhooks.listWebhookOutboxEntries(at(100), 0));
  });
});
