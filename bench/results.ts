import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Figure } from './figures';

/** bench/results.json in the source tree (this file runs from dist/bench). */
export const RESULTS_PATH = path.resolve(__dirname, '..', '..', 'bench', 'results.json');

/** Where a partial run (BENCH_ONLY) writes its figures, leaving bench/results.json as it was. */
export const PARTIAL_RESULTS_PATH = path.join(os.tmpdir(), 'bds-bench-partial-results.json');

/** Writes the figures with what is needed to compare runs: the machine, Node and the date. */
export function writeResults(figures: readonly Figure[], notes: readonly string[], loadAverageAtStart: number[], file = RESULTS_PATH): string {
  const cpus = os.cpus();
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    machine: {
      platform: `${os.type()} ${os.release()} ${os.arch()}`,
      cpuModel: cpus[0]?.model ?? 'unknown',
      cpuCount: cpus.length,
      totalMemoryMiB: Math.round(os.totalmem() / 1024 ** 2),
      // Other work on the machine skews every figure; these show how busy it was.
      loadAverageAtStart,
      loadAverageAtEnd: os.loadavg(),
    },
    notes,
    figures,
  };
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}
