import type { Arch, Platform } from '../../releases/platforms';
import type { CheckEvent, UpdateClientFamily } from '../models';

/** A check's fields whose values repeat from check to check, in the order a window written now codes them. */
export const CODED_FIELDS = ['applicationId', 'customerId', 'client', 'platform', 'arch', 'channel', 'runningVersion', 'offeredVersion'] as const;
/** A check's fields unique to it, kept as text, in the order a window written now keeps them. */
export const TEXT_FIELDS = ['eventId', 'installHash', 'installId'] as const;
export type CodedField = typeof CODED_FIELDS[number];
export type TextField = typeof TEXT_FIELDS[number];

/**
 * The fields a window holds, by name: `coded` in the order of each check's codes, `texts` in the
 * order of each check's lengths. Every window carries its own, and every reader finds a field by
 * its name there: a field coded later is absent from the windows written before it (it reads as
 * null there), and those windows are still sliced by their own number of fields per check.
 */
export interface CheckLayout {
  coded: readonly string[];
  texts: readonly string[];
}

/** The layout of the windows written now. */
export const CHECK_LAYOUT: CheckLayout = { coded: CODED_FIELDS, texts: TEXT_FIELDS };

/** Distinct values, each numbered the first time it is seen: each is kept (or copied) once. */
class ValueCodes {
  readonly values: (string | null)[] = [];
  private readonly indices = new Map<string | null, number>();

  code(value: string | null): number {
    let index = this.indices.get(value);
    if (index === undefined) {
      index = this.values.push(value) - 1;
      this.indices.set(value, index);
    }
    return index;
  }
}

/**
 * Update checks as columns: how the SQLite store gathers a write window's checks, hands them to its
 * write thread and keeps them (check-windows.ts). Copying between threads costs per value copied,
 * and an array of 12 values per check copied each application, customer, feed and version again for
 * every check: here each distinct one is kept once, the values unique to a check as one string, and
 * the numbers as typed arrays.
 */
export interface CheckColumns {
  /** Which field each code and each length is (CHECK_LAYOUT for the windows written now). */
  layout: CheckLayout;
  /** The distinct values of the coded columns (null: no version offered). */
  values: (string | null)[];
  /** Per check, one index into `values` per coded field of the layout, in its order. */
  codes: Uint32Array;
  /** Each check's texts (the layout's: event id, install hash, install id), concatenated in that order. */
  text: string;
  /** Per check, the lengths of those texts in `text` (-1: none, read as null). */
  lengths: Int32Array;
  timestamps: Float64Array;
}

/** Where each field is in a window's codes and lengths (-1: the window has none), and how many of each a check has. */
export type FieldPositions = Record<CodedField | TextField, number> & { codesPerCheck: number; textsPerCheck: number };

/** The positions of a window's fields, found by name in its layout once per window. */
export function positionsOf(layout: CheckLayout): FieldPositions {
  const positions = { codesPerCheck: layout.coded.length, textsPerCheck: layout.texts.length } as FieldPositions;
  for (const field of CODED_FIELDS) positions[field] = layout.coded.indexOf(field);
  for (const field of TEXT_FIELDS) positions[field] = layout.texts.indexOf(field);
  return positions;
}

/** Checks a window has room for before its arrays first grow. */
const FIRST_ROOM = 256;
const CODES_PER_CHECK = CODED_FIELDS.length;
const TEXTS_PER_CHECK = TEXT_FIELDS.length;

type NumberColumn = Uint32Array | Int32Array | Float64Array;

/**
 * Gathers up to `capacity` checks straight into columns of CHECK_LAYOUT. A window's checks wait up
 * to CHECK_WRITE_GROUP_MAX_DELAY_MS for their write: under load young-generation collections run
 * meanwhile, and every object a waiting check kept alive (its event, its Date) was copied, then
 * promoted, then made again as columns for the write. Here a check leaves three strings (which the
 * hasher and the request already made) and numbers in typed arrays, which start small and double
 * as the window fills (a quiet window of a few checks allocates no room for thousands).
 */
export class CheckColumnsBuilder {
  private readonly values = new ValueCodes();
  /** Arrays with room for `room` checks, allocated by the first push and grown by later ones. */
  private codes = new Uint32Array(0);
  private lengths = new Int32Array(0);
  private timestamps = new Float64Array(0);
  private room = 0;
  private readonly text: string[] = [];
  private count = 0;
  /** Each coded field's value in the last check pushed (undefined: none yet), and its code. */
  private readonly lastValues: (string | null | undefined)[] = new Array<undefined>(CODES_PER_CHECK).fill(undefined);
  private readonly lastCodes = new Uint32Array(CODES_PER_CHECK);

  constructor(private readonly capacity: number) {}

  get length(): number {
    return this.count;
  }

  /** Codes in CODED_FIELDS' order, texts in TEXT_FIELDS' order. */
  push(check: CheckEvent): void {
    if (this.count === this.room) this.grow();
    const i = this.count;
    const at = i * CODES_PER_CHECK;
    const { codes } = this;
    codes[at] = this.code(0, check.applicationId);
    codes[at + 1] = this.code(1, check.customerId);
    codes[at + 2] = this.code(2, check.client);
    codes[at + 3] = this.code(3, check.platform);
    codes[at + 4] = this.code(4, check.arch);
    codes[at + 5] = this.code(5, check.channel);
    codes[at + 6] = this.code(6, check.runningVersion);
    codes[at + 7] = this.code(7, check.offeredVersion);
    this.lengths[i * TEXTS_PER_CHECK] = check.eventId.length;
    this.lengths[i * TEXTS_PER_CHECK + 1] = check.installHash.length;
    this.lengths[i * TEXTS_PER_CHECK + 2] = check.installId === null ? -1 : check.installId.length;
    this.text.push(check.eventId, check.installHash, check.installId ?? '');
    this.timestamps[i] = check.timestamp.getTime();
    this.count += 1;
  }

