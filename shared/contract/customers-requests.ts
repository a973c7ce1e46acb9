import { z } from 'zod';
import { applicationIdField, atLeastOneField, customerIdField, generatedIdField, isSingleLineText, nameField, SINGLE_LINE_PATTERN, newCustomerIdField, notesField, tierField, updatesUntilField, versionRangeField } from './fields';
import { CUSTOMER_SEARCH_MAX_LENGTH } from '../policy';
import { queryString } from './query-fields';
import { pageFields } from './query-fields';

export { NAME_MAX_LENGTH, NOTES_MAX_LENGTH } from './fields';

/** A JSON object body; unknown fields are refused rather than silently dropped. */
const body = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape, { invalid_type_error: 'must be a JSON object' }).strict();

export function createCustomerSchema(tiers: readonly string[]) {
  return body({
    customerId: newCustomerIdField.optional(),
    name: nameField,
    tier: tierField(tiers),
    notes: notesField.nullable().optional(),
    updatesUntil: updatesUntilField.nullable().optional(),
    versionRange: versionRangeField.nullable().optional(),
  });
}

export type CreateCustomerInput = z.output<ReturnType<typeof createCustomerSchema>>;

export function updateCustomerSchema(tiers: readonly string[]) {
  // An empty patch is a client mistake; applied, it would only move updatedAt.
  return atLeastOneField(body({
    name: nameField.optional(),
    isActive: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
    notes: notesField.nullable().optional(),
    tier: tierField(tiers).optional(),
    updatesUntil: updatesUntilField.nullable().optional(),
    versionRange: versionRangeField.nullable().optional(),
  }), 'must contain at least one of: name, isActive, notes, tier, updatesUntil, versionRange');
}

export type UpdateCustomerRequest = z.output<ReturnType<typeof updateCustomerSchema>>;

/** Any string: an id that cannot exist is answered like an unknown one (404). */
export const customerAccessParams = z.object({ customerId: customerIdField, applicationId: applicationIdField });
export const apiKeyParams = z.object({ customerId: customerIdField, keyId: generatedIdField });

/** Issuing a key takes no parameters: no body, or an empty object. */
export const issueApiKeySchema = body({});

/** Granting access takes no parameters either: the path names the customer and the application. */
export const grantAccessSchema = body({});

/** `search`: customers whose id or name starts with it, letters compared without case. */
export const listCustomersQuery = z.object({
  ...pageFields,
  search: queryString()
    .max(CUSTOMER_SEARCH_MAX_LENGTH, `must be at most ${CUSTOMER_SEARCH_MAX_LENGTH} characters`)
    .refine(isSingleLineText, 'must be one line without control characters')
    .openapi({ description: 'Customers whose id or name starts with this text (letters compared without case)', pattern: SINGLE_LINE_PATTERN.source })
    .optional(),
}).strict();

