import { z } from 'zod';
import { iso, messageField, timestamp } from './common';

/**
 * The answer to the start of a purge of a soft-deleted application's releases: when it was deleted,
 * when its purge started (a repeat keeps the first), and that the bytes go in the background.
 */
export const releasePurgeResponse = z.object({
  message: messageField,
  applicationId: z.string(),
  deletedAt: timestamp,
  purgeStartedAt: timestamp,
});

export function presentReleasePurge(applicationId: string, deletedAt: Date, purgeStartedAt: Date): z.input<typeof releasePurgeResponse> {
  return {
    message: `the releases of application ${applicationId} are being purged`,
    applicationId,
    deletedAt: iso(deletedAt),
    purgeStartedAt: iso(purgeStartedAt),
  };
}
