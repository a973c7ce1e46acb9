import { z } from 'zod';
import { MAX_PUT_BYTES } from '../../shared/policy';
import { FILE_TYPES, InitialReleaseStatus } from '../../shared/store/models';
import {
  applicationIdField,
  archField,
  channelField,
  contentTypeField,
  fileNameField,
  generatedIdField,
  newVersionField,
  platformField,
  releaseNotesField,
  tierField,
  versionField,
} from './common';

const fileType = z.enum(FILE_TYPES, { errorMap: () => ({ message: `must be one of ${FILE_TYPES.join(', ')}` }) });
const fileSize = z
  .number({ invalid_type_error: 'must be a number of bytes' })
  .int('must be a whole number of bytes')
  .min(1, 'must be at least 1 byte')
  .max(MAX_PUT_BYTES, `must be at most ${MAX_PUT_BYTES} bytes (${MAX_PUT_BYTES / 1024 ** 3} GiB)`);

/** What an upload may create its version as: a yanked version is only ever a published one withdrawn. */
const UPLOAD_VERSION_STATUSES = ['draft', 'published'] as const satisfies readonly InitialReleaseStatus[];
const versionStatus = z.enum(UPLOAD_VERSION_STATUSES, {
  errorMap: () => ({ message: 'must be draft or published (what the upload creates its version as)' }),
});

/** What the configuration decides about an upload's fields: the tiers and the channels. */
export interface UploadFieldChoices {
  tiers: readonly string[];
  channels: readonly string[];
}

/**
 * Fields both uploads take besides the file: where the file goes (platform, arch, type) and what the
 * upload says about its version. Whether a platform and arch go together is checked by the service.
 */
const uploadFields = ({ tiers, channels }: UploadFieldChoices) => ({
  applicationId: applicationIdField,
  version: newVersionField,
  fileType: fileType.optional(),
  platform: platformField.optional(),
  arch: archField.optional(),
  releaseNotes: releaseNotesField.optional(),
  requiredTier: tierField(tiers).optional(),
  channel: channelField(channels).optional(),
  status: versionStatus.optional(),
});

/** Form fields of the small upload (the file part is handled separately). */
export const smallUploadFields = (choices: UploadFieldChoices) => z.object(uploadFields(choices)).strict();

export const largeUploadUrlSchema = (choices: UploadFieldChoices) =>
  z
    .object({
      ...uploadFields(choices),
      fileName: fileNameField,
      fileSize,
      contentType: contentTypeField.optional(),
    })
    .strict();

/** Names an upload session already issued: its fields are compared with the session's. */
export const largeUploadCompleteSchema = z
  .object({
    uploadId: generatedIdField,
    applicationId: applicationIdField,
    version: versionField,
    fileName: fileNameField,
    fileSize,
    checksum: z
      .string()
      .regex(/^(sha256:)?[0-9a-fA-F]{64}$/, 'must be sha256:<64 hex digits> or 64 hex digits')
      .optional(),
    releaseNotes: releaseNotesField.optional(),
  })
  .strict();

export const uploadParams = z.object({ uploadId: generatedIdField });

export type SmallUploadFields = z.output<ReturnType<typeof smallUploadFields>>;
export type LargeUploadRequest = z.output<ReturnType<typeof largeUploadUrlSchema>>;
export type LargeUploadCompletion = z.output<typeof largeUploadCompleteSchema>;
