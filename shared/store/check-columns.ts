import type { Arch, Platform } from '../releases/platforms';
import type { CheckEvent, UpdateClientFamily } from './models';

/** An update check's fields whose values repeat from check to check, in the order they are coded. */
export const CHECK_CODE = { application: 0, customer: 1, client: 2, platform: 3, arch: 4, channel: 5, runningVersion: 6, offeredVersion: 7 } as const;
/** How many codes a check has. */
export const CHECK_CODED_FIELDS = 8;

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
 * Update checks as columns: how a gateway gathers a write window's checks and hands them to the
 * store. Copying between threads costs per value copied, and an array of 12 values per check copied
 * each application, customer, feed and version again for every check: here each distinct one is
 * kept once, the values unique to a check (event id, install hash, install id) as one string, and
 * the numbers as typed arrays.
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

/** Checks a window has room for before its arrays first grow. */
const FIRST_ROOM = 256;

type NumberColumn = Uint32Array | Int32Array | Float64Array;

/**
 * Gathers up to `capacity` checks straight into columns. A window's checks wait up to
 * CHECK_WRITE_GROUP_MAX_DELAY_MS for their write: under load young-generation collections run
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
  private readonly lastValues: (string | null | undefined)[] = new Array<undefined>(CHECK_CODED_FIELDS).fill(undefined);
  private readonly lastCodes = new Uint32Array(CHECK_CODED_FIELDS);

  constructor(private readonly capacity: number) {}

  get length(): number {
    return this.count;
  }

  push(check: CheckEvent): void {
    if (this.count === this.room) this.grow();
    const i = this.count;
    const at = i * CHECK_CODED_FIELDS;
    const { codes } = this;
    codes[at + CHECK_CODE.application] = this.code(CHECK_CODE.application, check.applicationId);
    codes[at + CHECK_CODE.customer] = this.code(CHECK_CODE.customer, check.customerId);
    codes[at + CHECK_CODE.client] = this.code(CHECK_CODE.client, check.client);
    codes[at + CHECK_CODE.platform] = this.code(CHECK_CODE.platform, check.platform);
    codes[at + CHECK_CODE.arch] = this.code(CHECK_CODE.arch, check.arch);
    codes[at + CHECK_CODE.channel] = this.code(CHECK_CODE.channel, check.channel);
    codes[at + CHECK_CODE.runningVersion] = this.code(CHECK_CODE.runningVersion, check.runningVersion);
    codes[at + CHECK_CODE.offeredVersion] = this.code(CHECK_CODE.offeredVersion, check.offeredVersion);
    this.lengths[i * 3] = check.eventId.length;
    this.lengths[i * 3 + 1] = check.installHash.length;
    this.lengths[i * 3 + 2] = check.installId === null ? -1 : check.installId.length;
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
    this.codes = grown(this.codes, CHECK_CODED_FIELDS);
    this.lengths = grown(this.lengths, 3);
    this.timestamps = grown(this.timestamps, 1);
  }

  /** The checks pushed. Arrays cut to them: a view would carry its whole buffer to the write thread. */
  columns(): CheckColumns {
    const full = this.count === this.room;
    const cut = <A extends NumberColumn>(array: A, perCheck: number): A => (full ? array : array.slice(0, this.count * perCheck) as A);
    return {
      values: this.values.values,
      codes: cut(this.codes, CHECK_CODED_FIELDS),
      text: this.text.join(''),
      lengths: cut(this.lengths, 3),
      timestamps: cut(this.timestamps, 1),
    };
  }
}

export function checkColumns(events: readonly CheckEvent[]): CheckColumns {
  const builder = new CheckColumnsBuilder(events.length);
  for (const event of events) builder.push(event);
  return builder.columns();
}

/** Where the `index`-th check's strings start in `text`. */
export function textOffsetOf(columns: CheckColumns, index: number): number {
  let offset = 0;
  for (let i = 0; i < index * 3; i += 1) offset += Math.max(0, columns.lengths[i]);
  return offset;
}

/** The columns' checks as events (for a store that keeps a document per check). */
export function checkEventsOf(columns: CheckColumns): CheckEvent[] {
  const { values, codes, text, lengths, timestamps } = columns;
  const value = (at: number): string => values[codes[at]] as string;
  let offset = 0;
  const next = (length: number): string => text.slice(offset, (offset += length));
  return Array.from(timestamps, (ms, i): CheckEvent => {
    const at = i * CHECK_CODED_FIELDS;
    const eventId = next(lengths[i * 3]);
    const installHash = next(lengths[i * 3 + 1]);
    const installId = lengths[i * 3 + 2] < 0 ? null : next(lengths[i * 3 + 2]);
    return {
      eventId,
      applicationId: value(at + CHECK_CODE.application),
      customerId: value(at + CHECK_CODE.customer),
      client: value(at + CHECK_CODE.client) as UpdateClientFamily,
      platform: value(at + CHECK_CODE.platform) as Platform,
      arch: value(at + CHECK_CODE.arch) as Arch,
      channel: value(at + CHECK_CODE.channel),
      runningVersion: value(at + CHECK_CODE.runningVersion),
      offeredVersion: values[codes[at + CHECK_CODE.offeredVersion]],
      installId,
      installHash,
      timestamp: new Date(ms),
    };
  });
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
