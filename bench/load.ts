import { alternate } from './alternate';
import { figure, type Figure } from './figures';
import { runJsonChild } from './children';
import type { LoadRun, LoadSpec } from './load-generator';
import { median } from './sample-stats';

export const WARM_UP_SECONDS = 1;
export const MEASURE_SECONDS = 5;

export type LoadTarget = Pick<LoadSpec, 'url' | 'headers' | 'expectStatus'>;

/** Medians over runs, each metric taken separately. */
export interface LoadSummary {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  runs: LoadRun[];
}

export function runLoad(target: LoadTarget, connections: number): Promise<LoadRun> {
  const spec: LoadSpec = { ...target, connections, warmUpSeconds: WARM_UP_SECONDS, seconds: MEASURE_SECONDS };
  return runJsonChild<LoadRun>('load-generator', [JSON.stringify(spec)], (WARM_UP_SECONDS + MEASURE_SECONDS) * 1000 + 30_000);
}

/** Baseline and subject runs alternate (alternate.ts); each metric is the median of its side's runs. */
export async function compareLoad(baseline: LoadTarget, subject: LoadTarget, connections: number): Promise<{ baseline: LoadSummary; subject: LoadSummary }> {
  const runs = await alternate(() => runLoad(baseline, connections), () => runLoad(subject, connections));
  return { baseline: summarise(runs.baseline), subject: summarise(runs.subject) };
}

/**
 * A comparison's two figures: the subject's request rate (with its ratio target, when it has one) and
 * its p99, each next to the baseline's, named `names.rate` and `names.p99`.
 */
export function rateAndP99Figures(
  names: { rate: string; p99: string },
  compared: { baseline: LoadSummary; subject: LoadSummary },
  baselineName: string,
  minimumRatio?: number,
): Figure[] {
  const { baseline, subject } = compared;
  return [
    figure({
      name: names.rate,
      value: subject.requestsPerSecond,
      unit: 'req/s',
      baseline: { name: baselineName, value: baseline.requestsPerSecond },
      target: minimumRatio === undefined ? undefined : { on: 'ratio', op: '>=', limit: minimumRatio },
      detail: { baselineRuns: baseline.runs, subjectRuns: subject.runs },
    }),
    figure({ name: names.p99, value: subject.p99Ms, unit: 'ms', baseline: { name: baselineName, value: baseline.p99Ms } }),
  ];
}

function summarise(runs: LoadRun[]): LoadSummary {
  return {
    requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    runs,
  };
}
