import type { Figure } from './figures';

const COLUMNS = ['figure', 'value', 'baseline', 'ratio', 'target', 'result'] as const;

/** The summary table: one row per figure, the baseline named underneath when there is one. */
export function formatTable(figures: readonly Figure[]): string {
  const rows = figures.map((f) => [
    f.name,
    `${formatNumber(f.value)} ${f.unit}`,
    f.baseline === null ? '-' : `${formatNumber(f.baseline)} (${f.baselineName})`,
    f.ratio === null ? '-' : f.ratio.toFixed(2),
    f.target ?? '-',
    f.pass === null ? '-' : f.pass ? 'PASS' : 'FAIL',
  ]);
  const widths = COLUMNS.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: readonly string[]) => cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ');
  return [line(COLUMNS), widths.map((w) => '-'.repeat(w)).join('-+-'), ...rows.map(line)].join('\n');
}

function formatNumber(value: number): string {
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}
