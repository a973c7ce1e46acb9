import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { AppError } from '../../shared/errors';
import { randomToken } from '../../shared/ids';
import { createLogger } from '../../shared/logger';
import { createGatewayConnection, createSubscriberConnection, waitForReady } from '../../shared/redis/connections';
import { CacheTag, CacheTopic, InvalidationBus } from '../../shared/cache/invalidation-bus';
import { LocalCache } from '../../shared/cache/local-cache';
import { testRedisUrl } from '../support/hooks';
import { pollUntil } from '../support/poll';
import { rejectionOf } from '../support/rejection';

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

  async function gatewayBus(options: { confirmationTimeoutMs?: number; holdMs?: number } = {}) {
    const publisher = createGatewayConnection(testRedisUrl());
    const subscriber = createSubscriberConnection(testRedisUrl());
    connections.push(publisher, subscriber);
    await Promise.all([waitForReady(publisher), waitForReady(subscriber)]);
    const bus = new InvalidationBus(publisher, subscriber, channel, createLogger('silent', 'test'), options.confirmationTimeoutMs, options.holdMs);
    await bus.start();
    buses.push(bus);
    const applied: [CacheTopic, string][] = [];
    bus.onInvalidate((topic, id) => applied.push([topic, id]));
    /** Holds back everything Redis sends this gateway's subscriber until the returned function is called. */
    const holdBack = () => {
      subscriber.stream.pause();
      return () => subscriber.stream.resume();
    };
    return { bus, applied, holdBack, publisher };
  }

  const SHARE: CacheTag = ['share', 'token-hash'];

  it('writes a change only once every other gateway has dropped and holds its entries', async () => {
    const sender = await gatewayBus();
    const receiver = await gatewayBus();
    const release = receiver.holdBack();
    let written = false;
    const changing = sender.bus.change([SHARE], async () => {
      written = true;
      expect(receiver.bus.isHeld([SHARE]), 'held at the receiver while written').to.equal(true);
    });
    expect(sender.applied).to.deep.equal([SHARE]);

    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(written, 'written before the receiver held the change').to.equal(false);
    expect(receiver.applied).to.deep.equal([]);

    release();
    await changing;
    expect(written).to.equal(true);
    expect(receiver.applied[0]).to.deep.equal(SHARE);
    await pollUntil(() => (receiver.bus.isHeld([SHARE]) ? undefined : true), 5_000, 'the release at the receiver');
  });

  it('refuses a change with 503, writing nothing, when the hold cannot be broadcast', async () => {
    const sender = await gatewayBus();
    const receiver = await gatewayBus();
    sender.publisher.disconnect();
    let written = false;
    const refusal = await rejectionOf(sender.bus.change([SHARE], async () => {
      written = true;
    }));
    expect(refusal).to.be.instanceOf(AppError);
    expect((refusal as AppError).status).to.equal(503);
    expect(written).to.equal(false);
    expect(sender.bus.isHeld([SHARE]), 'still held where it was refused').to.equal(false);
    expect(receiver.applied).to.deep.equal([]);
  });

  it('fills no cache with a value read while the change was being written', async () => {
    const sender = await gatewayBus();
    const receiver = await gatewayBus();
    const cache = new LocalCache<string>(receiver.bus, 30_000);
    cache.set('link', 'before', receiver.bus.generation, [SHARE]);
    expect(cache.get('link')).to.equal('before');

    let readDuringWrite = 0;
    await sender.bus.change([SHARE], async () => {
      readDuringWrite = receiver.bus.generation;
      cache.set('link', 'read during the write', readDuringWrite, [SHARE]);
      expect(cache.get('link'), 'filled while held').to.equal(undefined);
    });
    await pollUntil(() => (receiver.bus.isHeld([SHARE]) ? undefined : true), 5_000, 'the release at the receiver');
    cache.set('link', 'read during the write', readDuringWrite, [SHARE]);
    expect(cache.get('link'), 'filled after the release with a value read before it').to.equal(undefined);
    cache.set('link', 'after', receiver.bus.generation, [SHARE]);
    expect(cache.get('link')).to.equal('after');
  });

  it('lets a hold whose release never arrives lapse on its own', async () => {
    const sender = await gatewayBus();
    const receiver = await gatewayBus({ holdMs: 500 });
    await sender.bus.change([SHARE], async () => {
      sender.publisher.disconnect();
    });
    expect(receiver.bus.isHeld([SHARE]), 'released without a release').to.equal(true);
    await pollUntil(() => (receiver.bus.isHeld([SHARE]) ? undefined : true), 5_000, 'the hold to lapse');
  });

  it('gives up waiting for a gateway that never confirms, after the timeout', async () => {
    const sender = await gatewayBus({ confirmationTimeoutMs: 250 });
    const stalled = await gatewayBus();
    const release = stalled.holdBack();
    let written = false;
    await sender.bus.change([['customer', 'cus_1']], async () => {
      written = true;
    });
    expect(written).to.equal(true);
    expect(stalled.applied).to.deep.equal([]);
    release();
  });

  it('bumps the generation on every change, here and at the receiver', async () => {
    const sender = await gatewayBus();
    const receiver = await gatewayBus();
    const before = [sender.bus.generation, receiver.bus.generation];
    await sender.bus.change([['application', 'app']], async () => undefined);
    expect(sender.bus.generation).to.be.above(before[0]);
    expect(receiver.bus.generation).to.be.above(before[1]);
  });
});
