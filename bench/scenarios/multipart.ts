import path from 'node:path';
import { RUNS } from '../alternate';
import { withBareFiles } from '../bare-servers';
import { formatBytes, scaled } from '../byte-sizes';
import { makeTempDir } from '../cleanup';
import { checkTransfers, curlParallel, CurlRun } from '../curl';
import { figure, Figure } from '../figures';
import { abortUpload, completeMultipartUpload, openMultipartUpload, partUrls, sendFileInParts } from '../multipart-flow';
import { MIB } from '../sample-stats';
import type { Seeded } from '../seed';
import type { Service } from '../service';
import { requireFreeDisk, writeRandomFile } from '../source-files';
import { compareTransfers, settleDisk, throughputFigure } from '../transfers';
import { rawDigestSeconds, verifiedDigestsName } from './verification';

const PART_BYTES = 64 * MIB;
const PARALLEL_PARTS = 4;
/** The service gives 64 MiB parts to a file this large (a file of 625 GiB, of which only the measured parts are sent). */
const FILE_OF_64_MIB_PARTS = 640_000 * MIB;
/** Above the 5 GiB a single PUT takes: only a multipart upload can carry it. */
const LARGE_FILE_BYTES = scaled(5 * 1024 * MIB + 256 * MIB);

/**
 * Part PUTs to the embedded store against the bare server: 4 parts of 64 MiB at once, curl sending the
 * same file to both (new part numbers and new file names each run).
 */
export async function parallelPartPuts(service: Service, seeded: Seeded): Promise<Figure[]> {
  requireFreeDisk((2 * RUNS + 2) * PARALLEL_PARTS * PART_BYTES, 'the parallel part PUT figure');
  return withBareFiles('bds-bench-parts-', async (dir, bare) => {
    const source = path.join(dir, 'part.bin');
    await writeRandomFile(source, PART_BYTES);
    const upload = await openMultipartUpload(service, seeded, 'multipart-parts', FILE_OF_64_MIB_PARTS);
    if (upload.partSize !== PART_BYTES) throw new Error(`the service chose ${upload.partSize}-byte parts, not ${PART_BYTES}`);
    try {
      const runParts = (run: number) => Array.from({ length: PARALLEL_PARTS }, (_, i) => run * PARALLEL_PARTS + i + 1);
      const urls = await partUrls(service, upload.uploadId, Array.from({ length: RUNS * PARALLEL_PARTS }, (_, i) => i + 1));
      const send = async (targets: string[]) =>
        checkTransfers(await curlParallel(targets.map((url) => ({ url, options: ['--upload-file', source] }))), 'part PUT', 200);
      const wall = (run: CurlRun) => run.seconds;
      const runs = await compareTransfers(
        PARALLEL_PARTS * PART_BYTES,
        { pid: bare.pid, run: (run) => send(runParts(run).map((n) => `${bare.baseUrl}/part-${n}.bin`)), seconds: wall },
        { pid: service.pid, run: (run) => send(runParts(run).map((n) => urls[n - 1].uploadUrl)), seconds: wall },
        settleDisk,
      );
      return [throughputFigure(`multipart: ${PARALLEL_PARTS} parallel part PUTs of ${formatBytes(PART_BYTES)}`, runs,
        `${PARALLEL_PARTS} parallel PUTs to bare node:http, bodies piped to files`, 0.8)];
    } finally {
      await abortUpload(service, upload.uploadId);
    }
  });
}

/**
 * A file above 5 GiB through a multipart upload, 4 parts at a time, then complete -> completed (the
 * parts assembled into one file and verified), next to raw node:crypto over the same file.
 */
export async function largeMultipartUpload(service: Service, seeded: Seeded): Promise<Figure[]> {
  // The source, its part files, the parts stored, the assembled file while they are still there, and room to spare.
  requireFreeDisk(4 * LARGE_FILE_BYTES + 1024 * MIB, 'the large multipart upload figure');
  const dir = makeTempDir('bds-bench-multipart-');
  try {
    const source = path.join(dir.path, 'large.bin');
    const sha256 = await writeRandomFile(source, LARGE_FILE_BYTES);
    const upload = await openMultipartUpload(service, seeded, 'multipart-large', LARGE_FILE_BYTES, sha256);
    await settleDisk();
    const uploadSeconds = await sendFileInParts(service, upload, source, PARALLEL_PARTS);
    await settleDisk();
    const verifySeconds = await completeMultipartUpload(service, upload.uploadId);
    const rawSeconds = await rawDigestSeconds(source, LARGE_FILE_BYTES, sha256);
    const mibPerSecond = (seconds: number) => LARGE_FILE_BYTES / MIB / seconds;
    const name = `multipart upload of ${formatBytes(LARGE_FILE_BYTES)} (${upload.partCount} parts of ${formatBytes(upload.partSize)}, ${PARALLEL_PARTS} at a time)`;
    return [
      figure({ name: `${name}: parts sent`, value: mibPerSecond(uploadSeconds), unit: 'MiB/s', detail: { seconds: uploadSeconds, client: 'curl, one part file per part' } }),
      figure({
        name: `${name}: complete -> completed (assembly and verification)`,
        value: mibPerSecond(verifySeconds),
        unit: 'MiB/s',
        baseline: { name: `raw ${verifiedDigestsName()}, one pass`, value: mibPerSecond(rawSeconds) },
        detail: { verifySeconds, rawSeconds },
      }),
    ];
  } finally {
    await dir.remove();
  }
}
