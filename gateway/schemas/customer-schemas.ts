import { z } from 'zod';
import { CUSTOMER_ID_PATTERN } from '../../shared/api-keys';
import { queryInteger } from '../http/validate';

export const NAME_MAX_LENGTH = 200;
export const NOTES_MAX_LENGTH = 2000;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Keeps the row offset well inside what both store adapters accept. */
export const MAX_PAGE = 1_000_000;

/** A JSON object body; unknown fields are refused rather than silently dropped. */
const body = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape, { invalid_type_error: 'must be a JSON object' }).strict();

const name = () =>
  z
    .string({ invalid_type_error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(NAME_MAX_LENGTH, `must be at most ${NAME_MAX_LENGTH} characters`);

const notes = () =>
  z
    .string({ invalid_type_error: 'must be a string or null' })
    .max(NOTES_MAX_LENGTH, `must be at most ${NOTES_MAX_LENGTH} characters`)
    .nullable();

/** Tiers come from configuration, so the schemas are built for the configured list. */
const tier = (tiers: readonly string[]) =>
  z
    .string({ invalid_type_error: 'must be a string' })
    .refine((value) => tiers.includes(value), `must be one of: ${tiers.join(', ')}`);

export function createCustomerSchema(tiers: readonly string[]) {
  return body({
    customerId: z
      .string({ invalid_type_error: 'must be a string' })
      .regex(CUSTOMER_ID_PATTERN, 'must be 1 to 64 letters, digits, underscores or hyphens')
      .optional(),
    name: name(),
    tier: tier(tiers),
    notes: notes().optional(),
  });
}

export type CreateCustomerInput = z.output<ReturnType<typeof createCustomerSchema>>;

export function updateCustomerSchema(tiers: readonly string[]) {
  return body({
    name: name().optional(),
    isActive: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
    notes: notes().optional(),
    tier: tier(tiers).optional(),
  }).superRefine((patch, ctx) => {
    // An empty patch is a client mistake; applied, it would only move updatedAt.
    if (Object.values(patch).every((value) => value === undefined)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must contain at least one of: name, isActive, notes, tier' });
    }
  });
}

/** Issuing a key takes no parameters: no body, or an empty object. */
export const issueApiKeySchema = body({});

export const listCustomersQuery = z
  .object({
    page: queryInteger(1, MAX_PAGE, 1),
    pageSize: queryInteger(1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
  })
  .strict();
