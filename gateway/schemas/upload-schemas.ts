import { z } from 'zod';
import { MAX_PUT_BYTES } from '../../shared/policy';
import { FILE_TYPES } from '../../shared/store/models';
import {
  applicationIdField,
  contentTypeField,
  fileNameField,
  generatedIdField,
  newVersionField,
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

/** Form fields of the small upload (the file part is handled separately). */
export const smallUploadFields = (tiers: readonly string[]) =>
  z
    .object({
      applicationId: applicationIdField,
      version: newVersionField,
      releaseNotes: releaseNotesField.optional(),
      fileType: fileType.optional(),
      requiredTier: tierField(tiers).optional(),
    })
    .strict();

export const largeUploadUrlSchema = (tiers: readonly string[]) =>
  z
    .object({
      applicationId: applicationIdField,
      version: newVersionField,
      fileName: fileNameField,
      fileSize,
      contentType: contentTypeField.optional(),
      fileType: fileType.optional(),
      releaseNotes: releaseNotesField.optional(),
      requiredTier: tierField(tiers).optional(),
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
