import { z } from 'zod';
import { notEmpty, releaseNotesField, tierField } from './common';

export const updateVersionSchema = (tiers: readonly string[]) =>
  z
    .object({
      requiredTier: tierField(tiers).nullable(),
      releaseNotes: releaseNotesField.nullable(),
    })
    .partial()
    .strict()
    .refine(notEmpty, { message: 'give at least one of requiredTier, releaseNotes' });

export type UpdateVersionRequest = z.output<ReturnType<typeof updateVersionSchema>>;
