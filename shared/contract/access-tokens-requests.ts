import { z } from 'zod';
import {
  ACCESS_TOKEN_MAX_BYTES,
  ACCESS_TOKEN_MAX_CLIENTS,
  ACCESS_TOKEN_MAX_DOWNLOADS,
  ACCESS_TOKEN_RESET_PERIODS,
} from '../policy';
import { applicationIdField, atLeastOneField, channelField, customerIdField, distinctItems, generatedIdField, nameField, platformField, updatesUntilField, versionRangeField } from './fields';

const count = (max: number) => z
  .number({ invalid_type_error: 'must be a whole number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1; leave it out (or null) for no limit')
  .max(max, `must be at most ${max}`);

const instant = z
  .string({ invalid_type_error: 'must be an ISO 8601 date-time' })
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time with an offset (2027-01-01T00:00:00Z)' })
  .transform((value) => new Date(value));

const list = <T extends z.ZodTypeAny>(item: T, what: string) =>
  distinctItems(z.array(item).min(1, `must name at least one ${what}; leave it out (or null) for every one`).max(100, 'at most 100'), `must not repeat a ${what}`);

/** Every limit of a token; each may be null (no limit). */
function limitFields(channels: readonly string[]) {
  return {
    name: nameField.nullable(),
    maxDownloads: count(ACCESS_TOKEN_MAX_DOWNLOADS).nullable(),
    maxClients: count(ACCESS_TOKEN_MAX_CLIENTS).nullable(),
    maxBytes: count(ACCESS_TOKEN_MAX_BYTES).nullable(),
    validFrom: instant.nullable(),
    validUntil: instant.nullable(),
    applications: list(applicationIdField, 'application').nullable(),
    channels: list(channelField(channels), 'channel').nullable(),
    platforms: list(platformField, 'platform').nullable(),
    resetEvery: z.enum(ACCESS_TOKEN_RESET_PERIODS, { errorMap: () => ({ message: `must be one of ${ACCESS_TOKEN_RESET_PERIODS.join(', ')}` }) }).nullable(),
    updatesUntil: updatesUntilField.nullable(),
    versionRange: versionRangeField.nullable(),
  };
}

const validityInOrder = (token: { validFrom?: Date | null; validUntil?: Date | null }) =>
  !(token.validFrom && token.validUntil && token.validFrom.getTime() >= token.validUntil.getTime());
const VALIDITY_ORDER = { message: 'validFrom must be before validUntil', path: ['validUntil'] };

export function createAccessTokenSchema(channels: readonly string[]) {
  const fields = limitFields(channels);
  const optional = Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, field.optional()])) as { [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]> };
  return z.object(optional, { invalid_type_error: 'must be a JSON object' }).strict().refine(validityInOrder, VALIDITY_ORDER);
}

export type CreateAccessTokenRequest = z.output<ReturnType<typeof createAccessTokenSchema>>;

export function updateAccessTokenSchema(channels: readonly string[]) {
  const fields = limitFields(channels);
  const optional = Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, field.optional()])) as { [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]> };
  return atLeastOneField(z.object(optional, { invalid_type_error: 'must be a JSON object' }).strict(), `must contain at least one of: ${Object.keys(fields).join(', ')}`)
    .refine(validityInOrder, VALIDITY_ORDER);
}

export type UpdateAccessTokenRequest = z.output<ReturnType<typeof updateAccessTokenSchema>>;

export const accessTokenParams = z.object({ customerId: customerIdField, tokenId: generatedIdField });
