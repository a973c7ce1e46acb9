/** Sizes as people read them, in binary units, the same in the CLI's output and the web pages. */
const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** `512 B`, `1.5 MiB`, `300 MiB`: one decimal below 10 of a unit, whole numbers above. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}
