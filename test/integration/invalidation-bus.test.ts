import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { randomToken } from '../../shared/ids';
import { createLogger } from '../../shared/logger';
import { createGatewayConnection, createSubscriberConnection, waitForReady } from '../../shared/redis/connections';
import { CacheTopic, InvalidationBus } from '../../gateway/cache/invalidation-bus';
import { testRedisUrl } from '../support/hooks';

/** Two gateways' buses on the real Redis; the receiver's socket can be held back to model a slow process. */
describe('cache invalidation bus', () => {
  const connections: Redis[] = [];
  const buses: InvalidationBus[] = [];
  let channel: string;

  beforeEach(() => {
    channel = `test-${randomToken(6)}:cache-invalidations`;
  });
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
    for (const connection of connections.splice(0)) connection.disconnect();
  });

  async function gatewayBus(confirmationTimeoutMs?: number) {
    const publisher = createGatewayConnection(testRedisUrl());
    const subscriber = createSubscriberConnection(testRedisUrl());
    connections.push(publisher, subscriber);
    await Promise.all([waitForReady(publisher), waitForReady(subscriber)]);
    const bus = new InvalidationBus(publisher, subscriber, channel, createLogger('silent', 'test'), confirmationTimeoutMs);
    await bus.start();
    buses.push(bus);
    const applied: [CacheTopic, string][] = [];
    bus.onInvalidate((topic, id) => applied.push([topic, id]));
    /** Holds back everything Redis sends this gateway's subscriber until the returned function is called. */
    const holdBack = () => {
      subscriber.stream.pause();
      return () => subscriber.stream.resume();
    };
    return { bus, applied, holdBack };
  }

  it('resolves a publish only after every other gateway has applied it', async () => {
    const sender = await gatewayBus();
    const receiver = await gatewayBus();
    const release = receiver.holdBack();
    let resolved = false;
    const publishing = sender.bus.publish('share', 'token-hash').then(() => { resolved = true; });
    expect(sender.applied).to.deep.equal([['share', 'token-hash']]);

    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(resolved, 'resolved before the receiver applied the change').to.equal(false);
    expect(receiver.applied).to.deep.equal([]);

    release();
    await publishing;
    expect(receiver.applied).to.deep.equal([['share', 'token-hash']]);
  });

  it('gives up waiting for a gateway that never confirms, after the timeout', async () => {
    const sender = await gatewayBus(250);
    const stalled = await gatewayBus();
    const release = stalled.holdBack();
    const started = Date.now();
    await sender.bus.publish('customer', 'cus_1');
    expect(Date.now() - started).to.be.at.least(240);
    expect(stalled.applied).to.deep.equal([]);
    release();
  });

  it('bumps the generation on every invalidation, here and at the receiver', async () => {
    const sender = await gatewayBus();
    const receiver = await gatewayBus();
    const before = [sender.bus.generation, receiver.bus.generation];
    await sender.bus.publish('application', 'app');
    expect(sender.bus.generation).to.be.above(before[0]);
    expect(receiver.bus.generation).to.be.above(before[1]);
  });
});
