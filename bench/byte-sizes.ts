import { MIB } from './sample-stats';

/**
 * BENCH_BYTES_DIVISOR=n divides every file size of the bytes-path figures by n, for a quick run
 * while working on them; unset, the figures move the full sizes their targets are set for.
 */
const DIVISOR = parseDivisor(process.env.BENCH_BYTES_DIVISOR);

/** `bytes` divided by BENCH_BYTES_DIVISOR, in whole KiB. */
export function scaled(bytes: number): number {
  return Math.max(1024, Math.floor(bytes / DIVISOR / 1024) * 1024);
}

export const BYTES_DIVISOR_NOTE = DIVISOR === 1 ? undefined : `BENCH_BYTES_DIVISOR=${DIVISOR}: the bytes-path figures moved 1/${DIVISOR} of their sizes`;

/** "1 GiB", "100 MiB", "640 KiB": the size as figure names state it. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [['GiB', 1024 * MIB], ['MiB', MIB], ['KiB', 1024]] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} B`;
}

function parseDivisor(value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  const divisor = Number(value);
  if (!Number.isInteger(divisor) || divisor < 1) throw new Error(`BENCH_BYTES_DIVISOR must be a whole number of at least 1, not ${value}`);
  return divisor;
}
