import { z } from 'zod';
import { MAX_PUT_BYTES, MULTIPART_MAX_PARTS, MULTIPART_PART_URLS_PER_REQUEST, MULTIPART_UPLOAD_MAX_BYTES } from '../policy';
import { MAC_UPDATE_FILE, PACKAGE_UPDATE_FILE } from '../releases/mac-updates';
import { BLOCKMAP_FILE } from '../releases/blockmaps';
import { UNIVERSAL_BUILD } from '../releases/platforms';
import { InitialReleaseStatus } from '../store/models';
import { FILE_TYPES } from '../releases/file-types';
import {
  applicationIdField,
  archField,
  channelField,
  contentTypeField,
  distinctItems,
  fileNameField,
  generatedIdField,
  newVersionField,
  platformField,
  releaseNotesField,
  tierField,
  versionField,
} from './fields';

const fileType = z.enum(FILE_TYPES, { errorMap: () => ({ message: `must be one of ${FILE_TYPES.join(', ')}` }) });
const fileSizeUpTo = (maxBytes: number, unit: string, unitBytes: number) => z
  .number({ invalid_type_error: 'must be a number of bytes' })
  .int('must be a whole number of bytes')
  .min(1, 'must be at least 1 byte')
  .max(maxBytes, `must be at most ${maxBytes} bytes (${maxBytes / unitBytes} ${unit})`);
const fileSize = fileSizeUpTo(MAX_PUT_BYTES, 'GiB', 1024 ** 3);
const checksumField = z
  .string()
  .regex(/^(sha256:)?[0-9a-fA-F]{64}$/, 'must be sha256:<64 hex digits> or 64 hex digits');

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

/**
 * What the service checks of an upload's target together, as the API description states it: arch
 * universal needs platform macos (shared/releases/platforms.ts; a left-out platform is `any`), and
 * fileType UPDATE is either the .zip Mac update clients install (platform macos, a name ending in
 * .zip) or a NuGet update package of any platform (`-full.nupkg`, `-delta.nupkg`): where the body
 * names the file, one of the two (shared/releases/mac-updates.ts); a small upload's name comes with
 * its file part, so its fields alone decide nothing about it. fileType BLOCKMAP needs a name ending in
 * .blockmap (shared/releases/blockmaps.ts), which is also the type of a `.blockmap` file uploaded without one.
 */
const uploadTargetRules = <T extends z.ZodTypeAny>(fields: T, namesFile: boolean) => fields.openapi({
  allOf: [
    {
      if: { properties: { arch: { const: UNIVERSAL_BUILD.arch } }, required: ['arch'] },
      then: { properties: { platform: { const: UNIVERSAL_BUILD.platform } }, required: ['platform'] },
    },
    ...(namesFile ? [{
      if: { properties: { fileType: { const: MAC_UPDATE_FILE.fileType } }, required: ['fileType'] },
      then: {
        anyOf: [
          { properties: { platform: { const: MAC_UPDATE_FILE.platform }, fileName: { pattern: MAC_UPDATE_FILE.namePattern } }, required: ['platform'] },
          { properties: { fileName: { pattern: PACKAGE_UPDATE_FILE.namePattern } } },
        ],
      },
    }, {
      if: { properties: { fileType: { const: BLOCKMAP_FILE.fileType } }, required: ['fileType'] },
      then: { properties: { fileName: { pattern: BLOCKMAP_FILE.namePattern } } },
    }] : []),
  ],
} as never);

/** Form fields of the small upload (the file part is handled separately). */
/** The small upload's file field: the form's text fields come before it. */
export const UPLOAD_FILE_FIELD = 'file';

export const smallUploadFields = (choices: UploadFieldChoices) => uploadTargetRules(z.object(uploadFields(choices)).strict(), false);

export const largeUploadUrlSchema = (choices: UploadFieldChoices) =>
  uploadTargetRules(z
    .object({
      ...uploadFields(choices),
      fileName: fileNameField,
      fileSize,
      contentType: contentTypeField.optional(),
    })
    .strict(), true);

/** Names an upload session already issued: its fields are compared with the session's. */
export const largeUploadCompleteSchema = z
  .object({
    uploadId: generatedIdField,
    applicationId: applicationIdField,
    version: versionField,
    fileName: fileNameField,
    fileSize,
    checksum: checksumField.optional(),
    releaseNotes: releaseNotesField.optional(),
  })
  .strict();

export const uploadParams = z.object({ uploadId: generatedIdField });

/** A multipart upload: the large upload's fields, files up to 5 TiB in parts whose size the service chooses, the checksum up front. */
export const multipartUploadSchema = (choices: UploadFieldChoices) =>
  uploadTargetRules(z
    .object({
      ...uploadFields(choices),
      fileName: fileNameField,
      fileSize: fileSizeUpTo(MULTIPART_UPLOAD_MAX_BYTES, 'TiB', 1024 ** 4),
      contentType: contentTypeField.optional(),
      checksum: checksumField.optional(),
    })
    .strict(), true);

/** Part numbers to pre-sign PUT URLs for, each once; whether they are within the upload's part count is the upload's to say. */
export const partUrlsSchema = z
  .object({
    partNumbers: distinctItems(z
      .array(z.number({ invalid_type_error: 'must be part numbers' }).int('must be whole numbers').min(1, 'part numbers start at 1')
        .max(MULTIPART_MAX_PARTS, `part numbers end at ${MULTIPART_MAX_PARTS} at most`), { invalid_type_error: 'must be an array of part numbers' })
      .min(1, 'must name at least one part')
      .max(MULTIPART_PART_URLS_PER_REQUEST, `must name at most ${MULTIPART_PART_URLS_PER_REQUEST} parts per request`), 'must name each part once'),
  })
  .strict();

export type SmallUploadFields = z.output<ReturnType<typeof smallUploadFields>>;
export type LargeUploadRequest = z.output<ReturnType<typeof largeUploadUrlSchema>>;
export type LargeUploadCompletion = z.output<typeof largeUploadCompleteSchema>;
export type MultipartUploadRequest = z.output<ReturnType<typeof multipartUploadSchema>>;
