import fs from 'node:fs';
import { ApiClient } from '../http/api-client';
import { Output } from '../output/output';
import { TransferProgress } from '../output/progress';
import { sendPart } from './part-sender';
import { UploadRecord } from './upload-status';

/** The upload fields besides the file's name and size (Upload fields in the README's API section). */
export interface ReleaseFields {
  contentType?: string;
  fileType?: string;
  platform?: string;
  arch?: string;
  channel?: string;
  status?: string;
  releaseNotes?: string;
  requiredTier?: string;
  checksum?: string;
}

interface LargeUploadSession {
  uploadUrl: string;
  uploadId: string;
  expiresAt: string;
  fileId: string;
}

/**
 * The large upload: the file is reserved, its bytes go in one PUT to a pre-signed URL (retried
 * with backoff as a whole), and completion queues the verification, which the caller waits for.
 */
export async function largeUpload(options: {
  client: ApiClient;
  output: Output;
  filePath: string;
  target: { applicationId: string; version: string; fileName: string };
  fields: ReleaseFields;
  signal: AbortSignal;
}): Promise<UploadRecord> {
  const { client, output, filePath, target, signal } = options;
  const fileSize = fs.statSync(filePath).size;
  const { checksum, ...reserveFields } = options.fields;
  const { data: session } = await client.post<LargeUploadSession>('/v1/management/upload/large-url', { ...target, fileSize, ...reserveFields });
  output.event('start', { uploadId: session.uploadId, method: 'large', fileSize });
  output.note(`Upload ${session.uploadId}: ${fileSize} bytes in one PUT.`);

  const progress = new TransferProgress(output, fileSize, 'uploading');
  progress.start(0);
  try {
    await sendPart({ partNumber: 1, offset: 0, size: fileSize }, {
      filePath,
      urls: { get: async () => ({ uploadUrl: session.uploadUrl }) },
      signal,
      onBytes: (delta) => progress.add(delta),
      onRetry: (_partNumber, attempt, reason, delayMs) => {
        output.event('retry', { attempt, reason, delayMs });
        output.note(`attempt ${attempt} failed (${reason}); retrying in ${(delayMs / 1000).toFixed(1)} s`);
      },
    });
  } finally {
    progress.stop();
  }
  const { data } = await client.post<UploadRecord>('/v1/management/upload/large-complete', {
    uploadId: session.uploadId, ...target, fileSize, ...(checksum ? { checksum } : {}), ...(options.fields.releaseNotes !== undefined ? { releaseNotes: options.fields.releaseNotes } : {}),
  });
  return data;
}
