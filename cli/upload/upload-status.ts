import { setTimeout as sleep } from 'node:timers/promises';
import { apiPath, ApiClient } from '../http/api-client';
import { VerificationError } from '../errors';
import { FileRecord } from '../commands/versions';

export type UploadStatus = 'issued' | 'verifying' | 'completed' | 'failed' | 'expired' | 'aborted';

/** An upload session as GET /v1/management/uploads/{uploadId} answers it. */
export interface UploadRecord {
  uploadId: string;
  applicationId: string;
  version: string;
  fileName: string;
  fileSize: number;
  platform: string;
  arch: string;
  channel: string | null;
  versionStatus: 'draft' | 'published' | null;
  status: UploadStatus;
  failureReason: string | null;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
  file: (FileRecord & { applicationId: string; version: string; releaseNotes: string | null; requiredTier: string | null; channel: string; versionStatus: 'draft' | 'published' | 'yanked' }) | null;
  /** How a multipart upload is cut; `parts`, those the store holds, only while it takes parts (status issued). */
  multipart: { partSize: number; partCount: number; parts: { partNumber: number; size: number }[] | null } | null;
}

/** Polling of a verifying upload: soon at first (small files verify in well under a second), then less often. */
const FIRST_POLL_MS = 250;
const LONGEST_POLL_MS = 5_000;

export const uploadPath = (uploadId: string) => apiPath`/v1/management/uploads/${uploadId}`;

export const isSettled = (status: UploadStatus): boolean => status !== 'issued' && status !== 'verifying';

/** Polls until the upload is settled; `onPoll` sees each state. */
export async function waitForUpload(client: ApiClient, uploadId: string, onPoll: (upload: UploadRecord) => void = () => {}, signal?: AbortSignal): Promise<UploadRecord> {
  for (let delay = FIRST_POLL_MS; ; delay = Math.min(LONGEST_POLL_MS, delay * 2)) {
    const { data } = await client.get<UploadRecord>(uploadPath(uploadId));
    onPoll(data);
    if (isSettled(data.status)) return data;
    await sleep(delay, undefined, { signal });
  }
}

/** A settled upload that did not publish its file, as the error the CLI ends on. */
export function unpublishedUpload(upload: UploadRecord): VerificationError | undefined {
  if (upload.status === 'completed') return undefined;
  const reason = upload.failureReason ?? (upload.status === 'expired' ? 'the upload expired before it was completed' : `the upload is ${upload.status}`);
  return new VerificationError(`upload ${upload.uploadId} ${upload.status}: ${reason}`, { uploadId: upload.uploadId, status: upload.status, failureReason: upload.failureReason });
}
