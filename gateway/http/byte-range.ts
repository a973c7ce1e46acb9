import { MAX_BYTE_RANGES } from '../../shared/policy';
import type { ByteRange } from '../../shared/storage/object-storage';

/**
 * What a `Range` header asks of an object of a known size (RFC 9110 §14.2):
 * undefined: serve the whole object (no header, another unit, a field that does not parse, more than
 * MAX_BYTE_RANGES ranges, or ranges that overlap or go backwards: RFC 9110 lets a server ignore
 * Range, and then nothing costs more than the whole file); 'unsatisfiable': no range lies in the
 * object, or one is written backwards (`5-4`), answered 416; else the satisfiable ranges, in the
 * order asked, those outside the object left out.
 */
export function parseByteRanges(header: string | undefined, size: number): ByteRange[] | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const field = header.trim();
  if (!field.startsWith('bytes=')) return undefined;
  const specs = field.slice('bytes='.length).split(',');
  if (specs.length > MAX_BYTE_RANGES) return undefined;
  const ranges: ByteRange[] = [];
  let asked = 0;
  for (const spec of specs) {
    // A list may hold empty elements (RFC 9110 §5.6.1); they ask for nothing.
    if (spec.trim() === '') continue;
    asked += 1;
    const range = parseRangeSpec(spec.trim(), size);
    if (range === undefined) return undefined;
    if (range === 'backwards') return 'unsatisfiable';
    if (range !== 'outside') ranges.push(range);
  }
  if (asked === 0) return undefined;
  if (ranges.length === 0) return 'unsatisfiable';
  for (let i = 1; i < ranges.length; i += 1) if (ranges[i].start <= ranges[i - 1].end) return undefined;
  return ranges;
}

/** One range of a `Range` header, against the object's size: undefined when it does not parse. */
function parseRangeSpec(spec: string, size: number): ByteRange | 'outside' | 'backwards' | undefined {
  const match = /^(\d*)-(\d*)$/.exec(spec);
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'outside';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  if (match[2] !== '' && Number(match[2]) < start) return 'backwards';
  if (start >= size) return 'outside';
  return { start, end: match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1) };
}

/** A `multipart/byteranges` answer: each part's head before its bytes, and the closing delimiter. */
export interface MultipartRanges {
  contentType: string;
  parts: { head: Buffer; range: ByteRange }[];
  tail: Buffer;
  /** Every byte of the body, heads, ranges and tail. */
  length: number;
}

/**
 * The body of a 206 answer to several ranges (RFC 9110 §14.6): each part opens with the boundary, its
 * Content-Type and Content-Range, then its bytes; the boundary is random, so no stored bytes can hold it.
 */
export function multipartRanges(ranges: readonly ByteRange[], size: number, partType: string, boundary: string): MultipartRanges {
  const parts = ranges.map((range, index) => ({
    head: Buffer.from(`${index === 0 ? '' : '\r\n'}--${boundary}\r\nContent-Type: ${partType}\r\nContent-Range: bytes ${range.start}-${range.end}/${size}\r\n\r\n`),
    range,
  }));
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = parts.reduce((sum, part) => sum + part.head.length + part.range.end - part.range.start + 1, tail.length);
  return { contentType: `multipart/byteranges; boundary=${boundary}`, parts, tail, length };
}
