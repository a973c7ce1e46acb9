import { CHECK_CODE, CHECK_CODED_FIELDS, ValueCodes, writeCheckCodes } from '../check-codes';
import type { CheckEvent } from '../models';
import type { CheckRow } from './event-writes';

/**
 * A window's checks as they cross to the write thread. Copying between threads costs per value
 * copied, and an array of 12 values per check copied each application, customer, feed and version
 * again for every check: here each distinct one is copied once, the values unique to a check (event
 * id, install hash, install id) travel as one string, and the numbers as typed arrays.
 */
export interface CheckColumns {
  /** The distinct values of the coded columns (null: no version offered). */
  values: (string | null)[];
  /** Per check, CHECK_CODED_FIELDS indices into `values`: application, customer, client, platform, arch, channel, running version, offered version. */
  codes: Uint32Array;
  /** Each check's event id, install hash and install id, concatenated in that order. */
  text: string;
  /** Per check, the lengths of those three in `text` (-1: no install id). */
  lengths: Int32Array;
  timestamps: Float64Array;
}

export function checkColumns(events: readonly CheckEvent[]): CheckColumns {
  const values = new ValueCodes();
  const codes = new Uint32Array(events.length * CHECK_CODED_FIELDS);
  const lengths = new Int32Array(events.length * 3);
  const timestamps = new Float64Array(events.length);
  const text: string[] = [];
  events.forEach((e, i) => {
    writeCheckCodes(codes, i * CHECK_CODED_FIELDS, e, values);
    lengths[i * 3] = e.eventId.length;
    lengths[i * 3 + 1] = e.installHash.length;
    lengths[i * 3 + 2] = e.installId === null ? -1 : e.installId.length;
    text.push(e.eventId, e.installHash, e.installId ?? '');
    timestamps[i] = e.timestamp.getTime();
  });
  return { values: values.values, codes, text: text.join(''), lengths, timestamps };
}

/** Where the `index`-th check's strings start in `text`. */
export function textOffsetOf(columns: CheckColumns, index: number): number {
  let offset = 0;
  for (let i = 0; i < index * 3; i += 1) offset += Math.max(0, columns.lengths[i]);
  return offset;
}

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
