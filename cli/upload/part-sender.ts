import fs from 'node:fs';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { ApiError, NetworkError } from '../errors';
import { backoffDelay, transferAgent } from '../http/agents';
import { describeNetworkFailure, headerValue } from '../http/api-client';
import { PartUrls } from './part-urls';

/** Attempts per part before the upload gives up (it resumes from there when run again). */
export const PART_ATTEMPTS = 5;
/** Read size from the file: large enough for few syscalls, small enough for many parts in flight. */
const READ_CHUNK_BYTES = 1024 * 1024;
/**
 * Answers worth another attempt with a fresh URL: 403 is how S3 refuses an expired signature,
 * the rest are the store or a proxy being busy or briefly down.
 */
const RETRYABLE_STATUS = new Set([403, 408, 429, 500, 502, 503, 504]);

export interface PartJob {
  partNumber: number;
  offset: number;
  size: number;
}

class AttemptFailed extends Error {
  constructor(readonly failure: ApiError | NetworkError) {
    super(failure.message);
  }
}

export interface PartSending {
  filePath: string;
  urls: PartUrls;
  /** Each chunk read into the request, and the negative sum of an attempt that failed. */
  onBytes: (delta: number) => void;
  /** An attempt failed and another follows after `delayMs`. */
  onRetry: (partNumber: number, attempt: number, reason: string, delayMs: number) => void;
  signal: AbortSignal;
}

/** Sends one part's bytes from the file to its pre-signed URL, retrying with backoff. */
export async function sendPart(job: PartJob, { filePath, urls, onBytes, onRetry, signal }: PartSending): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    let sent = 0;
    try {
      const { uploadUrl } = await urls.get(job.partNumber, attempt > 1);
      const file = fs.createReadStream(filePath, { start: job.offset, end: job.offset + job.size - 1, highWaterMark: READ_CHUNK_BYTES });
      // Counted as the request reads them (a 'data' listener would start the stream before it does).
      async function* counted() {
        for await (const chunk of file) {
          sent += (chunk as Buffer).length;
          onBytes((chunk as Buffer).length);
          yield chunk as Buffer;
        }
      }
      await putPart(uploadUrl, Readable.from(counted(), { objectMode: false }), file, job.size, signal);
      return;
    } catch (error) {
      onBytes(-sent);
      if (signal.aborted) throw signal.reason;
      if (!(error instanceof AttemptFailed) || attempt >= PART_ATTEMPTS) throw error instanceof AttemptFailed ? error.failure : error;
      const delayMs = Math.round(backoffDelay(attempt));
      onRetry(job.partNumber, attempt, error.message, delayMs);
      await sleep(delayMs, undefined, { signal });
    }
  }
}

async function putPart(url: string, body: Readable, file: fs.ReadStream, size: number, signal: AbortSignal): Promise<void> {
  let status: number;
  let text: string;
  let requestId: string | null;
  try {
    const response = await request(url, { method: 'PUT', body, headers: { 'content-length': String(size) }, dispatcher: transferAgent, signal });
    status = response.statusCode;
    requestId = headerValue(response.headers['x-request-id']);
    text = await response.body.text();
  } catch (error) {
    body.destroy();
    file.destroy();
    if (signal.aborted) throw error;
    throw new AttemptFailed(new NetworkError(`part upload failed: ${describeNetworkFailure(error)}`, error));
  }
  if (status < 300) return;
  const refusal = new ApiError(status, refusalCode(text, status), `the object store refused a part (${status}): ${refusalMessage(text)}`, requestId);
  if (RETRYABLE_STATUS.has(status)) throw new AttemptFailed(refusal);
  throw refusal;
}

/** The code of the service's envelope, or of S3's XML error. */
function refusalCode(text: string, status: number): string {
  try {
    const code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
    if (code) return code;
  } catch {
    const xmlCode = /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1];
    if (xmlCode) return xmlCode;
  }
  return `HTTP_${status}`;
}

function refusalMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: string } }).error?.message;
    if (message) return message;
  } catch {
    const xmlMessage = /<Message>([^<]{1,300})<\/Message>/.exec(text)?.[1];
    if (xmlMessage) return xmlMessage;
  }
  return text.slice(0, 200) || 'no reason given';
}
