import { partLayout, partSizeOf } from '../../shared/uploads/multipart-layout';
import type { Client } from '../../shared/contract/client';
import type { UploadRecord } from './upload-status';
import { Output } from '../output/output';
import { TransferProgress } from '../output/progress';
import { isPartTaker, multipartSession } from './multipart-session';
import { PartJob, sendPart } from './part-sender';
import { PartUrls } from './part-urls';
import { ReleaseFields } from './release-fields';
import { ResumeRecords, UploadTarget } from './resume-records';

export interface MultipartOutcome {
  /** The upload once completion was asked for (verifying), or as it already stood. */
  upload: UploadRecord;
  resumed: boolean;
  skippedParts: number;
  sentParts: number;
}

/**
 * A file sent in parts, `parallel` at a time, to the upload this run opens or resumes
 * (multipart-session.ts): only the parts the service does not hold already are sent. Ends by asking
 * for completion (the caller waits for the verification).
 */
export async function multipartUpload(options: {
  client: Client;
  output: Output;
  filePath: string;
  target: UploadTarget;
  fields: ReleaseFields;
  parallel: number;
  records: ResumeRecords;
  signal: AbortSignal;
}): Promise<MultipartOutcome> {
  const { client, output, filePath, signal } = options;
  const session = await multipartSession(options);
  if (!isPartTaker(session)) return { upload: session.upload, resumed: true, skippedParts: session.partCount, sentParts: 0 };

  const { uploadId, fileSize, partSize, partCount, held, resumed } = session;
  const layout = partLayout(fileSize, partSize);
  const jobs: PartJob[] = [];
  let skippedBytes = 0;
  for (let partNumber = 1; partNumber <= partCount; partNumber += 1) {
    const size = partSizeOf(layout, partNumber);
    if (held.get(partNumber) === size) skippedBytes += size;
    else jobs.push({ partNumber, offset: (partNumber - 1) * partSize, size });
  }
  const skippedParts = partCount - jobs.length;
  output.event('start', { uploadId, method: 'multipart', fileSize, partSize, partCount, parallel: options.parallel, resumed, skippedParts });
  if (resumed) output.note(`Resuming upload ${uploadId}: ${skippedParts} of ${partCount} parts already stored, skipped; sending ${jobs.length}.`);
  else output.note(`Upload ${uploadId}: ${partCount} parts of ${partSize} bytes, ${options.parallel} at a time.`);

  const progress = new TransferProgress(output, fileSize, 'uploading');
  progress.start(skippedBytes);
  let partsDone = skippedParts;
  const queue = [...jobs];
  const sending = {
    filePath,
    urls: new PartUrls(client, uploadId, jobs.map((job) => job.partNumber)),
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

  const data = await client.completeMultipartUpload({ uploadId });
  return { upload: data, resumed, skippedParts, sentParts: jobs.length };
}
