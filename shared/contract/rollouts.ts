import { z } from 'zod';
import type { FunnelFigures } from '../rollouts/funnel';
import { ROLLOUT_PLAN_STATES, type RolloutPlanRecord } from '../store/models';
import { iso, isoOrNull } from './common';

/** The funnel's figures (shared/rollouts/funnel.ts defines each). */
export const funnelFiguresResponse = z.object({
  offered: z.number().int(),
  downloaded: z.number().int(),
  arrived: z.number().int(),
  matured: z.number().int(),
  stuck: z.number().int(),
  successRate: z.number().nullable(),
});

/** The figures a rollout decision was taken on. */
export const rolloutFiguresResponse = funnelFiguresResponse.omit({ downloaded: true }).extend({ failureReports: z.number().int() });

/** What an automatic rollout change was decided on: its audit entry's `details` (shared/store/models.ts RolloutDecisionDetails). */
export const rolloutDecisionDetails = z.object({
  percentage: z.number().int(),
  fromPercentage: z.number().int(),
  reason: z.string().nullable(),
  figures: rolloutFiguresResponse,
  thresholds: z.object({ minOffered: z.number().int(), minSuccessRate: z.number(), maxFailureReports: z.number().int() }),
});

/** A version's rollout plan as the API answers it. */
export const rolloutPlanResponse = z.object({
  steps: z.array(z.object({ percentage: z.number().int(), after: z.string() })),
  halt: z.object({ minOffered: z.number().int(), minSuccessRate: z.number(), maxFailureReports: z.number().int() }),
  status: z.enum(ROLLOUT_PLAN_STATES),
  /** The index of the step last taken. */
  step: z.number().int(),
  startedAt: z.string(),
  rolloutHaltedAt: z.string().nullable(),
  haltReason: z.string().nullable(),
});

export function presentRolloutPlan(record: RolloutPlanRecord): z.infer<typeof rolloutPlanResponse> {
  return {
    steps: record.plan.steps, halt: record.plan.halt, status: record.status, step: record.step, startedAt: iso(record.startedAt),
    rolloutHaltedAt: isoOrNull(record.haltedAt), haltReason: record.haltReason,
  };
}

/** `version.rollout_advanced`: the step taken, from which percentage to which, and the health it was taken on. */
export const rolloutAdvancedData = z.object({
  applicationId: z.string(),
  version: z.string(),
  step: z.number().int(),
  fromPercentage: z.number().int(),
  percentage: z.number().int(),
  figures: rolloutFiguresResponse,
});

/** `version.rollout_halted`: the percentage it stays at, why, and the figures. */
export const rolloutHaltedData = z.object({
  applicationId: z.string(),
  version: z.string(),
  percentage: z.number().int(),
  reason: z.string(),
  rolloutHaltedAt: z.string(),
  figures: rolloutFiguresResponse,
});

export type FunnelFiguresResponse = z.infer<typeof funnelFiguresResponse>;
export const presentFunnelFigures = (figures: FunnelFigures): FunnelFiguresResponse => ({ ...figures });

/** A release's health: the funnel now, per UTC day of offer (the chart over time), and its rollout plan (null when it has none). */
export const releaseHealthResponse = z.object({
  applicationId: z.string(),
  version: z.string(),
  /** Hours an install has to arrive (UPDATE_ARRIVAL_WINDOW). */
  arrivalWindowHours: z.number().int(),
  figures: rolloutFiguresResponse.extend({ downloaded: z.number().int() }),
  days: z.array(funnelFiguresResponse.extend({ date: z.string() })),
  /** The failure reports' messages, most reported first. */
  topFailureMessages: z.array(z.object({ message: z.string(), reports: z.number().int() })),
  rolloutPlan: rolloutPlanResponse.nullable(),
});

/** The answer to an app's report: taken (it is counted; it grants nothing). */
export const updateReportResponse = z.object({ received: z.literal(true) });
