import { z } from 'zod';
import { SHARE_LINK_MAX_DOWNLOADS, SHARE_LINK_MAX_MINUTES } from '../policy';
import { LATEST_VERSION } from '../releases/version-order';
import { fieldsGiven } from './openapi-extension';
import { queryParameter } from './query-fields';
import { pageFields } from './query-fields';
import { applicationIdField, archSelectorField, channelField, customerIdField, generatedIdField, platformSelectorField, versionField } from './fields';

const fileIdField = generatedIdField;

/** What every request for releases may select by: a channel (and every more stable one), a platform, an arch. */
const selectorFields = (channels: readonly string[]) => ({
  channel: queryParameter(channelField(channels)).openapi({ description: 'This channel and every more stable one; with version=latest only' }).optional(),
  platform: queryParameter(platformSelectorField).optional(),
  arch: queryParameter(archSelectorField).optional(),
});

interface FileRequestFields {
  version: string;
  fileId?: string;
  channel?: string;
  platform?: string;
  arch?: string;
}

/**
 * A file is named one way: by `fileId` within an exact version, or by the MAIN file the platform and
 * arch selectors pick. The channel chooses among versions, so it goes with `latest` only.
 */
function checkFileRequest(request: FileRequestFields, context: z.RefinementCtx): void {
  const problem = (field: string, message: string) => context.addIssue({ code: z.ZodIssueCode.custom, path: [field], message });
  if (request.version === LATEST_VERSION) {
    if (request.fileId !== undefined) problem('fileId', 'names a file of one version: give an exact version with it, not latest');
  } else if (request.channel !== undefined) {
    problem('channel', 'chooses among versions: give it with version=latest only');
  }
  if (request.fileId !== undefined) {
    for (const selector of ['platform', 'arch'] as const) {
      if (request[selector] !== undefined) problem(selector, 'selects a MAIN file: leave it out when naming the file by fileId');
    }
  }
}

/** `version` is an exact version or `latest`: the newest version offered to the caller. */
export const downloadUrlQuery = (channels: readonly string[]) => z
  .object({
    applicationId: queryParameter(applicationIdField),
    version: queryParameter(versionField),
    fileId: queryParameter(fileIdField).openapi({ description: 'A file of an exact version (not latest); not with platform or arch' }).optional(),
    ...selectorFields(channels),
  })
  .strict()
  .superRefine(checkFileRequest);

/**
 * checkFileRequest as the API description states it for a body: a fileId names a file of an exact
 * version, without platform, arch or channel; a channel goes with version latest.
 */
const FILE_REQUEST_RULES = {
  allOf: [
    {
      if: fieldsGiven('fileId'),
      then: {
        properties: { version: { not: { const: LATEST_VERSION } } },
        not: { anyOf: [fieldsGiven('platform'), fieldsGiven('arch'), fieldsGiven('channel')] },
      },
    },
    { if: fieldsGiven('channel'), then: { properties: { version: { const: LATEST_VERSION } } } },
  ],
};

export const createShareSchema = (channels: readonly string[]) => z
  .object({
    applicationId: applicationIdField,
    version: versionField,
    fileId: fileIdField.optional(),
    channel: channelField(channels).optional(),
    platform: platformSelectorField.optional(),
    arch: archSelectorField.optional(),
    expiresInMinutes: z
      .number({ invalid_type_error: 'must be a whole number of minutes' })
      .int('must be a whole number of minutes')
      .min(1, 'must be at least 1')
      .max(SHARE_LINK_MAX_MINUTES, `must be at most ${SHARE_LINK_MAX_MINUTES}`)
      .optional(),
    maxDownloads: z
      .number({ invalid_type_error: 'must be a whole number of downloads' })
      .int('must be a whole number of downloads')
      .min(1, 'must be at least 1')
      .max(SHARE_LINK_MAX_DOWNLOADS, `must be at most ${SHARE_LINK_MAX_DOWNLOADS}`)
      .optional(),
  })
  .strict()
  .superRefine(checkFileRequest)
  .openapi(FILE_REQUEST_RULES as never);

/** The releases a customer may download, newest first: no URLs (each issue of one is a download). */
export const releasesQuery = (channels: readonly string[]) => z
  .object({
    applicationId: queryParameter(applicationIdField),
    ...selectorFields(channels),
    ...pageFields,
  })
  .strict();

/** Share tokens are 256 random bits in base64url. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Any string: a token that cannot exist is answered like an unknown one (404), not as invalid input. */
export const shareTokenParams = z.object({ token: z.string() });

/** What a customer asks to download: the file `fileId` of the version, else the MAIN file the selectors pick, of an exact version or the latest. */
export type DownloadTarget = z.output<ReturnType<typeof downloadUrlQuery>>;
export type CreateShareRequest = z.output<ReturnType<typeof createShareSchema>>;
export type ReleasesQuery = z.output<ReturnType<typeof releasesQuery>>;

/** A customer's share link, named by its id (the SHA-256 of its token, which is never shown again). */
export const customerShareLinkParams = z.object({ customerId: customerIdField, shareLinkId: z.string() });
