import type { Job } from 'bullmq';
import { hash } from 'node:crypto';
import { newEventId } from '../../shared/ids';
import { ROLLOUT_PLAN_SWEEP_PAGE } from '../../shared/policy';
import type { JobPayloads } from '../../shared/queues/jobs';
import { releaseHealth } from '../../shared/rollouts/release-health';
import { nextRolloutMove, type HealthFigures } from '../../shared/rollouts/rollout-plan';
import type { RolloutDecisionDetails, RolloutPlanRecord } from '../../shared/store/models';
import type { WorkerDeps } from '../worker-deps';

const HOUR_MS = 3_600_000;
/** Who the audit log names for a step the plan took itself. */
export const ROLLOUT_PLAN_ACTOR = 'rollout-plan';

/** Queues a step job for each running plan; a version's job already queued is not queued twice (its job id). */
export async function sweepRolloutPlans(_job: unknown, deps: WorkerDeps): Promise<number> {
  let after: RolloutPlanRecord | null = null;
  let queued = 0;
  for (;;) {
    const plans = await deps.store.rolloutPlans.listRunningRolloutPlans(after, ROLLOUT_PLAN_SWEEP_PAGE);
    for (const plan of plans) await deps.jobs.enqueue('step-rollout-plan', { applicationId: plan.applicationId, version: plan.version });
    queued += plans.length;
    if (plans.length < ROLLOUT_PLAN_SWEEP_PAGE) return queued;
    after = plans[plans.length - 1];
  }
}

/**
 * Advances or halts one version's plan (rollout-plan.ts decides). Exact whoever runs it and however
 * often: the step or halt is a conditional update on the step the decision was taken at (store),
 * so of two runs one changes the plan and announces it, and the other finds it changed. The
 * version's percentage follows the plan's step: a run cut short between the two writes is completed
 * by the next one, which finds the version below its step's percentage.
 */
export async function stepRolloutPlan(job: Job<JobPayloads['step-rollout-plan']>, deps: WorkerDeps): Promise<string> {
  const { applicationId, version } = job.data;
  const record = await deps.store.rolloutPlans.getRolloutPlan(applicationId, version);
  if (!record || record.status !== 'running') return 'not running';
  const now = new Date(deps.clock.now());
  const current = await deps.store.versions.getVersion(applicationId, version);
  if (!current) return 'no such version';
  await followStep(deps, applicationId, version, record.plan.steps[record.step].percentage, current.rolloutPercentage, now);
  const health = await releaseHealth(deps.store, applicationId, version, now, deps.config.updateArrivalWindowHours * HOUR_MS);
  const move = nextRolloutMove({ plan: record.plan, startedAt: record.startedAt, step: record.step, haltedAt: record.haltedAt }, health, now);
  if (move.kind === 'advance') {
    const fromPercentage = record.plan.steps[move.fromStep].percentage;
    const data = { applicationId, version, step: move.toStep, fromPercentage, percentage: move.percentage, figures: move.figures };
    const taken = await deps.webhooks.announceChange(
      [{ type: 'version.rollout_advanced', subject: [applicationId, version, String(move.toStep)], at: now, eventId: eventIdOf('advanced', record, move.toStep), data }],
      () => deps.store.rolloutPlans.advanceRolloutPlan(applicationId, version, move.fromStep, move.toStep, now),
      (written) => [written ? data : null],
    );
    if (!taken) return 'taken by another run';
    // Recorded before the version follows: that write publishes the catalog change through Redis, and
    // a run cut off there (Redis away) is completed by the next one, which would not record the step.
    await audit(deps, 'version.rolloutAdvanced', applicationId, version, job, now, {
      percentage: move.percentage, fromPercentage, reason: null, figures: move.figures, thresholds: record.plan.halt,
    });
    await followStep(deps, applicationId, version, move.percentage, fromPercentage, now);
    deps.logger.info({ applicationId, version, fromPercentage, percentage: move.percentage, figures: move.figures }, 'rollout advanced');
    return `advanced to ${move.percentage}%`;
  }
  if (move.kind === 'halt') {
    const percentage = record.plan.steps[record.step].percentage;
    const data = { applicationId, version, percentage, reason: move.reason, rolloutHaltedAt: now.toISOString(), figures: move.figures };
    const halted = await deps.webhooks.announceChange(
      [{ type: 'version.rollout_halted', subject: [applicationId, version], at: now, eventId: eventIdOf('halted', record, record.step), data }],
      () => deps.store.rolloutPlans.haltRolloutPlan(applicationId, version, record.step, move.reason, now),
      (written) => [written ? data : null],
    );
    if (!halted) return 'changed by another run';
    await audit(deps, 'version.rolloutHalted', applicationId, version, job, now, {
      percentage, fromPercentage: percentage, reason: move.reason, figures: move.figures, thresholds: record.plan.halt,
    });
    deps.logger.warn({ applicationId, version, percentage, reason: move.reason, figures: move.figures satisfies HealthFigures }, 'rollout halted');
    return `halted at ${percentage}%: ${move.reason}`;
  }
  return move.kind === 'done' ? 'done' : `waiting: ${move.why}`;
}

/** Sets the version's percentage to the step's when it differs. */
async function followStep(deps: WorkerDeps, applicationId: string, version: string, percentage: number, current: number, at: Date): Promise<void> {
  if (current === percentage) return;
  await deps.catalogChange(applicationId, () => deps.store.versions.updateVersion(applicationId, version, { rolloutPercentage: percentage }, at));
}

/** The change's audit entry, with the figures and bar it was decided on. */
async function audit(deps: WorkerDeps, action: string, applicationId: string, version: string, job: Job, at: Date, details: RolloutDecisionDetails): Promise<void> {
  await deps.store.audit.insertAuditEntry({
    entryId: newEventId(at), timestamp: at, actor: ROLLOUT_PLAN_ACTOR, action, target: `${applicationId}/${version}`, applicationId,
    requestId: job.id ?? 'rollout-plan', outcome: 'succeeded', status: null, details,
  });
}

/** The same decision on the same plan names the same event, so a retried run dispatches it once. */
function eventIdOf(kind: string, record: RolloutPlanRecord, step: number): string {
  return `evt_rollout_${hash('sha256', `${kind}\0${record.applicationId}\0${record.version}\0${record.startedAt.getTime()}\0${step}`, 'base64url').slice(0, 24)}`;
}
