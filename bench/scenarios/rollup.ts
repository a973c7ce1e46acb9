import { runJsonChild } from '../children';
import { makeTempDir } from '../cleanup';
import { figure, Figure } from '../figures';

const EVENTS = 100_000;

interface RollupRun {
  count: number;
  insertMs: number;
  folded: number;
  foldMs: number;
  read: number;
  readMs: number;
}

/** Events folded per second by the SQLite store, next to reading the same rows back (context, no target). */
export async function rollupSpeed(): Promise<Figure[]> {
  const dir = makeTempDir('bds-bench-rollup-');
  try {
    const run = await runJsonChild<RollupRun>('rollup-store', [dir.path, String(EVENTS)], 300_000);
    if (run.folded !== EVENTS || run.read !== EVENTS) {
      throw new Error(`rollup folded ${run.folded} and read ${run.read} of ${EVENTS} events`);
    }
    return [
      figure({
        name: `rollup: ${EVENTS.toLocaleString('en-US')} events folded (SQLite)`,
        value: EVENTS / (run.foldMs / 1000),
        unit: 'events/s',
        baseline: { name: 'read back, pages of 1000', value: EVENTS / (run.readMs / 1000) },
        detail: run,
      }),
    ];
  } finally {
    await dir.remove();
  }
}
