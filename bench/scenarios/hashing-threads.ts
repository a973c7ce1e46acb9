import path from 'node:path';
import { alternate, RUNS } from '../alternate';
import { formatBytes, scaled } from '../byte-sizes';
import { makeTempDir } from '../cleanup';
import { checkTransfers, curlSequential } from '../curl';
import { figure, Figure } from '../figures';
import { completeLargeUpload, issueLargeUpload, LargeUpload, POLL_MS, putRequest } from '../large-upload-flow';
import { median, MIB } from '../sample-stats';
import { Seeded, seedThroughApi } from '../seed';
import { Service, startService } from '../service';
import { requireFreeDisk, writeRandomFile } from '../source-files';
import { compareTransfers, settleDisk, throughputFigure } from '../transfers';
import { serviceUploads, SMALL_FILE_BYTES, SMALL_UPLOADS, writeSmallFile } from './small-upload';
import { verifiedDigestsName } from './verification';

const VERIFIED_BYTES = scaled(1024 * MIB);
/** The service whose digests are computed on its event loop: the baseline of what the hashing threads buy. */
const ON_THE_EVENT_LOOP = 'HASHING_THREADS=0';

/**
 * What the hashing threads buy: the same small uploads through the service and through a second
 * service started with HASHING_THREADS=0 (digests on the event loop), runs alternating.
 */
export async function smallUploadHashingThreads(service: Service, seeded: Seeded, redisUrl: string): Promise<Figure[]> {
  return withServiceHashingOnEventLoop(redisUrl, async (onEventLoop, onEventLoopSeeded, dir) => {
    const file = writeSmallFile(dir);
    const runs = await compareTransfers(
      SMALL_UPLOADS * SMALL_FILE_BYTES,
      { pid: onEventLoop.pid, run: serviceUploads(onEventLoop, onEventLoopSeeded, file, '3') },
      { pid: service.pid, run: serviceUploads(service, seeded, file, '3') },
      settleDisk,
    );
    return [throughputFigure(`small upload ${formatBytes(SMALL_FILE_BYTES)} x${SMALL_UPLOADS}: hashing threads vs ${ON_THE_EVENT_LOOP}`, runs, ON_THE_EVENT_LOOP)];
  });
}

/**
 * The same, for verification: large-complete -> completed of 1 GiB PUT beforehand (untimed) to each
 * service, runs alternating.
 */
export async function verificationHashingThreads(service: Service, seeded: Seeded, redisUrl: string): Promise<Figure[]> {
  // The source and one stored copy per run on each service, and room to spare.
  requireFreeDisk((2 * RUNS + 2) * VERIFIED_BYTES, 'the hashing threads verification figure');
  return withServiceHashingOnEventLoop(redisUrl, async (onEventLoop, onEventLoopSeeded, dir) => {
    const source = path.join(dir, 'source.bin');
    const sha256 = await writeRandomFile(source, VERIFIED_BYTES);
    const uploaded = async (target: Service, targetSeeded: Seeded): Promise<LargeUpload[]> => {
      const uploads: LargeUpload[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const upload = await issueLargeUpload(target, targetSeeded, `threads-${run}`, VERIFIED_BYTES);
        checkTransfers(await curlSequential([putRequest(upload.uploadUrl, source)]), 'PUT', 200);
        uploads.push(upload);
      }
      return uploads;
    };
    const onEventLoopUploads = await uploaded(onEventLoop, onEventLoopSeeded);
    const threadUploads = await uploaded(service, seeded);
    await settleDisk();
    const runs = await alternate(
      (run) => completeLargeUpload(onEventLoop, onEventLoopUploads[run], sha256),
      (run) => completeLargeUpload(service, threadUploads[run], sha256),
    );
    const mibPerSecond = (seconds: number) => VERIFIED_BYTES / MIB / seconds;
    return [figure({
      name: `large upload ${formatBytes(VERIFIED_BYTES)}: complete -> completed (${verifiedDigestsName()}), hashing threads vs ${ON_THE_EVENT_LOOP}`,
      value: median(runs.subject.map(mibPerSecond)),
      unit: 'MiB/s',
      baseline: { name: ON_THE_EVENT_LOOP, value: median(runs.baseline.map(mibPerSecond)) },
      detail: { threadsSeconds: runs.subject, eventLoopSeconds: runs.baseline, pollMs: POLL_MS },
    })];
  });
}

/** A second service, seeded alike, computing digests on its event loop; stopped and removed afterwards with a scratch directory. */
async function withServiceHashingOnEventLoop<T>(redisUrl: string, use: (service: Service, seeded: Seeded, dir: string) => Promise<T>): Promise<T> {
  const dataDir = makeTempDir('bds-bench-event-loop-hashing-');
  const scratch = makeTempDir('bds-bench-hashing-');
  const service = await startService({ dataDir: dataDir.path, redisUrl, env: { HASHING_THREADS: '0' } });
  try {
    return await use(service, await seedThroughApi(service.api), scratch.path);
  } finally {
    await service.stop();
    await dataDir.remove();
    await scratch.remove();
  }
}
