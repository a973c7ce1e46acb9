import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../../shared/policy';
import { queryInteger, queryParameter, queryString } from '../http/validate';
import { applicationIdField, channelField, versionField } from './common';

/** A real calendar date, YYYY-MM-DD (`format: date`): 2024-02-29 is one, 2023-02-29 and 2024-02-30 are not. */
const dateField = queryParameter(z.string().date('must be a calendar date YYYY-MM-DD'));

/** `channel`: only the versions now in that channel (exactly; no cascade). */
export const statisticsQuery = (channels: readonly string[]) => z
  .object({
    version: queryParameter(versionField).optional(),
    channel: queryParameter(channelField(channels)).optional(),
    from: dateField.openapi({ description: 'The first day counted; not after `to`' }).optional(),
    to: dateField.optional(),
  })
  .strict()
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] });

export const activityQuery = z
  .object({
    type: z.enum(['upload', 'download'], { errorMap: () => ({ message: 'must be upload or download' }) }).optional(),
    applicationId: queryParameter(applicationIdField).optional(),
    limit: queryInteger(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
    cursor: queryString().max(512).optional(),
  })
  .strict();

export const statisticsParams = z.object({ applicationId: applicationIdField });

export type StatisticsQuery = z.output<ReturnType<typeof statisticsQuery>>;
export type ActivityQuery = z.output<typeof activityQuery>;
