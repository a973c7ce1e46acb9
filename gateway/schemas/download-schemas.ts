import { z } from 'zod';
import { SHARE_LINK_MAX_MINUTES } from '../../shared/policy';
import { queryString } from '../http/validate';
import { applicationIdField, generatedIdField, versionField } from './common';


const fileIdField = generatedIdField;

export const downloadUrlQuery = z
  .object({
    applicationId: queryString().pipe(applicationIdField),
    version: queryString().pipe(versionField),
    fileId: queryString().pipe(fileIdField).optional(),
  })
  .strict();

export const createShareSchema = z
  .object({
    applicationId: applicationIdField,
    version: versionField,
    fileId: fileIdField.optional(),
    expiresInMinutes: z
      .number({ invalid_type_error: 'must be a whole number of minutes' })
      .int('must be a whole number of minutes')
      .min(1, 'must be at least 1')
      .max(SHARE_LINK_MAX_MINUTES, `must be at most ${SHARE_LINK_MAX_MINUTES}`)
      .optional(),
  })
  .strict();

/** Share tokens are 256 random bits in base64url. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Any string: a token that cannot exist is answered like an unknown one (404), not as invalid input. */
export const shareTokenParams = z.object({ token: z.string() });

/** What a customer asks to download: the file `fileId` of the version, else its MAIN file. */
export type DownloadTarget = z.output<typeof downloadUrlQuery>;
export type CreateShareRequest = z.output<typeof createShareSchema>;
