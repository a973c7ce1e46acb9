import { benchEntry, NodeChild, runJsonChild } from './children';
import type { LoadRun, LoadSpec } from './load-generator';
import { median } from './sample-stats';

export const WARM_UP_SECONDS = 1;
export const MEASURE_SECONDS = 5;
export const RUNS = 3;

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

/** Baseline and subject runs alternate, so a slow spell of the machine hits both alike. */
export async function compareLoad(baseline: LoadTarget, subject: LoadTarget, connections: number): Promise<{ baseline: LoadSummary; subject: LoadSummary }> {
  const baselineRuns: LoadRun[] = [];
  const subjectRuns: LoadRun[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    baselineRuns.push(await runLoad(baseline, connections));
    subjectRuns.push(await runLoad(subject, connections));
  }
  return { baseline: summarise(baselineRuns), subject: summarise(subjectRuns) };
}

function summarise(runs: LoadRun[]): LoadSummary {
  return {
    requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    runs,
  };
}

/** The bare Koa server in its own process, for as long as one comparison needs it. */
export async function startBareKoa(): Promise<{ target: LoadTarget; stop(): Promise<void> }> {
  const child = new NodeChild(benchEntry('bare-koa'), [], process.env);
  const [, port] = await child.waitFor(/listening (\d+)/, 15_000);
  return { target: { url: `http://127.0.0.1:${port}/v1/ping`, expectStatus: 200 }, stop: child.stop };
}
