import { expect } from 'chai';
import { funnelDays, funnelFigures, type InstallOffer, type ReleaseHealth } from '../../shared/rollouts/funnel';
import { nextRolloutMove, parseAfter, rolloutPlanSchema, type RolloutPlan, type RolloutPlanState } from '../../shared/rollouts/rollout-plan';

const HOUR = 3_600_000;
const WINDOW = 72 * HOUR;
const T0 = new Date('2026-03-01T00:00:00Z');
const at = (hours: number): Date => new Date(T0.getTime() + hours * HOUR);
const offer = (offeredHours: number, downloadedHours: number | null, arrivedHours: number | null): InstallOffer => ({
  offeredAt: at(offeredHours),
  downloadedAt: downloadedHours === null ? null : at(downloadedHours),
  arrivedAt: arrivedHours === null ? null : at(arrivedHours),
});

const PLAN: RolloutPlan = {
  steps: [{ percentage: 5, after: '0h' }, { percentage: 25, after: '24h' }, { percentage: 100, after: '72h' }],
  halt: { minOffered: 50, minSuccessRate: 0.9, maxFailureReports: 10 },
};
const state = (step: number, haltedAt: Date | null = null): RolloutPlanState => ({ plan: PLAN, startedAt: T0, step, haltedAt });
const health = (figures: Partial<ReleaseHealth>): ReleaseHealth => ({
  offered: 0, downloaded: 0, arrived: 0, matured: 0, stuck: 0, successRate: null, failureReports: 0, ...figures,
});

describe('update funnel', () => {
  it('counts offered, downloaded within the window, arrived, and stuck among installs offered at least the window ago', () => {
    const offers = [
      offer(0, 1, 2), // arrived in time
      offer(0, 1, null), // downloaded, never arrived: stuck
      offer(0, null, 74), // arrived after the window: arrived, but stuck
      offer(0, 100, null), // downloaded after the window: not counted as downloaded
      offer(10, 11, null), // not matured yet at 75 h: neither stuck nor judged
    ];
    expect(funnelFigures(offers, at(75), WINDOW)).to.deep.equal({ offered: 5, downloaded: 3, arrived: 2, matured: 4, stuck: 3, successRate: 0.25 });
  });

  it('has no success rate while no offered install can be judged', () => {
    expect(funnelFigures([offer(0, 0, 1)], at(71), WINDOW)).to.deep.equal({ offered: 1, downloaded: 1, arrived: 1, matured: 0, stuck: 0, successRate: null });
    expect(funnelFigures([], at(71), WINDOW).successRate).to.equal(null);
  });

  it('gives the funnel per UTC day of offer, oldest first', () => {
    const days = funnelDays([offer(30, null, null), offer(0, 0, 1), offer(1, null, null)], at(200), WINDOW);
    expect(days.map((day) => [day.date, day.offered, day.arrived, day.stuck, day.successRate])).to.deep.equal([
      ['2026-03-01', 2, 1, 1, 0.5],
      ['2026-03-02', 1, 0, 1, 0],
    ]);
  });
});

describe('rollout plans', () => {
  it('reads durations in minutes, hours and days, and nothing else', () => {
    expect([parseAfter('0h'), parseAfter('30m'), parseAfter('24h'), parseAfter('3d')]).to.deep.equal([0, 30 * 60_000, 24 * HOUR, 72 * HOUR]);
    for (const text of ['', '24', '1.5h', '-1h', '01h', '24 h', '1w', 'h']) expect(parseAfter(text), text).to.equal(undefined);
  });

  it('takes a plan whose steps rise, the first at once, and refuses any other', () => {
    expect(rolloutPlanSchema.safeParse(PLAN).success).to.equal(true);
    const refused = [
      { ...PLAN, steps: [] },
      { ...PLAN, steps: [{ percentage: 5, after: '1h' }] },
      { ...PLAN, steps: [{ percentage: 25, after: '0h' }, { percentage: 5, after: '24h' }] },
      { ...PLAN, steps: [{ percentage: 5, after: '0h' }, { percentage: 25, after: '24h' }, { percentage: 100, after: '12h' }] },
      { ...PLAN, steps: [{ percentage: 0, after: '0h' }] },
      { ...PLAN, steps: [{ percentage: 101, after: '0h' }] },
      { ...PLAN, steps: [{ percentage: 5, after: '0h', extra: 1 }] },
      { ...PLAN, steps: [{ percentage: 5, after: '400d' }] },
      { ...PLAN, steps: Array.from({ length: 11 }, (_, i) => ({ percentage: i + 1, after: `${i}h` })) },
      { ...PLAN, halt: { ...PLAN.halt, minSuccessRate: 1.5 } },
      { ...PLAN, halt: { ...PLAN.halt, minOffered: 0 } },
      { steps: PLAN.steps },
    ];
    for (const plan of refused) expect(rolloutPlanSchema.safeParse(plan).success, JSON.stringify(plan)).to.equal(false);
  });

  it('advances when the next step is due and enough judged installs keep the bar', () => {
    const healthy = health({ offered: 60, matured: 50, arrived: 48, stuck: 2, successRate: 0.96 });
    expect(nextRolloutMove(state(0), healthy, at(23))).to.deep.include({ kind: 'wait', why: 'step not due' });
    const move = nextRolloutMove(state(0), healthy, at(24));
    expect(move).to.deep.include({ kind: 'advance', fromStep: 0, toStep: 1, percentage: 25 });
    expect(nextRolloutMove(state(1), healthy, at(72))).to.deep.include({ kind: 'advance', fromStep: 1, toStep: 2, percentage: 100 });
    expect(nextRolloutMove(state(2), healthy, at(500))).to.deep.equal({ kind: 'done' });
  });

  it('waits, rather than advancing, while too few installs can be judged', () => {
    const move = nextRolloutMove(state(0), health({ offered: 200, matured: 49, successRate: 1 }), at(48));
    expect(move).to.deep.equal({ kind: 'wait', until: undefined, why: '49 of 50 installs judged' });
  });

  it('halts, even between steps, when the success rate falls below the bar or failure reports exceed it', () => {
    const failing = nextRolloutMove(state(0), health({ offered: 60, matured: 50, arrived: 5, stuck: 45, successRate: 0.1 }), at(3));
    expect(failing).to.deep.include({ kind: 'halt', reason: 'success rate 10% of 50 installs (at least 90%)' });
    const reported = nextRolloutMove(state(0), health({ offered: 3, failureReports: 11 }), at(1));
    expect(reported).to.deep.include({ kind: 'halt', reason: '11 failure reports (at most 10)' });
    expect(nextRolloutMove(state(0, at(2)), health({ failureReports: 11 }), at(100))).to.deep.equal({ kind: 'wait', until: undefined, why: 'halted' });
  });
});
