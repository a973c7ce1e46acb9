import { z } from 'zod';
import { RELEASE_STATUSES } from '../releases/lifecycle';
import { rolloutPlanSchema } from '../rollouts/rollout-plan';
import { MAX_ROLLOUT_PERCENTAGE, MIN_ROLLOUT_PERCENTAGE } from '../policy';
import { fieldsGiven, statedOf } from './openapi-extension';
import { queryParameter } from './query-fields';
import { atLeastOneField, bundleVersionField, channelField, releaseNotesField, systemVersionField, tierField, versionField, yankReasonField } from './fields';

const statusField = z.enum(RELEASE_STATUSES, { errorMap: () => ({ message: `must be one of: ${RELEASE_STATUSES.join(', ')}` }) });

const rolloutMessage = `must be a whole percentage from ${MIN_ROLLOUT_PERCENTAGE} to ${MAX_ROLLOUT_PERCENTAGE}`;
const rolloutPercentageField = z
  .number({ invalid_type_error: rolloutMessage })
  .int(rolloutMessage)
  .min(MIN_ROLLOUT_PERCENTAGE, rolloutMessage)
  .max(MAX_ROLLOUT_PERCENTAGE, rolloutMessage);

export const updateVersionSchema = (tiers: readonly string[], channels: readonly string[]) =>
  yankReasonWithYanked(atLeastOneField(z
    .object({
      requiredTier: tierField(tiers).nullable(),
      releaseNotes: releaseNotesField.nullable(),
      channel: channelField(channels),
      status: statusField,
      rolloutPercentage: rolloutPercentageField,
      /**
       * Steps the rollout takes on its own while the release's health holds; halts when it falls below the bar. null stops the version's plan.
       * The first step's `after` is 0 (taken at once); each later step raises the percentage and comes no earlier than the one before; not given with rolloutPercentage.
       */
      rolloutPlan: rolloutPlanSchema.nullable(),
      bundleVersion: bundleVersionField.nullable(),
      minimumSystemVersion: systemVersionField.nullable(),
      critical: z.boolean({ invalid_type_error: 'must be true or false' }),
      /** With status yanked only (the service refuses it otherwise): why, for the team and the API's readers. */
      yankReason: yankReasonField,
      /**
       * With status yanked only: the published version every feed offers instead to installs running
       * this one, in the form each client accepts a downgrade (422 INVALID_ROLLBACK_TARGET unless it
       * is a published version of the application ranking below this one).
       */
      rollbackTo: versionField,
    })
    .partial()
    .strict(), 'give at least one of requiredTier, releaseNotes, channel, status, rolloutPercentage, rolloutPlan, bundleVersion, minimumSystemVersion, critical'));

/** `yankReason` says why a version is withdrawn: it goes with `status: yanked` only, as the API description states. */
function yankReasonWithYanked<T extends z.ZodTypeAny>(body: T): z.ZodEffects<T, z.output<T>, z.input<T>> {
  return body.superRefine((request: { status?: string; yankReason?: string; rollbackTo?: string; rolloutPercentage?: number; rolloutPlan?: unknown }, context) => {
    if (request.rolloutPercentage !== undefined && request.rolloutPlan !== undefined && request.rolloutPlan !== null) {
      context.addIssue({ code: z.ZodIssueCode.custom, path: ['rolloutPercentage'], message: "goes without rolloutPlan: the plan's first step sets the percentage" });
    }
    if (request.yankReason !== undefined && request.status !== 'yanked') {
      context.addIssue({ code: z.ZodIssueCode.custom, path: ['yankReason'], message: 'goes with status yanked: it says why the version is withdrawn' });
    }
    if (request.rollbackTo !== undefined && request.status !== 'yanked') {
      context.addIssue({ code: z.ZodIssueCode.custom, path: ['rollbackTo'], message: 'goes with status yanked: installs running the yanked version are offered it' });
    }
  }).openapi({
    ...statedOf(body),
    allOf: [
      { if: fieldsGiven('yankReason'), then: { required: ['status'], properties: { status: { const: 'yanked' } } } },
      { if: fieldsGiven('rollbackTo'), then: { required: ['status'], properties: { status: { const: 'yanked' } } } },
      // A plan sets the percentage itself (its first step's): the two are not given together.
      { if: { required: ['rolloutPlan'], properties: { rolloutPlan: { type: 'object' } } }, then: { not: fieldsGiven('rolloutPercentage') } },
    ],
  } as never) as z.ZodEffects<T, z.output<T>, z.input<T>>;
}

/** The admin listing's filters: one channel exactly (no cascade), one status. */
export const listVersionsQuery = (channels: readonly string[]) =>
  z
    .object({
      channel: queryParameter(channelField(channels)).optional(),
      status: queryParameter(statusField).optional(),
    })
    .strict();

export type UpdateVersionRequest = z.output<ReturnType<typeof updateVersionSchema>>;
export type ListVersionsQuery = z.output<ReturnType<typeof listVersionsQuery>>;
