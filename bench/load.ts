import { alternate, RUNS } from './alternate';
import { figure, type Figure } from './figures';
import { runJsonChild } from './children';
import type { LoadRun, LoadSpec } from './load-generator';
import { readCpuSeconds } from './rss';
import { median } from './sample-stats';

export const WARM_UP_SECONDS = 1;
export const MEASURE_SECONDS = 5;

/** What a load is sent to; `pid`, the server's process, to read the CPU time it spends per request. */
export type LoadTarget = Pick<LoadSpec, 'url' | 'headers' | 'expectStatus'> & { pid?: number };

/** One run: the load generator's figures and the server's CPU time per request answered over it. */
export interface MeasuredLoadRun extends LoadRun {
  /** Microseconds of the server process's CPU time (all threads) per request, warm-up included; null without a pid. */
  cpuMicrosPerRequest: number | null;
}

/** Medians over runs, each metric taken separately. */
export interface LoadSummary {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuMicrosPerRequest: number | null;
  runs: MeasuredLoadRun[];
}

/**
 * One load run against `target`. The server's CPU time is read from /proc before and after the
 * whole run (warm-up included) and divided by every request answered in it: on two shared cores,
 * where the load generator's share of the CPU moves the request rate, what the server spends per
 * request is the steadier figure.
 */
export async function runLoad(target: LoadTarget, connections: number): Promise<MeasuredLoadRun> {
  const [run] = await runLoads([target], connections);
  return run;
}

/** Loads every target at once, each with `connections` of its own, from one load generator. */
async function runLoads(targets: LoadTarget[], connections: number): Promise<MeasuredLoadRun[]> {
  const specs = targets.map(({ pid: _pid, ...load }): LoadSpec => ({ ...load, connections, warmUpSeconds: WARM_UP_SECONDS, seconds: MEASURE_SECONDS }));
  const cpuBefore = targets.map(({ pid }) => (pid === undefined ? 0 : readCpuSeconds(pid)));
  const runs = await runJsonChild<LoadRun[]>('load-generator', [JSON.stringify(specs)], (WARM_UP_SECONDS + MEASURE_SECONDS) * 1000 + 30_000);
  return runs.map((run, i) => {
    const { pid } = targets[i];
    const cpuMicrosPerRequest = pid === undefined || run.answeredWithWarmUp === 0
      ? null
      : ((readCpuSeconds(pid) - cpuBefore[i]) * 1e6) / run.answeredWithWarmUp;
    return { ...run, cpuMicrosPerRequest };
  });
}

/**
 * Baseline and subject runs alternate (alternate.ts); each metric is the median of its side's runs.
 * Each side first runs once unmeasured: a server's first seconds under a load it has not had run
 * colder (code not yet optimised, a young generation not yet grown to the load's allocation), and a
 * server answers its load for hours, not seconds.
 */
export async function compareLoad(
  baseline: LoadTarget, subject: LoadTarget, connections: number, pairs = RUNS,
): Promise<{ baseline: LoadSummary; subject: LoadSummary }> {
  await runLoad(baseline, connections);
  await runLoad(subject, connections);
  const runs = await alternate(() => runLoad(baseline, connections), () => runLoad(subject, connections), pairs);
  return { baseline: summarise(runs.baseline), subject: summarise(runs.subject) };
}

/**
 * Baseline and subject loaded side by side, at the same time from one load generator, `runs` times
 * after one unmeasured run (as compareLoad); which is started first alternates. On a shared machine
 * whose slow spells last seconds (a hypervisor's steal time, other tenants), alternating runs of a
 * few seconds each meet different spells; side by side both meet the same, so a cost of a few
 * percent is not lost in the swing. Each gets its own connections, and the two share the cores.
 */
export async function compareSideBySide(
  baseline: LoadTarget, subject: LoadTarget, connections: number, runs = RUNS,
): Promise<{ baseline: LoadSummary; subject: LoadSummary }> {
  await runLoads([baseline, subject], connections);
  const measured = { baseline: [] as MeasuredLoadRun[], subject: [] as MeasuredLoadRun[] };
  for (let run = 0; run < runs; run += 1) {
    const subjectFirst = run % 2 === 1;
    const [first, second] = await runLoads(subjectFirst ? [subject, baseline] : [baseline, subject], connections);
    measured.baseline.push(subjectFirst ? second : first);
    measured.subject.push(subjectFirst ? first : second);
  }
  return { baseline: summarise(measured.baseline), subject: summarise(measured.subject) };
}

/** What a comparison's figures are held to; each is reported, never asserted. */
export interface LoadTargets {
  /** Lowest request rate, as a ratio of the baseline's. */
  minRateRatio?: number;
  /** Highest p99, as a ratio of the baseline's. */
  maxP99Ratio?: number;
  /** Highest CPU time per request, as a ratio of the baseline's. */
  maxCpuRatio?: number;
}

/**
 * What every hot route (a request a client sends per launch or per download) is held to against bare
 * Koa at 50 connections, besides its request-rate target: its p99 and the CPU time it costs the service.
 */
export const HOT_ROUTE_TARGETS: LoadTargets = { maxP99Ratio: 2, maxCpuRatio: 1.6 };

/**
 * A comparison's figures: the subject's request rate, its p99 and, where both sides' processes were
 * measured, its CPU time per request, each next to the baseline's and with its target, when it has
 * one. `names.rate` and `names.p99` name the first two; the third is named after the rate's figure.
 */
export function rateAndP99Figures(
  names: { rate: string; p99: string },
  compared: { baseline: LoadSummary; subject: LoadSummary },
  baselineName: string,
  targets: LoadTargets = {},
): Figure[] {
  const { baseline, subject } = compared;
  const figures = [
    figure({
      name: names.rate,
      value: subject.requestsPerSecond,
      unit: 'req/s',
      baseline: { name: baselineName, value: baseline.requestsPerSecond },
      target: targets.minRateRatio === undefined ? undefined : { on: 'ratio', op: '>=', limit: targets.minRateRatio },
      detail: { baselineRuns: baseline.runs, subjectRuns: subject.runs },
    }),
    figure({
      name: names.p99,
      value: subject.p99Ms,
      unit: 'ms',
      baseline: { name: baselineName, value: baseline.p99Ms },
      target: targets.maxP99Ratio === undefined ? undefined : { on: 'ratio', op: '<=', limit: targets.maxP99Ratio },
    }),
  ];
  if (subject.cpuMicrosPerRequest !== null && baseline.cpuMicrosPerRequest !== null) {
    figures.push(figure({
      name: names.rate.replace(/ req\/s$/, ' CPU per request'),
      value: subject.cpuMicrosPerRequest,
      unit: 'µs',
      baseline: { name: baselineName, value: baseline.cpuMicrosPerRequest },
      target: targets.maxCpuRatio === undefined ? undefined : { on: 'ratio', op: '<=', limit: targets.maxCpuRatio },
    }));
  }
  return figures;
}

function summarise(runs: MeasuredLoadRun[]): LoadSummary {
  const cpu = runs.map((r) => r.cpuMicrosPerRequest);
  return {
    requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    cpuMicrosPerRequest: cpu.every((value): value is number => value !== null) ? median(cpu) : null,
    runs,
  };
}
