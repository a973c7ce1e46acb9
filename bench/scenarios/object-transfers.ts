import path from 'node:path';
import { RUNS } from '../alternate';
import { withBareFiles } from '../bare-servers';
import { formatBytes, scaled } from '../byte-sizes';
import { checkTransfers, curlParallel, curlSequential, CurlRequest, CurlRun } from '../curl';
import type { Figure } from '../figures';
import { downloadUrl, issueLargeUpload, LargeUpload, publishFile, putRequest } from '../large-upload-flow';
import { MIB } from '../sample-stats';
import type { Seeded } from '../seed';
import type { Service } from '../service';
import { requireFreeDisk, writeRandomFile } from '../source-files';
import { compareTransfers, rssGrowthFigure, settleDisk, throughputFigure } from '../transfers';
import { verification } from './verification';

const OBJECT_BYTES = scaled(1024 * MIB);
const RANGE_BYTES = scaled(100 * MIB);
/** A range request takes a tenth of a second: each run sends several, one after another, for a steadier figure. */
const RANGE_REQUESTS_PER_RUN = 5;
/** Runs per side of the Range figure: each moves 500 MiB in about a third of a second, so a few milliseconds of scheduling swing one run. */
const RANGE_RUNS = 5;
const CONCURRENT_OBJECT_BYTES = scaled(256 * MIB);
const CONCURRENT_GETS = 100;
const BARE_PUT = 'bare node:http, body piped to a file';
const BARE_GET = 'bare node:http, file streamed';

/**
 * The embedded store's upload URL against a bare server, curl PUTting the same file to both; then
 * the verification of the uploads the service received (verification.ts).
 */
export async function objectPut(service: Service, seeded: Seeded): Promise<Figure[]> {
  // The source, the bare server's copy, one stored copy per service run, and room to spare.
  requireFreeDisk((RUNS + 3) * OBJECT_BYTES, 'the PUT figure');
  return withBareFiles('bds-bench-put-', async (dir, bare) => {
    const source = path.join(dir, 'source.bin');
    const sha256 = await writeRandomFile(source, OBJECT_BYTES);
    const uploads: LargeUpload[] = [];
    for (let run = 0; run < RUNS; run += 1) uploads.push(await issueLargeUpload(service, seeded, `put-${run}`, OBJECT_BYTES));
    const put = async (url: string) => checkTransfers(await curlSequential([putRequest(url, source)]), 'PUT', 200);
    const runs = await compareTransfers(
      OBJECT_BYTES,
      { pid: bare.pid, run: (run) => put(`${bare.baseUrl}/put-${run}.bin`) },
      { pid: service.pid, run: (run) => put(uploads[run].uploadUrl) },
      settleDisk,
    );
    return [
      throughputFigure(`PUT ${formatBytes(OBJECT_BYTES)} to an upload URL`, runs, BARE_PUT, 0.85),
      ...(await verification(service, uploads, source, sha256)),
    ];
  });
}

/** A published file through a signed download URL against a bare server streaming the same bytes: whole, and its last part by Range. */
export async function objectGet(service: Service, seeded: Seeded): Promise<Figure[]> {
  requireFreeDisk(3 * OBJECT_BYTES, 'the GET figures');
  return withBareFiles('bds-bench-get-', async (dir, bare) => {
    const source = path.join(dir, 'source.bin');
    await publishFile(service, seeded, 'get-1', source, await writeRandomFile(source, OBJECT_BYTES));
    const urls = { bare: `${bare.baseUrl}/source.bin`, service: await downloadUrl(service, seeded, 'get-1') };

    const whole = (url: string) => get([{ url }], 200, OBJECT_BYTES);
    const wholeRuns = await compareTransfers(OBJECT_BYTES, { pid: bare.pid, run: () => whole(urls.bare) }, { pid: service.pid, run: () => whole(urls.service) });

    const rangeOptions = ['--header', `Range: bytes=${OBJECT_BYTES - RANGE_BYTES}-`];
    const ranges = (url: string) => get(Array.from({ length: RANGE_REQUESTS_PER_RUN }, () => ({ url, options: rangeOptions })), 206, RANGE_BYTES);
    // Both sides start with their range in the page cache (the whole GETs above read the service's
    // copy and the bare server's alike, but not in the same order): one untimed pass each.
    await ranges(urls.bare);
    await ranges(urls.service);
    const rangeRuns = await compareTransfers(
      RANGE_REQUESTS_PER_RUN * RANGE_BYTES,
      { pid: bare.pid, run: () => ranges(urls.bare) },
      { pid: service.pid, run: () => ranges(urls.service) },
      undefined,
      RANGE_RUNS,
    );
    return [
      throughputFigure(`GET ${formatBytes(OBJECT_BYTES)} via a signed download URL`, wholeRuns, BARE_GET, 0.9),
      throughputFigure(
        `GET last ${formatBytes(RANGE_BYTES)} of ${formatBytes(OBJECT_BYTES)} (Range) x${RANGE_REQUESTS_PER_RUN}, page cache warm, median of ${RANGE_RUNS}, via a signed download URL`,
        rangeRuns,
        BARE_GET,
        0.9,
      ),
    ];
  });
}

/**
 * Many customers downloading one file at once: the aggregate rate (all bytes over the wall time of
 * the burst) against the bare server, and how far the service's RSS grows meanwhile. Streams that
 * respect backpressure hold a few chunks per connection, never a whole file.
 */
export async function concurrentGets(service: Service, seeded: Seeded): Promise<Figure[]> {
  requireFreeDisk(3 * CONCURRENT_OBJECT_BYTES, 'the concurrent GET figures');
  return withBareFiles('bds-bench-concurrent-', async (dir, bare) => {
    const source = path.join(dir, 'source.bin');
    await publishFile(service, seeded, 'concurrent-1', source, await writeRandomFile(source, CONCURRENT_OBJECT_BYTES));
    const urls = { bare: `${bare.baseUrl}/source.bin`, service: await downloadUrl(service, seeded, 'concurrent-1') };
    const burst = async (url: string) =>
      checkTransfers(await curlParallel(Array.from({ length: CONCURRENT_GETS }, () => ({ url }))), 'concurrent GET', 200, CONCURRENT_OBJECT_BYTES);
    const wallSeconds = (run: CurlRun) => run.seconds;
    const runs = await compareTransfers(
      CONCURRENT_GETS * CONCURRENT_OBJECT_BYTES,
      { pid: bare.pid, run: () => burst(urls.bare), seconds: wallSeconds },
      { pid: service.pid, run: () => burst(urls.service), seconds: wallSeconds },
    );
    const name = `${CONCURRENT_GETS} concurrent GETs of ${formatBytes(CONCURRENT_OBJECT_BYTES)}`;
    return [
      throughputFigure(`${name}, aggregate`, runs, BARE_GET, 0.8),
      rssGrowthFigure(`${name}: RSS growth of the service`, runs, 100),
    ];
  });
}

async function get(requests: CurlRequest[], status: number, bytes: number): Promise<CurlRun> {
  return checkTransfers(await curlSequential(requests), 'GET', status, bytes);
}
