import { MAX_PUT_BYTES, MULTIPART_MAX_PARTS, MULTIPART_MIN_PART_BYTES, MULTIPART_UPLOAD_MAX_BYTES } from '../policy';
import type { StoredPart } from '../storage/stored-part';

const MIB = 1024 * 1024;

/** How a file of `fileSize` bytes is cut into parts: every part holds partSize bytes but the last, which holds the rest. */
export interface PartLayout {
  fileSize: number;
  partSize: number;
  partCount: number;
}

/**
 * The part size the service gives a file: MULTIPART_MIN_PART_BYTES, or for a file too large for that
 * many parts, the least whole number of MiB that fits it in MULTIPART_MAX_PARTS parts.
 */
export function choosePartSize(fileSize: number): number {
  if (!Number.isSafeInteger(fileSize) || fileSize < 1 || fileSize > MULTIPART_UPLOAD_MAX_BYTES) {
    throw new RangeError(`a multipart upload holds 1 to ${MULTIPART_UPLOAD_MAX_BYTES} bytes, not ${fileSize}`);
  }
  const fitting = Math.ceil(Math.ceil(fileSize / MULTIPART_MAX_PARTS) / MIB) * MIB;
  return Math.min(Math.max(MULTIPART_MIN_PART_BYTES, fitting), MAX_PUT_BYTES);
}

export function partLayout(fileSize: number, partSize: number): PartLayout {
  return { fileSize, partSize, partCount: Math.ceil(fileSize / partSize) };
}

/** The exact size of part `partNumber` (1 to partCount). */
export function partSizeOf(layout: PartLayout, partNumber: number): number {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > layout.partCount) {
    throw new RangeError(`part numbers run from 1 to ${layout.partCount}, not ${partNumber}`);
  }
  return partNumber < layout.partCount ? layout.partSize : layout.fileSize - (layout.partCount - 1) * layout.partSize;
}

/** What keeps stored parts from making the file: part numbers missing, or parts of another size. Empty when they make it. */
export interface PartShortfall {
  missing: number[];
  wrongSize: { partNumber: number; size: number; expected: number }[];
}

export function partShortfall(layout: PartLayout, parts: readonly StoredPart[]): PartShortfall {
  const held = new Map(parts.map((part) => [part.partNumber, part]));
  const shortfall: PartShortfall = { missing: [], wrongSize: [] };
  for (let partNumber = 1; partNumber <= layout.partCount; partNumber += 1) {
    const part = held.get(partNumber);
    const expected = partSizeOf(layout, partNumber);
    if (!part) shortfall.missing.push(partNumber);
    else if (part.size !== expected) shortfall.wrongSize.push({ partNumber, size: part.size, expected });
  }
  return shortfall;
}

/** The shortfall in a sentence, naming at most a few part numbers; null when there is none. */
export function describeShortfall(shortfall: PartShortfall): string | null {
  const problems: string[] = [];
  if (shortfall.missing.length > 0) problems.push(`${shortfall.missing.length} part(s) missing (${listed(shortfall.missing)})`);
  if (shortfall.wrongSize.length > 0) {
    problems.push(`${shortfall.wrongSize.length} part(s) of the wrong size (${listed(shortfall.wrongSize.map((p) => `${p.partNumber}: ${p.size} of ${p.expected} bytes`))})`);
  }
  return problems.length === 0 ? null : problems.join('; ');
}

const NAMED = 10;
const listed = (items: readonly (number | string)[]): string =>
  items.length <= NAMED ? items.join(', ') : `${items.slice(0, NAMED).join(', ')}, and ${items.length - NAMED} more`;
