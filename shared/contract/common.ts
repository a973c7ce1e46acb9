import { z } from 'zod';

/** Timestamps leave the process as ISO 8601 UTC strings. */
export const timestamp = z.string().datetime();

export const iso = (date: Date): string => date.toISOString();
export const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

export const paginationResponse = z.object({
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});

export function pagination(page: number, pageSize: number, total: number): z.input<typeof paginationResponse> {
  return { page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
}

/** A success answer whose data is only a short confirmation. */
export const messageField = z.string();
