import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../../shared/policy';
import { queryInteger, queryString } from '../http/validate';
import { applicationIdField, channelField, versionField } from './common';

/** A real calendar date, YYYY-MM-DD. */
const dateField = z
  .string({ invalid_type_error: 'must be given once' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'is not a calendar date');

/** `channel`: only the versions now in that channel (exactly; no cascade). */
export const statisticsQuery = (channels: readonly string[]) => z
  .object({
    version: queryString().pipe(versionField).optional(),
    channel: queryString().pipe(channelField(channels)).optional(),
    from: dateField.optional(),
    to: dateField.optional(),
  })
  .strict()
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] });

export const activityQuery = z
  .object({
    type: z.enum(['upload', 'download'], { errorMap: () => ({ message: 'must be upload or download' }) }).optional(),
    applicationId: queryString().pipe(applicationIdField).optional(),
    limit: queryInteger(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
    cursor: queryString().max(512).optional(),
  })
  .strict();

export const statisticsParams = z.object({ applicationId: applicationIdField });

export type StatisticsQuery = z.output<ReturnType<typeof statisticsQuery>>;
export type ActivityQuery = z.output<typeof activityQuery>;
