import { z } from 'zod';
import { MAX_ROLLOUT_PERCENTAGE, MIN_ROLLOUT_PERCENTAGE, ROLLOUT_PLAN_MAX_AFTER_HOURS, ROLLOUT_PLAN_MAX_STEPS } from '../policy';
import type { ReleaseHealth } from './funnel';

/**
 * A rollout plan: the percentages a staged rollout takes and when (each step's `after` counts from
 * the plan's start), and the bar its health must keep. A worker decides, for one version at a time,
 * whether the next step's time has come and the health holds (advance), or the health fell below the
 * bar (halt: the percentage stays where it is); this module is that decision, nothing else.
 */

const MS_PER = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const AFTER = /^(0|[1-9][0-9]{0,5})(m|h|d)$/;

/** `"0m"`, `"30m"`, `"24h"`, `"3d"` as milliseconds; undefined when the text is not such a duration. */
export function parseAfter(text: string): number | undefined {
  const match = AFTER.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * MS_PER[match[2] as keyof typeof MS_PER];
}

const afterField = z.string().max(10).regex(AFTER, 'a duration such as "0h", "30m", "24h" or "3d"').refine((text) => {
  const ms = parseAfter(text);
  return ms !== undefined && ms <= ROLLOUT_PLAN_MAX_AFTER_HOURS * MS_PER.h;
}, { message: `a duration such as "0h", "30m", "24h" or "3d", at most ${ROLLOUT_PLAN_MAX_AFTER_HOURS / 24} days` });

export const rolloutStepSchema = z.object({
  percentage: z.number().int().min(MIN_ROLLOUT_PERCENTAGE).max(MAX_ROLLOUT_PERCENTAGE),
  after: afterField,
}).strict();

export const rolloutHaltSchema = z.object({
  /** Installs offered at least the arrival window ago needed before the success rate is judged (either way). */
  minOffered: z.number().int().min(1).max(1_000_000),
  /** Below this share of those installs arriving, the rollout halts. */
  minSuccessRate: z.number().min(0).max(1),
  /** More failure reports than this, and the rollout halts. */
  maxFailureReports: z.number().int().min(0).max(1_000_000),
}).strict();

export const rolloutPlanSchema = z.object({
  steps: z.array(rolloutStepSchema).min(1).max(ROLLOUT_PLAN_MAX_STEPS),
  halt: rolloutHaltSchema,
}).strict().superRefine((plan, ctx) => {
  // The first step is taken when the plan is set: the version's percentage becomes its percentage.
  if (plan.steps.length > 0 && parseAfter(plan.steps[0].after) !== 0) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['steps', 0, 'after'], message: 'the first step is taken at once ("0h")' });
  }
  for (let i = 1; i < plan.steps.length; i += 1) {
    const [before, step] = [plan.steps[i - 1], plan.steps[i]];
    if (step.percentage <= before.percentage) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['steps', i, 'percentage'], message: 'each step raises the percentage' });
    }
    if ((parseAfter(step.after) ?? 0) < (parseAfter(before.after) ?? 0)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['steps', i, 'after'], message: 'each step comes no earlier than the one before' });
    }
  }
});

export type RolloutPlan = z.infer<typeof rolloutPlanSchema>;

/** Where a version's plan stands, as the store keeps it with the version. */
export interface RolloutPlanState {
  plan: RolloutPlan;
  /** When the plan was set: each step's `after` counts from here. */
  startedAt: Date;
  /** The index of the step last taken (its percentage is the version's). */
  step: number;
  /** Set when the health fell below the bar; no step is taken until an admin resumes. */
  haltedAt: Date | null;
}

/** The figures a halt decision quotes (audit entries and webhooks carry them). */
export type HealthFigures = Pick<ReleaseHealth, 'offered' | 'matured' | 'arrived' | 'stuck' | 'successRate' | 'failureReports'>;

export type RolloutMove =
  | { kind: 'advance'; fromStep: number; toStep: number; percentage: number; figures: HealthFigures }
  | { kind: 'halt'; reason: string; figures: HealthFigures }
  /** Nothing to do now; `until` is when a step's time comes (undefined: only new health figures can change it). */
  | { kind: 'wait'; until: Date | undefined; why: string }
  | { kind: 'done' };

/**
 * What a plan's worker does now. The health is judged before a step's time is: a rollout whose
 * installs fail halts as soon as the figures say so, between steps too. A step is taken only on
 * evidence: its time has come, at least `minOffered` installs were offered long enough ago to be
 * judged, and the success rate and failure reports keep the bar. Too few judged installs is a wait,
 * not a pass (a release nobody has tried yet is not shown safe by that).
 */
export function nextRolloutMove(state: RolloutPlanState, health: ReleaseHealth, now: Date): RolloutMove {
  const { plan } = state;
  if (state.haltedAt) return { kind: 'wait', until: undefined, why: 'halted' };
  if (state.step >= plan.steps.length - 1) return { kind: 'done' };
  const figures = healthFigures(health);
  const bar = plan.halt;
  if (health.failureReports > bar.maxFailureReports) {
    return { kind: 'halt', reason: `${health.failureReports} failure reports (at most ${bar.maxFailureReports})`, figures };
  }
  const judged = health.matured >= bar.minOffered && health.successRate !== null;
  if (judged && (health.successRate as number) < bar.minSuccessRate) {
    return { kind: 'halt', reason: `success rate ${formatRate(health.successRate as number)} of ${health.matured} installs (at least ${formatRate(bar.minSuccessRate)})`, figures };
  }
  const next = plan.steps[state.step + 1];
  const due = new Date(state.startedAt.getTime() + (parseAfter(next.after) as number));
  if (now < due) return { kind: 'wait', until: due, why: 'step not due' };
  if (!judged) return { kind: 'wait', until: undefined, why: `${health.matured} of ${bar.minOffered} installs judged` };
  return { kind: 'advance', fromStep: state.step, toStep: state.step + 1, percentage: next.percentage, figures };
}

function healthFigures(health: ReleaseHealth): HealthFigures {
  const { offered, matured, arrived, stuck, successRate, failureReports } = health;
  return { offered, matured, arrived, stuck, successRate, failureReports };
}

function formatRate(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}
