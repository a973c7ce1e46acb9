/** Runs per side of every comparison; each figure is the median of its side's runs. */
export const RUNS = 3;

/**
 * Baseline and subject runs alternate, baseline first, so a slow spell of the machine hits both
 * alike. `run` is the index of the pair (0 to runs - 1); a figure whose single runs swing more than
 * most takes more pairs.
 */
export async function alternate<T>(
  baseline: (run: number) => Promise<T>,
  subject: (run: number) => Promise<T>,
  runs = RUNS,
): Promise<{ baseline: T[]; subject: T[] }> {
  const result = { baseline: [] as T[], subject: [] as T[] };
  for (let run = 0; run < runs; run += 1) {
    result.baseline.push(await baseline(run));
    result.subject.push(await subject(run));
  }
  return result;
}
