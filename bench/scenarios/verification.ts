import { alternate } from '../alternate';
import { formatBytes } from '../byte-sizes';
import { runJsonChild } from '../children';
import { figure, Figure } from '../figures';
import { completeLargeUpload, LargeUpload, POLL_MS } from '../large-upload-flow';
import { median, MIB } from '../sample-stats';
import type { Service } from '../service';

type Digest = 'sha256' | 'sha512';

/**
 * The digests the service's verification computes in its pass over an upload (the verify-upload
 * job), and so the digests the raw baseline computes in one pass over the same bytes.
 */
export const VERIFIED_DIGESTS: readonly Digest[] = ['sha256', 'sha512'];

const DIGEST_NAMES: Record<Digest, string> = { sha256: 'SHA-256', sha512: 'SHA-512' };

/** "SHA-256 + SHA-512": the digests the baseline computes, as figure names state them. */
export const verifiedDigestsName = (): string => VERIFIED_DIGESTS.map((d) => DIGEST_NAMES[d]).join(' + ');

/**
 * Verification speed: the time from large-complete to status `completed` for each upload (each
 * already PUT with the bytes of `file`), alternating with raw node:crypto over `file` in a child process.
 */
export async function verification(service: Service, uploads: readonly LargeUpload[], file: string, sha256: string): Promise<Figure[]> {
  const bytes = uploads[0].target.fileSize;
  const runs = await alternate(
    () => rawDigestSeconds(file, bytes, sha256),
    (run) => completeLargeUpload(service, uploads[run], sha256),
  );
  const mibPerSecond = (seconds: number) => bytes / MIB / seconds;
  return [
    figure({
      name: `large upload ${formatBytes(bytes)}: complete -> completed`,
      value: median(runs.subject.map(mibPerSecond)),
      unit: 'MiB/s',
      baseline: { name: `raw ${verifiedDigestsName()}, one pass`, value: median(runs.baseline.map(mibPerSecond)) },
      target: { on: 'ratio', op: '>=', limit: 0.8 },
      detail: { digests: VERIFIED_DIGESTS, verifySeconds: runs.subject, rawSeconds: runs.baseline, pollMs: POLL_MS },
    }),
  ];
}

/** Seconds raw node:crypto takes over the file in a child process (hash-file.ts); checks it read the uploaded bytes. */
export async function rawDigestSeconds(file: string, bytes: number, sha256: string): Promise<number> {
  const raw = await runJsonChild<{ digests: Record<string, string>; bytes: number; ms: number }>('hash-file', [file, VERIFIED_DIGESTS.join(',')], 600_000);
  if (raw.digests.sha256 !== sha256 || raw.bytes !== bytes) throw new Error('the baseline hash read other bytes than were uploaded');
  return raw.ms / 1000;
}
