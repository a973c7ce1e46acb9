import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { pipeline } from 'node:stream/promises';
import { runJsonChild } from '../children';
import { makeTempDir } from '../cleanup';
import { figure, Figure } from '../figures';
import { MIB, sleep } from '../sample-stats';
import type { Seeded } from '../seed';
import type { Service } from '../service';

const FILE_BYTES = 1024 * MIB;
/** The source file, the service's stored copy, and room to spare. */
const DISK_NEEDED = 3 * FILE_BYTES;
const POLL_MS = 20;
const VERIFY_TIMEOUT_MS = 180_000;

interface UploadStatus {
  status: string;
  failureReason: string | null;
}

/**
 * A 1 GiB object through the three-step flow (large-url, PUT, large-complete with the checksum);
 * the figure is the time from complete to status `completed`, against plain SHA-256 of the same
 * bytes in a child process. Returns no figures, with a note, when the disk is too small.
 */
export async function largeUpload(service: Service, seeded: Seeded, notes: string[]): Promise<Figure[]> {
  const free = freeBytes(os.tmpdir());
  if (free < DISK_NEEDED) {
    notes.push(`large upload skipped: ${(free / MIB).toFixed(0)} MiB free in ${os.tmpdir()}, ${DISK_NEEDED / MIB} MiB needed`);
    return [];
  }
  const dir = makeTempDir('bds-bench-large-');
  try {
    const file = `${dir.path}/large.bin`;
    const { sha256 } = await runJsonChild<{ sha256: string }>('random-file', [file, String(FILE_BYTES)], 120_000);
    const rawBefore = await hashFile(file, sha256);
    const target = { applicationId: seeded.applicationId, version: 'large-1.0.0', fileName: 'large.bin', fileSize: FILE_BYTES };

    const issued = await service.api.admin<{ uploadUrl: string; uploadId: string }>('/v1/management/upload/large-url', {
      json: { ...target, contentType: 'application/octet-stream' },
    });
    const putStarted = performance.now();
    await putFile(issued.uploadUrl, file);
    const putSeconds = (performance.now() - putStarted) / 1000;

    const completeStarted = performance.now();
    await service.api.admin('/v1/management/upload/large-complete', {
      json: { ...target, uploadId: issued.uploadId, checksum: `sha256:${sha256}` },
      expect: [200, 202],
    });
    await waitUntilCompleted(service, issued.uploadId);
    const verifySeconds = (performance.now() - completeStarted) / 1000;

    // The faster of a run before and one after the service's, so the ratio is not flattered by a slow spell.
    const rawSeconds = Math.min(rawBefore, await hashFile(file, sha256));

    return [
      figure({
        name: 'large upload 1 GiB: complete -> completed',
        value: FILE_BYTES / MIB / verifySeconds,
        unit: 'MiB/s',
        baseline: { name: 'raw SHA-256, 1 MiB reads', value: FILE_BYTES / MIB / rawSeconds },
        target: { on: 'ratio', op: '>=', limit: 0.8 },
        detail: { verifySeconds, rawSeconds, rawRuns: 2, pollMs: POLL_MS },
      }),
      figure({ name: 'large upload 1 GiB: PUT to uploadUrl', value: FILE_BYTES / MIB / putSeconds, unit: 'MiB/s', detail: { putSeconds } }),
    ];
  } finally {
    await dir.remove();
  }
}

/** Seconds plain SHA-256 takes over the file, in a child process; checks it read the uploaded bytes. */
async function hashFile(file: string, sha256: string): Promise<number> {
  const raw = await runJsonChild<{ sha256: string; bytes: number; ms: number }>('hash-file', [file], 120_000);
  if (raw.sha256 !== sha256 || raw.bytes !== FILE_BYTES) throw new Error('the baseline hash read other bytes than were uploaded');
  return raw.ms / 1000;
}

function freeBytes(dir: string): number {
  const stats = fs.statfsSync(dir);
  return stats.bavail * stats.bsize;
}

/** Streams the file as the body of a PUT with its exact Content-Length. */
async function putFile(url: string, file: string): Promise<void> {
  const request = http.request(url, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(fs.statSync(file).size) },
  });
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
  });
  await pipeline(fs.createReadStream(file, { highWaterMark: MIB }), request);
  const answer = await response;
  let body = '';
  for await (const chunk of answer) body += chunk;
  if (answer.statusCode !== 200) throw new Error(`PUT to the upload URL: HTTP ${answer.statusCode} ${body.slice(0, 500)}`);
}

async function waitUntilCompleted(service: Service, uploadId: string): Promise<void> {
  const deadline = Date.now() + VERIFY_TIMEOUT_MS;
  for (;;) {
    const upload = await service.api.admin<UploadStatus>(`/v1/management/uploads/${uploadId}`);
    if (upload.status === 'completed') return;
    if (upload.status === 'failed') throw new Error(`large upload failed verification: ${upload.failureReason}`);
    if (Date.now() > deadline) throw new Error(`large upload still ${upload.status} after ${VERIFY_TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
}