  /**
   * A field's code, the previous check's when its value is the same: checks of one window mostly
   * repeat them, and comparing two strings costs less than hashing one for the map.
   */
  private code(field: number, value: string | null): number {
    if (value === this.lastValues[field]) return this.lastCodes[field];
    const code = this.values.code(value);
    this.lastValues[field] = value;
    this.lastCodes[field] = code;
    return code;
  }

  private grow(): void {
    if (this.room === this.capacity) throw new RangeError(`a check window holds at most ${this.capacity} checks`);
    this.room = Math.min(this.capacity, Math.max(FIRST_ROOM, this.room * 2));
    const grown = <A extends NumberColumn>(array: A, perCheck: number): A => {
      const larger = new (array.constructor as new (length: number) => A)(this.room * perCheck);
      larger.set(array);
      return larger;
    };
    this.codes = grown(this.codes, CODES_PER_CHECK);
    this.lengths = grown(this.lengths, TEXTS_PER_CHECK);
    this.timestamps = grown(this.timestamps, 1);
  }

  /** The checks pushed. Arrays cut to them: a view would carry its whole buffer to the write thread. */
  columns(): CheckColumns {
    const full = this.count === this.room;
    const cut = <A extends NumberColumn>(array: A, perCheck: number): A => (full ? array : array.slice(0, this.count * perCheck) as A);
    return {
      layout: CHECK_LAYOUT,
      values: this.values.values,
      codes: cut(this.codes, CODES_PER_CHECK),
      text: this.text.join(''),
      lengths: cut(this.lengths, TEXTS_PER_CHECK),
      timestamps: cut(this.timestamps, 1),
    };
  }
}

export function checkColumns(events: readonly CheckEvent[]): CheckColumns {
  const builder = new CheckColumnsBuilder(events.length);
  for (const event of events) builder.push(event);
  return builder.columns();
}

export function checksIn(columns: CheckColumns): number {
  return columns.timestamps.length;
}

/** Where the `index`-th check's texts start in `text`. */
export function textOffsetOf(columns: CheckColumns, index: number): number {
  let offset = 0;
  const end = index * columns.layout.texts.length;
  for (let i = 0; i < end; i += 1) offset += Math.max(0, columns.lengths[i]);
  return offset;
}

/** The checks of a window from the `from`-th on, in the window's own layout (a purge removes a window's oldest checks). */
export function columnsFrom(columns: CheckColumns, from: number): CheckColumns {
  const { codesPerCheck, textsPerCheck } = positionsOf(columns.layout);
  return {
    layout: columns.layout,
    values: columns.values,
    codes: columns.codes.slice(codesPerCheck * from),
    text: columns.text.slice(textOffsetOf(columns, from)),
    lengths: columns.lengths.slice(textsPerCheck * from),
    timestamps: columns.timestamps.slice(from),
  };
}

/** The columns' checks as events; a field the window does not hold is null. */
export function checkEventsOf(columns: CheckColumns): CheckEvent[] {
  const { values, codes, text, lengths, timestamps } = columns;
  const p = positionsOf(columns.layout);
  let offset = 0;
  return Array.from(timestamps, (ms, i): CheckEvent => {
    const at = i * p.codesPerCheck;
    const value = (position: number): string | null => (position < 0 ? null : values[codes[at + position]]);
    const texts: (string | null)[] = [];
    for (let t = i * p.textsPerCheck; t < (i + 1) * p.textsPerCheck; t += 1) {
      texts.push(lengths[t] < 0 ? null : text.slice(offset, (offset += lengths[t])));
    }
    const textOf = (position: number): string | null => (position < 0 ? null : texts[position]);
    return {
      eventId: textOf(p.eventId) as string,
      applicationId: value(p.applicationId) as string,
      customerId: value(p.customerId) as string,
      client: value(p.client) as UpdateClientFamily,
      platform: value(p.platform) as Platform,
      arch: value(p.arch) as Arch,
      channel: value(p.channel) as string,
      runningVersion: value(p.runningVersion) as string,
      offeredVersion: value(p.offeredVersion),
      installId: textOf(p.installId),
      installHash: textOf(p.installHash) as string,
      timestamp: new Date(ms),
    };
  });
}

/**
 * Calls `each` with the install hash, time and first code's index (in `codes`) of every check from
 * the `from`-th to before the `to`-th: what the rollup groups by, without making the other strings.
 */
export function forEachCheckHash(
  columns: CheckColumns, each: (installHash: string, timestampMs: number, codeAt: number) => void, from = 0, to = checksIn(columns),
): void {
  const { text, lengths, timestamps } = columns;
  const { codesPerCheck, textsPerCheck, installHash } = positionsOf(columns.layout);
  let offset = textOffsetOf(columns, from);
  for (let i = from; i < to; i += 1) {
    const first = i * textsPerCheck;
    let hashAt = offset;
    for (let t = 0; t < installHash; t += 1) hashAt += Math.max(0, lengths[first + t]);
    for (let t = 0; t < textsPerCheck; t += 1) offset += Math.max(0, lengths[first + t]);
    each(text.slice(hashAt, hashAt + lengths[first + installHash]), timestamps[i], i * codesPerCheck);
  }
}
