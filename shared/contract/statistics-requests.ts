import { z } from 'zod';
import { ADOPTION_DEFAULT_DAYS, ADOPTION_MAX_DAYS, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../policy';
import { ARCHS, PLATFORMS } from '../releases/platforms';
import { pageFields } from './query-fields';
import { queryInteger, queryParameter, queryString } from './query-fields';
import { applicationIdField, channelField, versionField } from './fields';
import { DAY_MS } from '../durations';

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

/** The adoption answer's range and selection; a range is at most ADOPTION_MAX_DAYS days. */
export const adoptionQuery = (channels: readonly string[]) => z
  .object({
    from: dateField.openapi({ description: `The first UTC day; default ${ADOPTION_DEFAULT_DAYS - 1} days before \`to\`` }).optional(),
    to: dateField.openapi({ description: 'The last UTC day; default today' }).optional(),
    channel: queryParameter(channelField(channels)).optional(),
    platform: queryParameter(z.enum(PLATFORMS, { errorMap: () => ({ message: `must be one of ${PLATFORMS.join(', ')}` }) })).optional(),
    arch: queryParameter(z.enum(ARCHS, { errorMap: () => ({ message: `must be one of ${ARCHS.join(', ')}` }) })).optional(),
  })
  .strict()
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] })
  .refine((q) => !q.from || !q.to || daysBetween(q.from, q.to) < ADOPTION_MAX_DAYS, { message: `the range must not exceed ${ADOPTION_MAX_DAYS} days`, path: ['from'] });

export const customerAdoptionQuery = z.object(pageFields).strict();

/** Whole days from one YYYY-MM-DD to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

export type AdoptionQuery = z.output<ReturnType<typeof adoptionQuery>>;
export type CustomerAdoptionQuery = z.output<typeof customerAdoptionQuery>;
