import fs from 'node:fs';
import { ApiClient, apiPath } from '../http/api-client';
import { ApiError } from '../errors';
import { Output } from '../output/output';
import { TransferProgress } from '../output/progress';
import { PartJob, sendPart } from './part-sender';
import { PartUrls } from './part-urls';
import { fileIdentity, ResumeRecord, ResumeRecords, sameFile, UploadTarget } from './resume-records';
import { UploadRecord, uploadPath } from './upload-status';

/** The fields of POST /v1/management/uploads/multipart besides the file's name and size. */
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

interface MultipartSession {
  uploadId: string;
  partSize: number;
  partCount: number;
  expiresAt: string;
}

/** An upload as GET answers it while it takes parts: the parts the object store holds. */
type UploadWithParts = UploadRecord & { multipart?: { partSize: number; partCount: number; parts: { partNumber: number; size: number }[] | null } | null };

export interface MultipartOutcome {
  /** The upload once completion was asked for (verifying), or as it already stood. */
  upload: UploadRecord;
  resumed: boolean;
  skippedParts: number;
  sentParts: number;
}

const MULTIPART = '/v1/management/uploads/multipart';

export const partSizeOf = (session: Pick<MultipartSession, 'partSize' | 'partCount'>, fileSize: number, partNumber: number): number =>
  partNumber < session.partCount ? session.partSize : fileSize - session.partSize * (session.partCount - 1);

/**
 * A file sent in parts, `parallel` at a time. The resume record is written before the first byte
 * moves; run again after an interruption, the same target finds it, asks the service which parts
 * it holds and sends only the others. Ends by asking for completion (the caller waits for the
 * verification).
 */
export async function multipartUpload(options: {
  client: ApiClient;
  output: Output;
  filePath: string;
  target: UploadTarget;
  fields: ReleaseFields;
  parallel: number;
  records: ResumeRecords;
  signal: AbortSignal;
}): Promise<MultipartOutcome> {
  const { client, output, filePath, target, records, signal } = options;
  const identity = fileIdentity(filePath, fs.statSync(filePath));
  const fileSize = identity.size;

  let session: MultipartSession | undefined;
  let held = new Map<number, number>();
  const earlier = records.load(target);
  if (earlier) {
    const found = await resumable(client, earlier, sameFile(earlier.file, identity));
    if (found && found.status !== 'issued') return { upload: found, resumed: true, skippedParts: earlier.partCount, sentParts: 0 };
    if (found) {
      session = earlier;
      held = new Map((found.multipart?.parts ?? []).map((part) => [part.partNumber, part.size]));
    } else {
      records.remove(target);
    }
  }
  const resumed = session !== undefined;
  if (!session) {
    const { data } = await client.post<MultipartSession>(MULTIPART, {
      applicationId: target.applicationId, version: target.version, fileName: target.fileName, fileSize, ...options.fields,
    });
    session = data;
    records.save(target, { uploadId: data.uploadId, file: identity, partSize: data.partSize, partCount: data.partCount, expiresAt: data.expiresAt });
  }

  const jobs: PartJob[] = [];
  let skippedBytes = 0;
  for (let partNumber = 1; partNumber <= session.partCount; partNumber += 1) {
    const size = partSizeOf(session, fileSize, partNumber);
    if (held.get(partNumber) === size) skippedBytes += size;
    else jobs.push({ partNumber, offset: (partNumber - 1) * session.partSize, size });
  }
  const skippedParts = session.partCount - jobs.length;
  const { uploadId, partSize, partCount } = session;
  output.event('start', { uploadId, method: 'multipart', fileSize, partSize, partCount, parallel: options.parallel, resumed, skippedParts });
  if (resumed) output.note(`Resuming upload ${uploadId}: ${skippedParts} of ${partCount} parts already stored, skipped; sending ${jobs.length}.`);
  else output.note(`Upload ${uploadId}: ${partCount} parts of ${partSize} bytes, ${options.parallel} at a time.`);

  const progress = new TransferProgress(output, fileSize, 'uploading');
  progress.start(skippedBytes);
  const urls = new PartUrls(client, uploadId, jobs.map((job) => job.partNumber));
  let partsDone = skippedParts;
  const queue = [...jobs];
  const sending = {
    filePath,
    urls,
    signal,
    onBytes: (delta: number) => progress.add(delta, { partsDone, partCount }),
    onRetry: (partNumber: number, attempt: number, reason: string, delayMs: number) => {
      output.event('retry', { partNumber, attempt, reason, delayMs });
      output.note(`part ${partNumber}: attempt ${attempt} failed (${reason}); retrying in ${(delayMs / 1000).toFixed(1)} s`);
    },
  };
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      await sendPart(job, sending);
      partsDone += 1;
      progress.milestone({ partsDone, partCount, partNumber: job.partNumber });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.parallel, Math.max(jobs.length, 1)) }, worker));
  } finally {
    progress.stop({ partsDone, partCount });
  }

  const { data } = await client.post<UploadRecord>(apiPath`/v1/management/uploads/${uploadId}/complete`);
  return { upload: data, resumed, skippedParts, sentParts: jobs.length };
}

/**
 * The upload an earlier run left, when it can still be used: taking parts and of the same file, or
 * already completing. A changed file's upload is aborted so its name is free again.
 */
async function resumable(client: ApiClient, record: ResumeRecord, sameFileAsBefore: boolean): Promise<UploadWithParts | undefined> {
  let upload: UploadWithParts;
  try {
    upload = (await client.get<UploadWithParts>(uploadPath(record.uploadId))).data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
  if (upload.status === 'issued' && !sameFileAsBefore) {
    await client.delete(uploadPath(record.uploadId)).catch((error: unknown) => {
      if (!(error instanceof ApiError && (error.status === 404 || error.status === 409))) throw error;
    });
    return undefined;
  }
  if (upload.status === 'issued' || upload.status === 'verifying' || upload.status === 'completed') return sameFileAsBefore ? upload : undefined;
  return undefined;
}
