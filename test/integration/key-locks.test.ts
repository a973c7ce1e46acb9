import { expect } from 'chai';
import IORedis from 'ioredis';
import { ServiceUnavailableError } from '../../shared/errors';
import { KeyLocks } from '../../shared/redis/key-locks';
import { testRedisUrl } from '../support/hooks';
import { rejectionOf } from '../support/rejection';

/** The named locks that placements and deletions of shared file objects hold, on a real redis-server. */
describe('key locks in Redis', function () {
  this.timeout(20_000);
  let first: IORedis;
  let second: IORedis;
  const prefix = `bds-test-locks-${process.pid}-${Date.now()}`;
  before(() => {
    first = new IORedis(testRedisUrl());
    second = new IORedis(testRedisUrl());
  });
  after(async () => {
    await first.quit();
    await second.quit();
  });

  it('runs the work of two holders of one name (two connections, as two processes) one after the other, and of two names side by side', async () => {
    const locks = [new KeyLocks(first, prefix, 60, 5_000), new KeyLocks(second, prefix, 60, 5_000)];
    const steps: string[] = [];
    const work = (who: string, ms: number) => async () => {
      steps.push(`${who} in`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      steps.push(`${who} out`);
      return who;
    };
    const results = await Promise.all([locks[0].hold('object:a', work('one', 150)), locks[1].hold('object:a', work('two', 10))]);
    expect(results).to.deep.equal(['one', 'two']);
    // Whichever took the name first, the other's work ran only after it.
    expect([['one in', 'one out', 'two in', 'two out'], ['two in', 'two out', 'one in', 'one out']]).to.deep.include(steps);

    steps.length = 0;
    await Promise.all([locks[0].hold('object:b', work('b', 150)), locks[1].hold('object:c', work('c', 10))]);
    // Both ran at once: each was in before either came out.
    expect([...steps.slice(0, 2)].sort()).to.deep.equal(['b in', 'c in']);
    expect(await first.exists(`${prefix}:lock:object:a`, `${prefix}:lock:object:b`, `${prefix}:lock:object:c`)).to.equal(0);
  });

  it('frees the name when the work fails, and refuses with a 503 after waiting out a holder that keeps it', async () => {
    const locks = new KeyLocks(first, prefix, 60, 300);
    const failure = await rejectionOf(locks.hold('object:d', async () => { throw new Error('placement failed'); }));
    expect((failure as Error).message).to.equal('placement failed');
    expect(await first.exists(`${prefix}:lock:object:d`)).to.equal(0);

    let release!: () => void;
    const holding = locks.hold('object:e', () => new Promise<void>((resolve) => { release = resolve; }));
    const refused = await rejectionOf(new KeyLocks(second, prefix, 60, 300).hold('object:e', async () => 'ran'));
    expect(refused).to.be.instanceOf(ServiceUnavailableError);
    expect((refused as Error).message).to.match(/stayed locked/);
    release();
    await holding;
  });

  it('lets a lease lapse (a holder that died), and a lapsed holder never releases the next one\'s lock', async () => {
    // A holder that died: its lock was taken and never released.
    await first.set(`${prefix}:lock:object:f`, 'dead-holder', 'EX', 1);
    const locks = new KeyLocks(second, prefix, 1, 5_000);
    const started = Date.now();
    expect(await locks.hold('object:f', async () => 'after the lease')).to.equal('after the lease');
    expect(Date.now() - started).to.be.at.least(500);

    // The first holder outlives its lease; the second takes the name; the first's release leaves the second's lock.
    let finishFirst!: () => void;
    const slow = locks.hold('object:g', () => new Promise<void>((resolve) => { finishFirst = resolve; }));
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    let releaseSecond!: () => void;
    const next = new KeyLocks(first, prefix, 60, 5_000).hold('object:g', () => new Promise<void>((resolve) => { releaseSecond = resolve; }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    finishFirst();
    await slow;
    expect(await first.exists(`${prefix}:lock:object:g`)).to.equal(1);
    releaseSecond();
    await next;
    expect(await first.exists(`${prefix}:lock:object:g`)).to.equal(0);
  });
});
