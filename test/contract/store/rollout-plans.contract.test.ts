import { expect } from 'chai';
import type { RolloutPlanRecord } from '../../../shared/store/models';
import type { Store } from '../../../shared/store/store';
import { at } from '../../support/records';
import { rejectionOf } from '../../support/rejection';
import { describeStoreContract } from './harness';

const PLAN: RolloutPlanRecord['plan'] = {
  steps: [{ percentage: 5, after: '0h' }, { percentage: 25, after: '24h' }, { percentage: 100, after: '72h' }],
  halt: { minOffered: 50, minSuccessRate: 0.9, maxFailureReports: 10 },
};
const record = (version: string, overrides: Partial<RolloutPlanRecord> = {}): RolloutPlanRecord => ({
  applicationId: 'app_1', version, plan: PLAN, status: 'running', step: 0, startedAt: at(0), haltedAt: null, haltReason: null, updatedAt: at(0), ...overrides,
});

/** The RolloutPlanStore port: one plan per version, each change conditional on where it stands. */
describeStoreContract('rollout plans', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  it('keeps one plan per version, a plan set again replacing it', async () => {
    await store.rolloutPlans.setRolloutPlan(record('1.0.0', { step: 2, status: 'halted', haltedAt: at(3), haltReason: 'why' }));
    await store.rolloutPlans.setRolloutPlan(record('1.0.0', { startedAt: at(5), updatedAt: at(5) }));
    expect(await store.rolloutPlans.getRolloutPlan('app_1', '1.0.0')).to.deep.equal(record('1.0.0', { startedAt: at(5), updatedAt: at(5) }));
    expect(await store.rolloutPlans.getRolloutPlan('app_1', '2.0.0')).to.equal(null);
  });

  it('takes a step once: of two deciding from the same step, one advances and the other finds it taken', async () => {
    await store.rolloutPlans.setRolloutPlan(record('1.0.0'));
    const both = await Promise.all([
      store.rolloutPlans.advanceRolloutPlan('app_1', '1.0.0', 0, 1, at(1)),
      store.rolloutPlans.advanceRolloutPlan('app_1', '1.0.0', 0, 1, at(1)),
    ]);
    expect(both.filter(Boolean)).to.have.length(1);
    // A halt decided from the step before is refused: the plan moved on.
    expect(await store.rolloutPlans.haltRolloutPlan('app_1', '1.0.0', 0, 'late', at(2))).to.equal(false);
    expect(await store.rolloutPlans.getRolloutPlan('app_1', '1.0.0')).to.deep.equal(record('1.0.0', { step: 1, updatedAt: at(1) }));
  });

  it('halts a running plan, takes no step while halted, resumes it, and stops it for good', async () => {
    await store.rolloutPlans.setRolloutPlan(record('1.0.0'));
    expect(await store.rolloutPlans.resumeRolloutPlan('app_1', '1.0.0', at(1))).to.equal(false);
    expect(await store.rolloutPlans.haltRolloutPlan('app_1', '1.0.0', 0, 'success rate 10%', at(2))).to.equal(true);
    expect(await store.rolloutPlans.haltRolloutPlan('app_1', '1.0.0', 0, 'again', at(3))).to.equal(false);
    expect(await store.rolloutPlans.advanceRolloutPlan('app_1', '1.0.0', 0, 1, at(3))).to.equal(false);
    expect(await store.rolloutPlans.getRolloutPlan('app_1', '1.0.0'))
      .to.deep.equal(record('1.0.0', { status: 'halted', haltedAt: at(2), haltReason: 'success rate 10%', updatedAt: at(2) }));
    expect(await store.rolloutPlans.resumeRolloutPlan('app_1', '1.0.0', at(4))).to.equal(true);
    expect(await store.rolloutPlans.getRolloutPlan('app_1', '1.0.0')).to.deep.equal(record('1.0.0', { updatedAt: at(4) }));
    expect(await store.rolloutPlans.stopRolloutPlan('app_1', '1.0.0', at(5))).to.equal(true);
    expect(await store.rolloutPlans.stopRolloutPlan('app_1', '1.0.0', at(6))).to.equal(false);
    expect(await store.rolloutPlans.stopRolloutPlan('app_1', '9.9.9', at(6))).to.equal(false);
    expect(await store.rolloutPlans.advanceRolloutPlan('app_1', '1.0.0', 0, 1, at(7))).to.equal(false);
    expect((await store.rolloutPlans.getRolloutPlan('app_1', '1.0.0'))?.status).to.equal('stopped');
  });

  it('lists running plans only, by application and version, page after page', async () => {
    await store.rolloutPlans.setRolloutPlan(record('2.0.0'));
    await store.rolloutPlans.setRolloutPlan(record('1.0.0'));
    await store.rolloutPlans.setRolloutPlan(record('1.5.0', { status: 'halted', haltedAt: at(1), haltReason: 'r' }));
    await store.rolloutPlans.setRolloutPlan(record('1.0.0', { applicationId: 'app_0' }));
    await store.rolloutPlans.setRolloutPlan(record('3.0.0', { status: 'stopped' }));
    const names = (plans: RolloutPlanRecord[]) => plans.map((p) => `${p.applicationId}@${p.version}`);
    const first = await store.rolloutPlans.listRunningRolloutPlans(null, 2);
    expect(names(first)).to.deep.equal(['app_0@1.0.0', 'app_1@1.0.0']);
    expect(names(await store.rolloutPlans.listRunningRolloutPlans(first[1], 2))).to.deep.equal(['app_1@2.0.0']);
    expect(await rejectionOf(store.rolloutPlans.listRunningRolloutPlans(null, 0))).to.be.instanceOf(RangeError);
  });
});
