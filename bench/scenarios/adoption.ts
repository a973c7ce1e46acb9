import { runJsonChild } from '../children';
import { makeTempDir } from '../cleanup';
import { figure, Figure } from '../figures';

interface AdoptionRun {
  appended: number;
  appendMs: number;
  folded: number;
  foldMs: number;
  smallP50Ms: number;
  largeP50Ms: number;
  largeCounters: number;
  smallAllSelectionRows: number;
  funnelFolded: number;
  funnelMs: number;
  offers: number;
  healthP50Ms: number;
  downloaded: number;
  reports: number;
  reportsMs: number;
  failureReports: number;
}

/**
 * The adoption rollup's throughput (check events folded per second, HyperLogLogs included, next to
 * appending the same events), and the adoption answer at 10M check events against 10k (target: at
 * most twice as slow): it reads daily counters, never events (bench/adoption-store.ts).
 */
export async function adoptionFigures(redisUrl: string): Promise<Figure[]> {
  const dir = makeTempDir('bds-bench-adoption-');
  try {
    const run = await runJsonChild<AdoptionRun>('adoption-store', [dir.path, redisUrl, `bench-adoption-${process.pid}`], 600_000);
    if (run.folded !== run.appended) throw new Error(`the adoption rollup folded ${run.folded} of ${run.appended} checks`);
    if (run.funnelFolded !== run.appended || run.offers === 0) throw new Error(`the update funnel folded ${run.funnelFolded} of ${run.appended} checks into ${run.offers} offers`);
    if (run.downloaded === 0 || run.failureReports !== run.reports / 2) throw new Error(`the health linked ${run.downloaded} downloads and counted ${run.failureReports} failure reports`);
    return [
      figure({
        name: `adoption rollup: ${run.appended.toLocaleString('en-US')} checks folded (SQLite, Redis HLL)`,
        value: run.appended / (run.foldMs / 1000),
        unit: 'events/s',
        baseline: { name: 'appending the same checks', value: run.appended / (run.appendMs / 1000) },
        detail: run,
      }),
      figure({
        // Side by side with the adoption rollup of the same checks: the funnel must cost no more (ratio of rates >= 1).
        name: `update funnel: the same ${run.appended.toLocaleString('en-US')} checks folded into install offers and arrivals (SQLite)`,
        value: run.appended / (run.funnelMs / 1000),
        unit: 'events/s',
        baseline: { name: 'the adoption rollup of them', value: run.appended / (run.foldMs / 1000) },
        target: { on: 'ratio', op: '>=', limit: 1 },
        detail: run,
      }),
      figure({
        name: `release health from its offers, p50 (${run.offers.toLocaleString('en-US')} installs offered, ${run.downloaded.toLocaleString('en-US')} linked to downloads)`,
        value: run.healthP50Ms,
        unit: 'ms',
        detail: run,
      }),
      figure({
        // Side by side with the check appends: a report is one write, as the route makes it (reports are rare next to checks).
        name: `update reports: ${run.reports.toLocaleString('en-US')} recorded one write each (SQLite)`,
        value: run.reports / (run.reportsMs / 1000),
        unit: 'reports/s',
        baseline: { name: 'appending checks, per check', value: run.appended / (run.appendMs / 1000) },
        detail: run,
      }),
      figure({
        name: 'adoption answer, 30 days, p50 @10M vs @10k check events',
        value: run.largeP50Ms,
        unit: 'ms',
        baseline: { name: '@10k check events', value: run.smallP50Ms },
        target: { on: 'ratio', op: '<=', limit: 2 },
        detail: run,
      }),
    ];
  } finally {
    await dir.remove();
  }
}
