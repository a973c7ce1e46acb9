import { setTimeout as sleep } from 'node:timers/promises';
import type { AnswerOf, Client } from '../../shared/contract/client';
import { VerificationError } from '../errors';

/** An upload session as the service answers it (opened, verifying, published or failed). */
export type UploadRecord = AnswerOf<'getUpload'>;

/** Polling of a verifying upload: soon at first (small files verify in well under a second), then less often. */
const FIRST_POLL_MS = 250;
const LONGEST_POLL_MS = 5_000;

export const isSettled = (status: UploadRecord['status']): boolean => status !== 'issued' && status !== 'verifying';

/** Polls until the upload is settled; `onPoll` sees each state. */
export async function waitForUpload(client: Client, uploadId: string, onPoll: (upload: UploadRecord) => void = () => {}, signal?: AbortSignal): Promise<UploadRecord> {
  for (let delay = FIRST_POLL_MS; ; delay = Math.min(LONGEST_POLL_MS, delay * 2)) {
    const data = await client.getUpload({ uploadId });
    onPoll(data);
    if (isSettled(data.status)) return data;
    await sleep(delay, undefined, { signal });
  }
}

/** What Ctrl-C during the wait for a verification says: the service goes on verifying without the CLI. */
export function verificationGoesOn(uploadId: string): { hint: string; details: Record<string, unknown> } {
  return {
    hint: `the service goes on verifying upload ${uploadId}; follow it with: bds uploads wait ${uploadId} (or run the same command again)`,
    details: { uploadId },
  };
}

/** A settled upload that did not publish its file, as the error the CLI ends on. */
export function unpublishedUpload(upload: UploadRecord): VerificationError | undefined {
  if (upload.status === 'completed') return undefined;
  const reason = upload.failureReason ?? (upload.status === 'expired' ? 'the upload expired before it was completed' : `the upload is ${upload.status}`);
  return new VerificationError(`upload ${upload.uploadId} ${upload.status}: ${reason}`, { uploadId: upload.uploadId, status: upload.status, failureReason: upload.failureReason });
}
