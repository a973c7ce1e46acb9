/** The multipart upload flow through the service API, as the multipart figures drive it. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { MULTIPART_PART_URLS_PER_REQUEST } from '../shared/policy';
import { checkTransfers, curlParallel } from './curl';
import { POLL_MS } from './large-upload-flow';
import { sleep } from './sample-stats';
import type { Seeded } from './seed';
import type { Service } from './service';

const VERIFY_TIMEOUT_MS = 600_000;

export interface MultipartUpload {
  uploadId: string;
  fileSize: number;
  partSize: number;
  partCount: number;
}

export interface PartUrl {
  partNumber: number;
  size: number;
  uploadUrl: string;
}

export async function openMultipartUpload(service: Service, seeded: Seeded, version: string, fileSize: number, checksum?: string): Promise<MultipartUpload> {
  const opened = await service.api.admin<Omit<MultipartUpload, 'fileSize'>>('/v1/management/uploads/multipart', {
    json: { applicationId: seeded.applicationId, version, fileName: 'multipart.bin', fileSize, ...(checksum ? { checksum: `sha256:${checksum}` } : {}) },
  });
  return { ...opened, fileSize };
}

/** Part URLs for `partNumbers`, asked for 100 at a time. */
export async function partUrls(service: Service, uploadId: string, partNumbers: readonly number[]): Promise<PartUrl[]> {
  const urls: PartUrl[] = [];
  for (let i = 0; i < partNumbers.length; i += MULTIPART_PART_URLS_PER_REQUEST) {
    const answer = await service.api.admin<{ parts: PartUrl[] }>(`/v1/management/uploads/${uploadId}/parts`, {
      json: { partNumbers: partNumbers.slice(i, i + MULTIPART_PART_URLS_PER_REQUEST) },
    });
    urls.push(...answer.parts);
  }
  return urls;
}

/**
 * Sends every part of `file`, `parallel` at a time, with curl (as the other bytes-path figures): the
 * file is first cut into part files (untimed), since curl uploads whole files. Resolves with the
 * seconds the parts took.
 */
export async function sendFileInParts(service: Service, upload: MultipartUpload, file: string, parallel: number): Promise<number> {
  const prefix = `${file}.part-`;
  await promisify(execFile)('split', ['--bytes', String(upload.partSize), '--numeric-suffixes=1', '--suffix-length=5', file, prefix]);
  try {
    const urls = await partUrls(service, upload.uploadId, Array.from({ length: upload.partCount }, (_, i) => i + 1));
    const requests = urls.map((part) => ({ url: part.uploadUrl, options: ['--upload-file', `${prefix}${String(part.partNumber).padStart(5, '0')}`] }));
    const run = checkTransfers(await curlParallel(requests, parallel), 'part PUT', 200);
    return run.seconds;
  } finally {
    for (let n = 1; n <= upload.partCount; n += 1) fs.rmSync(`${prefix}${String(n).padStart(5, '0')}`, { force: true });
  }
}

/** complete, then polls until the upload is completed; returns the seconds that took (assembly and verification). */
export async function completeMultipartUpload(service: Service, uploadId: string): Promise<number> {
  const started = performance.now();
  await service.api.admin(`/v1/management/uploads/${uploadId}/complete`, { json: {}, expect: [200, 202] });
  const deadline = Date.now() + VERIFY_TIMEOUT_MS;
  for (;;) {
    const status = await service.api.admin<{ status: string; failureReason: string | null }>(`/v1/management/uploads/${uploadId}`);
    if (status.status === 'completed') return (performance.now() - started) / 1000;
    if (status.status === 'failed') throw new Error(`multipart upload failed verification: ${status.failureReason}`);
    if (Date.now() > deadline) throw new Error(`multipart upload still ${status.status} after ${VERIFY_TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
}

export async function abortUpload(service: Service, uploadId: string): Promise<void> {
  await service.api.admin(`/v1/management/uploads/${uploadId}`, { method: 'DELETE' });
}
