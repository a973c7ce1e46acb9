/** Order statistics of a sample (nearest-rank percentiles, so every reported value was observed). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of an empty sample');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const median = (values: readonly number[]): number => percentile(values, 50);

export const MIB = 1024 * 1024;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
