import { expect } from 'chai';
import { parseByteRange } from '../../gateway/http/byte-range';

const SIZE = 1000;

describe('parseByteRange', () => {
  const cases: Array<[string | undefined, number, ReturnType<typeof parseByteRange>]> = [
    // No header, or forms served whole.
    [undefined, SIZE, undefined],
    ['', SIZE, undefined],
    ['bytes=-', SIZE, undefined],
    ['bytes=0-1,5-6', SIZE, undefined],
    ['items=0-1', SIZE, undefined],
    ['bytes=a-b', SIZE, undefined],
    // Closed and open ranges.
    ['bytes=0-0', SIZE, { start: 0, end: 0 }],
    ['bytes=0-99', SIZE, { start: 0, end: 99 }],
    ['bytes=100-', SIZE, { start: 100, end: 999 }],
    ['bytes=999-999', SIZE, { start: 999, end: 999 }],
    [' bytes=10-19 ', SIZE, { start: 10, end: 19 }],
    // An end past the object is clamped to its last byte.
    ['bytes=900-5000', SIZE, { start: 900, end: 999 }],
    ['bytes=0-99999999999999999999', SIZE, { start: 0, end: 999 }],
    // Suffix ranges: the last N bytes, all of them when N exceeds the size.
    ['bytes=-1', SIZE, { start: 999, end: 999 }],
    ['bytes=-100', SIZE, { start: 900, end: 999 }],
    ['bytes=-5000', SIZE, { start: 0, end: 999 }],
    // Outside the object.
    ['bytes=1000-', SIZE, 'unsatisfiable'],
    ['bytes=1000-1001', SIZE, 'unsatisfiable'],
    ['bytes=5-4', SIZE, 'unsatisfiable'],
    ['bytes=-0', SIZE, 'unsatisfiable'],
    ['bytes=0-', 0, 'unsatisfiable'],
    ['bytes=-1', 0, 'unsatisfiable'],
  ];

  for (const [header, size, expected] of cases) {
    it(`${JSON.stringify(header)} of ${size} bytes → ${JSON.stringify(expected)}`, () => {
      expect(parseByteRange(header, size)).to.deep.equal(expected);
    });
  }
});
