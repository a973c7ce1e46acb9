import { z } from 'zod';
import { ARCHS, PLATFORMS } from '../releases/platforms';
import type { StoredPart } from '../storage/stored-part';
import type { FeedKeys } from '../releases/signed-files';
import type { FileRecord, UploadSession, VersionWithFiles } from '../store/models';
import { partLayout } from '../uploads/multipart-layout';
import { iso, timestamp } from './common';
import { presentUploadedFile, uploadedFileResponse } from './versions';

const storedPartResponse = z.object({ partNumber: z.number().int(), size: z.number().int(), etag: z.string() });

/** How a multipart upload is cut, and the parts stored so far. */
const multipartResponse = z.object({
  partSize: z.number().int(),
  partCount: z.number().int(),
  /** The parts the store holds, by part number, while the upload takes parts (status issued); null once it takes no more. */
  parts: z.array(storedPartResponse).nullable(),
});

export const uploadSessionResponse = z.object({
  uploadId: z.string(),
  applicationId: z.string(),
  version: z.string(),
  /** The file the upload reserved (published once it completes). */
  fileId: z.string(),
  fileName: z.string(),
  fileSize: z.number().int(),
  platform: z.enum(PLATFORMS),
  arch: z.enum(ARCHS),
  /** The channel and status the upload named for its version; null when it named none. */
  channel: z.string().nullable(),
  versionStatus: z.enum(['draft', 'published']).nullable(),
  status: z.enum(['issued', 'verifying', 'completed', 'failed', 'expired', 'aborted']),
  failureReason: z.string().nullable(),
  expiresAt: timestamp,
  createdAt: timestamp,
  updatedAt: timestamp,
  /** The published file (with its SHA-512), once the upload has completed. */
  file: uploadedFileResponse.nullable(),
  /** null for a single-PUT large upload. */
  multipart: multipartResponse.nullable(),
});

/** `parts`: what the store holds of a multipart upload that still takes parts; leave it out otherwise. */
export function presentUploadSession(
  session: UploadSession,
  file: FileRecord | null,
  version: VersionWithFiles | null,
  parts: readonly StoredPart[] | null = null,
  keys: FeedKeys | null = null,
): z.input<typeof uploadSessionResponse> {
  return {
    uploadId: session.uploadId,
    applicationId: session.applicationId,
    version: session.version,
    fileId: session.fileId,
    fileName: session.fileName,
    fileSize: session.fileSize,
    platform: session.platform,
    arch: session.arch,
    channel: session.channel,
    versionStatus: session.versionStatus,
    status: session.status,
    failureReason: session.failureReason,
    expiresAt: iso(session.expiresAt),
    createdAt: iso(session.createdAt),
    updatedAt: iso(session.updatedAt),
    file: session.status === 'completed' && file && version ? presentUploadedFile(file, version, keys) : null,
    multipart: session.multipart
      ? {
          partSize: session.multipart.partSize,
          partCount: partLayout(session.fileSize, session.multipart.partSize).partCount,
          parts: parts?.map(({ partNumber, size, etag }) => ({ partNumber, size, etag })) ?? null,
        }
      : null,
  };
}

/** A multipart upload just opened: how to cut the file, and until when the session lasts. */
export const multipartUploadResponse = z.object({
  uploadId: z.string(),
  fileId: z.string(),
  fileName: z.string(),
  fileSize: z.number().int(),
  partSize: z.number().int(),
  partCount: z.number().int(),
  status: z.literal('issued'),
  expiresAt: timestamp,
});

export function presentMultipartUpload(session: UploadSession): z.input<typeof multipartUploadResponse> {
  const partSize = session.multipart?.partSize ?? session.fileSize;
  return {
    uploadId: session.uploadId,
    fileId: session.fileId,
    fileName: session.fileName,
    fileSize: session.fileSize,
    partSize,
    partCount: partLayout(session.fileSize, partSize).partCount,
    status: 'issued',
    expiresAt: iso(session.expiresAt),
  };
}

/** One pre-signed part URL: PUT exactly `size` bytes to it. */
export interface PartUrl {
  partNumber: number;
  size: number;
  uploadUrl: string;
}

export const partUrlsResponse = z.object({
  uploadId: z.string(),
  /** When these URLs stop working (never after the session expires). */
  expiresAt: timestamp,
  parts: z.array(z.object({ partNumber: z.number().int(), size: z.number().int(), uploadUrl: z.string().url(), method: z.literal('PUT') })),
});

export function presentPartUrls(uploadId: string, expiresAt: Date, parts: readonly PartUrl[]): z.input<typeof partUrlsResponse> {
  return { uploadId, expiresAt: iso(expiresAt), parts: parts.map((part) => ({ ...part, method: 'PUT' })) };
}

/** Step 1 of a large upload: where to PUT the bytes, until when. */
export const largeUploadResponse = z.object({
  uploadUrl: z.string().url(),
  uploadId: z.string(),
  expiresAt: timestamp,
  fileId: z.string(),
  method: z.literal('PUT'),
});

export function presentLargeUpload(session: UploadSession, uploadUrl: string): z.input<typeof largeUploadResponse> {
  return { uploadUrl, uploadId: session.uploadId, expiresAt: iso(session.expiresAt), fileId: session.fileId, method: 'PUT' };
}

/** A PUT to a signed object URL: how many bytes were stored; for a part of a multipart upload, also its number and tag. */
export const storedObjectResponse = z.object({
  size: z.number().int(),
  partNumber: z.number().int().optional(),
  etag: z.string().optional(),
});

export const presentStoredObject = (size: number): z.input<typeof storedObjectResponse> => ({ size });

export const presentStoredPart = (part: StoredPart): z.input<typeof storedObjectResponse> =>
  ({ size: part.size, partNumber: part.partNumber, etag: part.etag });
