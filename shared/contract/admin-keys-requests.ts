import { z } from 'zod';
import { ADMIN_KEY_MAX_LIFETIME_DAYS } from '../policy';
import { SCOPES } from '../scopes';
import { applicationIdField, distinctItems, generatedIdField, nameField } from './fields';
import { DAY_MS } from '../durations';

/** The most applications one key can be limited to. */
export const ADMIN_KEY_MAX_APPLICATIONS = 100;

const scope = z.enum(SCOPES, { errorMap: () => ({ message: `must be one of ${SCOPES.join(', ')}` }) });

/** An instant with its offset (`2027-01-01T00:00:00Z`), in the future and within the longest lifetime. */
const expiresAtField = z
  .string({ invalid_type_error: 'must be an ISO 8601 date-time' })
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time with an offset (2027-01-01T00:00:00Z)' })
  .transform((value, ctx) => {
    const date = new Date(value);
    const problem = Number.isNaN(date.getTime()) ? 'is not a date-time that exists'
      : date.getTime() <= Date.now() ? 'must be in the future'
        : date.getTime() > Date.now() + ADMIN_KEY_MAX_LIFETIME_DAYS * DAY_MS ? `must be at most ${ADMIN_KEY_MAX_LIFETIME_DAYS} days ahead`
          : undefined;
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    return date;
  });

export const createAdminKeySchema = z
  .object({
    name: nameField,
    scopes: distinctItems(z.array(scope).min(1, 'must name at least one scope'), 'must not repeat a scope'),
    applicationIds: distinctItems(z
      .array(applicationIdField)
      .min(1, 'must name at least one application; leave it out for every application')
      .max(ADMIN_KEY_MAX_APPLICATIONS, `at most ${ADMIN_KEY_MAX_APPLICATIONS} applications`), 'must not repeat an application')
      .optional(),
    expiresAt: expiresAtField.optional(),
  }, { invalid_type_error: 'must be a JSON object' })
  .strict()
  // A key limited to applications that could issue keys would not be limited.
  .refine((key) => !(key.applicationIds && key.scopes.includes('admin')), {
    message: 'the admin scope covers every application: it cannot be limited to some',
    path: ['applicationIds'],
  });

export type CreateAdminKeyRequest = z.output<typeof createAdminKeySchema>;

export const adminKeyParams = z.object({ keyId: generatedIdField });
