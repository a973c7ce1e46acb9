import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import { alternate } from './alternate';
import type { CurlRun } from './curl';
import { figure, Figure } from './figures';
import { measureProcess } from './rss';
import { median, MIB } from './sample-stats';

/** One side's run of a bytes-path figure: curl's seconds, and what the server process used meanwhile. */
export interface TransferRun {
  seconds: number;
  mibPerSecond: number;
  /** The server's CPU seconds per GiB moved: steadier than the wall time on a shared machine. */
  cpuSecondsPerGiB: number;
  rssGrowthMiB: number;
}

/** The side of a comparison: the server process, and one run of curl against it moving `bytes`. */
export interface TransferSide {
  pid: number;
  run: (run: number) => Promise<CurlRun>;
  /** The run's seconds: by default the sum of its transfers' (curl's own timing, without process start-up). */
  seconds?: (run: CurlRun) => number;
}

/**
 * The same bytes through the baseline server and through the service, runs alternating (alternate.ts).
 * `beforeEachRun` runs untimed before every run of either side (e.g. settleDisk); `runs` pairs are
 * measured (alternate.ts's default unless given).
 */
export function compareTransfers(
  bytes: number,
  baseline: TransferSide,
  subject: TransferSide,
  beforeEachRun: () => Promise<void> = async () => {},
  runs?: number,
): Promise<{ baseline: TransferRun[]; subject: TransferRun[] }> {
  const measure = (side: TransferSide) => async (run: number) => {
    await beforeEachRun();
    return measureTransfer(bytes, side, run);
  };
  return alternate(measure(baseline), measure(subject), runs);
}

/**
 * Writes the dirty pages of the temporary directory's file system to disk. Uploads land in the page
 * cache faster than this disk takes them; without this, each upload run would start behind the
 * writeback of the runs before it, and the kernel would throttle whichever side came later.
 */
export async function settleDisk(): Promise<void> {
  await promisify(execFile)('sync', ['--file-system', os.tmpdir()]);
}

async function measureTransfer(bytes: number, side: TransferSide, run: number): Promise<TransferRun> {
  const measured = await measureProcess(side.pid, () => side.run(run));
  const seconds = side.seconds ? side.seconds(measured.result) : measured.result.transfers.reduce((sum, t) => sum + t.seconds, 0);
  return {
    seconds,
    mibPerSecond: bytes / MIB / seconds,
    cpuSecondsPerGiB: measured.cpuSeconds / (bytes / 1024 / MIB),
    rssGrowthMiB: measured.rssGrowthMiB,
  };
}

/** Throughput: the service's median next to the baseline's, with the target on their ratio. */
export function throughputFigure(name: string, runs: { baseline: TransferRun[]; subject: TransferRun[] }, baselineName: string, minRatio?: number): Figure {
  return figure({
    name,
    value: median(runs.subject.map((r) => r.mibPerSecond)),
    unit: 'MiB/s',
    baseline: { name: baselineName, value: median(runs.baseline.map((r) => r.mibPerSecond)) },
    target: minRatio === undefined ? undefined : { on: 'ratio', op: '>=', limit: minRatio },
    detail: {
      cpuSecondsPerGiB: { service: median(runs.subject.map((r) => r.cpuSecondsPerGiB)), baseline: median(runs.baseline.map((r) => r.cpuSecondsPerGiB)) },
      subjectRuns: runs.subject,
      baselineRuns: runs.baseline,
    },
  });
}

/** Memory: the largest RSS growth of the service over its runs, next to the baseline server's. */
export function rssGrowthFigure(name: string, runs: { baseline: TransferRun[]; subject: TransferRun[] }, maxMiB?: number): Figure {
  return figure({
    name,
    value: Math.max(...runs.subject.map((r) => r.rssGrowthMiB)),
    unit: 'MiB',
    baseline: { name: 'bare server', value: Math.max(...runs.baseline.map((r) => r.rssGrowthMiB)) },
    target: maxMiB === undefined ? undefined : { on: 'value', op: '<', limit: maxMiB },
    detail: { serviceRuns: runs.subject.map((r) => r.rssGrowthMiB), baselineRuns: runs.baseline.map((r) => r.rssGrowthMiB), sampledEveryMs: 50 },
  });
}
