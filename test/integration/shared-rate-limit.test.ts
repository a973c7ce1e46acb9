import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { SharedRateLimit, Standing } from '../../gateway/rate-limits/shared-rate-limit';
import { testRedisUrl } from '../support/hooks';

/**
 * One policy counted by several gateways (each its own SharedRateLimit, as each gateway process has)
 * on one Redis: requests taken in process between syncs, bursts answered together.
 */
describe('a rate limit shared by several gateways', () => {
  let redis: IORedis;
  before(() => {
    redis = new IORedis(testRedisUrl(), { enableAutoPipelining: true });
  });
  after(() => redis.disconnect());

  const gateways = (count: number, requests: number) => {
    const keyPrefix = `t${randomBytes(6).toString('hex')}:rate:standard`;
    return Array.from({ length: count }, () => new SharedRateLimit({
      name: 'standard', limit: { requests, windowSeconds: 3600 }, redis, keyPrefix, withoutRedis: 'open', onRedisFailure: () => undefined,
    }));
  };

  /** `total` requests of one partition spread over the gateways in bursts of `burst`; how many were let through. */
  async function admitted(limits: SharedRateLimit[], total: number, burst: number): Promise<number> {
    let allowed = 0;
    for (let sent = 0; sent < total; sent += burst) {
      const answers: Standing[] = await Promise.all(Array.from({ length: Math.min(burst, total - sent) }, (_, i) => limits[(sent + i) % limits.length].take('key_1')));
      allowed += answers.filter((standing) => standing.allowed).length;
    }
    return allowed;
  }

  for (const count of [1, 2, 4, 16]) {
    it(`lets exactly the limit through ${count} gateway(s) taking requests from their reservations`, async () => {
      expect(await admitted(gateways(count, 2_000), 3_000, 50)).to.equal(2_000);
    });
  }

  it('counts one partition apart from another', async () => {
    const [first, second] = gateways(2, 3);
    const standings = [await first.take('key_a'), await second.take('key_a'), await first.take('key_b'), await second.take('key_a'), await first.take('key_a')];
    expect(standings.map((standing) => [standing.allowed, standing.remaining])).to.deep.equal([[true, 2], [true, 1], [true, 2], [true, 0], [false, 0]]);
    expect(standings[4].resetSeconds).to.be.within(1, 3600);
  });
});
