import { expect } from 'chai';
import {
  DEFAULT_ROLLOUT_PERCENTAGE,
  isInRollout,
  isRolloutPercentage,
  rolloutBucket,
} from '../../shared/releases/rollout';
import { MAX_ROLLOUT_PERCENTAGE, MIN_ROLLOUT_PERCENTAGE } from '../../shared/policy';

const CUSTOMERS = Array.from({ length: 20_000 }, (_, i) => `customer-${i}`);

const inside = (applicationId: string, version: string, percentage: number) =>
  new Set(CUSTOMERS.filter((customerId) => isInRollout(customerId, applicationId, version, percentage)));

describe('staged rollout', () => {
  it('takes whole percentages from 1 to 100, 100 by default', () => {
    expect([MIN_ROLLOUT_PERCENTAGE, MAX_ROLLOUT_PERCENTAGE, DEFAULT_ROLLOUT_PERCENTAGE]).to.deep.equal([1, 100, 100]);
    for (const valid of [1, 2, 50, 99, 100]) expect(isRolloutPercentage(valid), String(valid)).to.equal(true);
    for (const invalid of [0, -1, 101, 1.5, Number.NaN, Infinity, '50', null, undefined]) expect(isRolloutPercentage(invalid), String(invalid)).to.equal(false);
  });

  it('gives each customer a bucket from 0 to 99 that does not change between releases of the service', () => {
    // Pinned: a different bucket here would move customers in or out of every running rollout.
    expect([
      rolloutBucket('acme-corp', 'desktop-client', '1.0.0'),
      rolloutBucket('acme-corp', 'desktop-client', '1.0.1'),
      rolloutBucket('globex', 'desktop-client', '1.0.0'),
      rolloutBucket('customer-0', 'app', '2.0.0'),
    ]).to.deep.equal([33, 46, 9, 64]);
    for (const customerId of CUSTOMERS.slice(0, 2000)) {
      const bucket = rolloutBucket(customerId, 'desktop-client', '1.0.0');
      expect(Number.isInteger(bucket) && bucket >= 0 && bucket <= 99, `${customerId}: ${bucket}`).to.equal(true);
    }
  });

  it('keeps the three values apart: values that join to the same text draw different buckets', () => {
    // Joined with "-" or with nothing, each pair would be one input and one bucket.
    expect(rolloutBucket('a-b', 'c', '1')).to.not.equal(rolloutBucket('a', 'b-c', '1'));
    expect(rolloutBucket('a', 'b', '1.0')).to.not.equal(rolloutBucket('a', 'b1', '.0'));
  });

  it('admits a share of customers near the percentage', () => {
    for (const percentage of [1, 5, 10, 25, 50, 75, 90, 99]) {
      const share = (inside('desktop-client', '2.1.0', percentage).size / CUSTOMERS.length) * 100;
      // Four standard deviations of a fair draw over 20,000 customers: 0.28 points at 1%, 1.4 at 50%.
      const deviation = 100 * Math.sqrt(((percentage / 100) * (1 - percentage / 100)) / CUSTOMERS.length);
      expect(share, `${percentage}%`).to.be.closeTo(percentage, Math.max(0.25, 4 * deviation));
    }
    expect(inside('desktop-client', '2.1.0', 100).size).to.equal(CUSTOMERS.length);
  });

  it('only adds customers as the percentage rises', () => {
    const left: string[] = [];
    for (const customerId of CUSTOMERS.slice(0, 5000)) {
      let wasInside = false;
      for (let percentage = MIN_ROLLOUT_PERCENTAGE; percentage <= MAX_ROLLOUT_PERCENTAGE; percentage++) {
        const isInside = isInRollout(customerId, 'desktop-client', '2.1.0', percentage);
        if (wasInside && !isInside) left.push(`${customerId} at ${percentage}%`);
        wasInside = isInside;
      }
      if (!wasInside) left.push(`${customerId} outside at 100%`);
    }
    expect(left).to.deep.equal([]);
  });

  it('draws new buckets per version and per application, so the same customers are not always first', () => {
    const first = inside('desktop-client', '2.1.0', 10);
    const nextVersion = inside('desktop-client', '2.2.0', 10);
    const otherApplication = inside('cli', '2.1.0', 10);
    // Independent draws share about 10% of 10%: 1% of the customers (200); the same draw would share all 2,000.
    for (const other of [nextVersion, otherApplication]) {
      const shared = [...first].filter((customerId) => other.has(customerId)).length;
      expect(shared / CUSTOMERS.length).to.be.closeTo(0.01, 0.005);
    }
  });
});
