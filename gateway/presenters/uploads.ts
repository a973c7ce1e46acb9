import { z } from 'zod';
import { ARCHS, PLATFORMS } from '../../shared/releases/platforms';
import type { FileRecord, UploadSession, Version } from '../../shared/store/models';
import { iso, timestamp } from './common';
import { presentUploadedFile, uploadedFileResponse } from './versions';

export const uploadSessionResponse = z.object({
  uploadId: z.string(),
  applicationId: z.string(),
  version: z.string(),
  fileName: z.string(),
  fileSize: z.number().int(),
  platform: z.enum(PLATFORMS),
  arch: z.enum(ARCHS),
  /** The channel and status the upload named for its version; null when it named none. */
  channel: z.string().nullable(),
  versionStatus: z.enum(['draft', 'published']).nullable(),
  status: z.enum(['issued', 'verifying', 'completed', 'failed', 'expired']),
  failureReason: z.string().nullable(),
  expiresAt: timestamp,
  createdAt: timestamp,
  updatedAt: timestamp,
  /** The published file (with its SHA-512), once the upload has completed. */
  file: uploadedFileResponse.nullable(),
});

export function presentUploadSession(session: UploadSession, file: FileRecord | null, version: Version | null): z.input<typeof uploadSessionResponse> {
  return {
    uploadId: session.uploadId,
    applicationId: session.applicationId,
    version: session.version,
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
    file: session.status === 'completed' && file && version ? presentUploadedFile(file, version) : null,
  };
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

/** A PUT to a signed object URL: how many bytes were stored. */
export const storedObjectResponse = z.object({ size: z.number().int() });

export const presentStoredObject = (size: number): z.input<typeof storedObjectResponse> => ({ size });
