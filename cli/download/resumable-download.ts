import { createHash, Hash } from 'node:crypto';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { ApiError, NetworkError, VerificationError } from '../errors';
import { backoffDelay, transferAgent } from '../http/agents';
import { describeNetworkFailure, headerValue } from '../http/api-client';
import type { AnswerOf } from '../../shared/contract/client';
import { TransferProgress } from '../output/progress';
import { Output } from '../output/output';
import { USER_AGENT } from '../version';

/** A signed download URL with what the file must hash to. */
export type DownloadUrl = AnswerOf<'getDownloadUrl'>;

/** Attempts at reading the rest of the file within one run (each continues where the last stopped). */
export const DOWNLOAD_ATTEMPTS = 5;

/** Beside the partial file: which file's bytes it holds, so a resume never mixes two files. */
interface PartialRecord {
  fileId: string;
  checksum: string;
  fileSize: number;
}

export const partialPath = (destination: string) => `${destination}.part`;
const partialRecordPath = (destination: string) => `${destination}.part.json`;

/** Bytes of an earlier run of the same file at `destination`, or 0 (and no partial file left). */
function bytesAlreadyHere(destination: string, signed: DownloadUrl): number {
  const partial = partialPath(destination);
  try {
    const record = JSON.parse(fs.readFileSync(partialRecordPath(destination), 'utf8')) as PartialRecord;
    const size = fs.statSync(partial).size;
    if (record.fileId === signed.fileId && record.checksum === signed.checksum && size <= signed.fileSize) return size;
  } catch {
    // Nothing usable: start over.
  }
  fs.rmSync(partial, { force: true });
  fs.writeFileSync(partialRecordPath(destination), JSON.stringify({ fileId: signed.fileId, checksum: signed.checksum, fileSize: signed.fileSize } satisfies PartialRecord));
  return 0;
}

async function hashExisting(file: string, hash: Hash): Promise<void> {
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
}

export interface DownloadOutcome {
  path: string;
  resumedFrom: number;
  checksum: string;
}

/**
 * Writes the file to `destination.part` and renames it to `destination` once its SHA-256 matches
 * the service's. An interrupted run leaves the partial file: the next run asks for the rest with a
 * Range request (continuing the hash over what is there), and a server that ignores the range
 * sends it all again.
 */
export async function resumableDownload(signed: DownloadUrl, destination: string, output: Output, signal: AbortSignal): Promise<DownloadOutcome> {
  const partial = partialPath(destination);
  const resumedFrom = bytesAlreadyHere(destination, signed);
  const hash = createHash('sha256');
  if (resumedFrom > 0) await hashExisting(partial, hash);
  output.event('start', { fileName: signed.fileName, fileSize: signed.fileSize, fileId: signed.fileId, path: destination, resumedFrom });
  if (resumedFrom > 0) output.note(`Resuming ${signed.fileName} from byte ${resumedFrom} of ${signed.fileSize}.`);

  const progress = new TransferProgress(output, signed.fileSize, 'downloading');
  progress.start(resumedFrom);
  const state = { hash, written: resumedFrom };
  try {
    for (let attempt = 1; state.written < signed.fileSize; attempt += 1) {
      try {
        await readRest(signed.downloadUrl, partial, state, progress, signal);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (!(error instanceof NetworkError) || attempt >= DOWNLOAD_ATTEMPTS) throw error;
        const delayMs = Math.round(backoffDelay(attempt));
        output.event('retry', { attempt, reason: error.message, delayMs, bytesDone: state.written });
        output.note(`attempt ${attempt} failed (${error.message}); continuing from byte ${state.written} in ${(delayMs / 1000).toFixed(1)} s`);
        await sleep(delayMs, undefined, { signal });
      }
    }
  } finally {
    progress.stop();
  }

  const actual = `sha256:${state.hash.digest('hex')}`;
  if (state.written !== signed.fileSize || actual !== signed.checksum.toLowerCase()) {
    fs.rmSync(partial, { force: true });
    fs.rmSync(partialRecordPath(destination), { force: true });
    throw new VerificationError(`${signed.fileName}: the bytes received (${state.written}, ${actual}) differ from the file's (${signed.fileSize}, ${signed.checksum}); the partial file was deleted`, {
      expected: signed.checksum, actual, bytes: state.written,
    });
  }
  fs.renameSync(partial, destination);
  fs.rmSync(partialRecordPath(destination), { force: true });
  return { path: destination, resumedFrom, checksum: actual };
}

/** One GET of what is missing, appended to the partial file; `state` follows every chunk written. */
async function readRest(url: string, partial: string, state: { hash: Hash; written: number }, progress: TransferProgress, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string> = { 'user-agent': USER_AGENT };
  if (state.written > 0) headers.range = `bytes=${state.written}-`;
  let response;
  try {
    response = await request(url, { method: 'GET', headers, dispatcher: transferAgent, signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new NetworkError(`download failed: ${describeNetworkFailure(error)}`, error);
  }
  if (response.statusCode !== 200 && response.statusCode !== 206) {
    const text = await response.body.text().catch(() => '');
    throw new ApiError(response.statusCode, `HTTP_${response.statusCode}`, `the download URL answered ${response.statusCode}: ${text.slice(0, 200)}`, headerValue(response.headers['x-request-id']));
  }
  if (response.statusCode === 200 && state.written > 0) {
    // The whole file again: start the partial file and the hash over.
    progress.add(-state.written);
    state.hash = createHash('sha256');
    state.written = 0;
  }
  const out = fs.createWriteStream(partial, { flags: state.written > 0 ? 'a' : 'w' });
  try {
    for await (const chunk of response.body) {
      const bytes = chunk as Buffer;
      state.hash.update(bytes);
      state.written += bytes.length;
      if (!out.write(bytes)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      progress.add(bytes.length);
    }
  } catch (error) {
    if (signal.aborted) throw error;
    throw new NetworkError(`download interrupted: ${describeNetworkFailure(error)}`, error);
  } finally {
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
}
