import { CHECK_CODE, CHECK_CODED_FIELDS } from '../check-codes';
import { CheckColumns, textOffsetOf } from '../check-columns';
import type { CheckRow } from './event-writes';

/**
 * Calls `each` with the row of every check from the `from`-th to before the `to`-th (all by
 * default); the row array is reused from one call to the next.
 */
export function forEachCheckRow(columns: CheckColumns, each: (row: CheckRow) => void, from = 0, to = columns.timestamps.length): void {
  const { values, codes, text, lengths, timestamps } = columns;
  const row = new Array(12) as CheckRow;
  let offset = textOffsetOf(columns, from);
  const next = (length: number): string => text.slice(offset, (offset += length));
  for (let i = from; i < to; i += 1) {
    const at = i * CHECK_CODED_FIELDS;
    row[0] = next(lengths[i * 3]);
    row[1] = values[codes[at + CHECK_CODE.application]] as string;
    row[2] = values[codes[at + CHECK_CODE.customer]] as string;
    row[3] = values[codes[at + CHECK_CODE.client]] as string;
    row[4] = values[codes[at + CHECK_CODE.platform]] as string;
    row[5] = values[codes[at + CHECK_CODE.arch]] as string;
    row[6] = values[codes[at + CHECK_CODE.channel]] as string;
    row[7] = values[codes[at + CHECK_CODE.runningVersion]] as string;
    row[8] = values[codes[at + CHECK_CODE.offeredVersion]];
    row[10] = next(lengths[i * 3 + 1]);
    const installIdLength = lengths[i * 3 + 2];
    row[9] = installIdLength < 0 ? null : next(installIdLength);
    row[11] = timestamps[i];
    each(row);
  }
}

/**
 * Calls `each` with the install hash, time and first code's index (in `codes`) of every check from
 * the `from`-th to before the `to`-th: what the rollup groups by, without making the other strings.
 */
export function forEachCheckHash(
  columns: CheckColumns, each: (installHash: string, timestampMs: number, codeAt: number) => void, from = 0, to = columns.timestamps.length,
): void {
  const { text, lengths, timestamps } = columns;
  let offset = textOffsetOf(columns, from);
  for (let i = from; i < to; i += 1) {
    const hashAt = offset + lengths[i * 3];
    offset = hashAt + lengths[i * 3 + 1] + Math.max(0, lengths[i * 3 + 2]);
    each(text.slice(hashAt, hashAt + lengths[i * 3 + 1]), timestamps[i], i * CHECK_CODED_FIELDS);
  }
}
