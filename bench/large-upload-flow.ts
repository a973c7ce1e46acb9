/** The large-upload flow and downloads through the service API, as the bytes-path figures drive them. */
import fs from 'node:fs';
import { checkTransfers, curlSequential, CurlRequest } from './curl';
import { sleep } from './sample-stats';
import type { Seeded } from './seed';
import type { Service } from './service';

export const POLL_MS = 20;
const VERIFY_TIMEOUT_MS = 300_000;

/** An issued large upload: where its bytes go, and the fields large-complete repeats. */
export interface LargeUpload {
  uploadUrl: string;
  uploadId: string;
  target: { applicationId: string; version: string; fileName: string; fileSize: number };
}

export async function issueLargeUpload(service: Service, seeded: Seeded, version: string, fileSize: number): Promise<LargeUpload> {
  const target = { applicationId: seeded.applicationId, version, fileName: 'large.bin', fileSize };
  const issued = await service.api.admin<{ uploadUrl: string; uploadId: string }>('/v1/management/upload/large-url', {
    json: { ...target, contentType: 'application/octet-stream' },
  });
  return { ...issued, target };
}

/** The request that PUTs `file` as a raw body (curl sends its exact Content-Length). */
export const putRequest = (url: string, file: string): CurlRequest => ({ url, options: ['--upload-file', file] });

/** large-complete with the checksum, then polls until the upload is completed; returns the seconds that took. */
export async function completeLargeUpload(service: Service, upload: LargeUpload, sha256: string): Promise<number> {
  const started = performance.now();
  await service.api.admin('/v1/management/upload/large-complete', {
    json: { ...upload.target, uploadId: upload.uploadId, checksum: `sha256:${sha256}` },
    expect: [200, 202],
  });
  const deadline = Date.now() + VERIFY_TIMEOUT_MS;
  for (;;) {
    const status = await service.api.admin<{ status: string; failureReason: string | null }>(`/v1/management/uploads/${upload.uploadId}`);
    if (status.status === 'completed') return (performance.now() - started) / 1000;
    if (status.status === 'failed') throw new Error(`large upload failed verification: ${status.failureReason}`);
    if (Date.now() > deadline) throw new Error(`large upload still ${status.status} after ${VERIFY_TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
}

/** A file of `file`'s bytes published as `version`, untimed: what the download figures read. */
export async function publishFile(service: Service, seeded: Seeded, version: string, file: string, sha256: string): Promise<void> {
  const upload = await issueLargeUpload(service, seeded, version, fs.statSync(file).size);
  checkTransfers(await curlSequential([putRequest(upload.uploadUrl, file)]), `PUT ${version} to its upload URL`, 200);
  await completeLargeUpload(service, upload, sha256);
}

/** A customer's signed download URL for the MAIN file of `version`. */
export async function downloadUrl(service: Service, seeded: Seeded, version: string): Promise<string> {
  const answer = await service.api.call<{ downloadUrl: string }>(`/v1/downloads/url?applicationId=${seeded.applicationId}&version=${encodeURIComponent(version)}`, {
    key: seeded.customerKey,
  });
  return answer.downloadUrl;
}
