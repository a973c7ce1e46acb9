import { expect } from 'chai';
import { multipartRanges, parseByteRanges } from '../../gateway/http/byte-range';
import { MAX_BYTE_RANGES } from '../../shared/policy';

const SIZE = 1000;

describe('parseByteRanges', () => {
  const cases: Array<[string | undefined, number, ReturnType<typeof parseByteRanges>]> = [
    // No header, or forms served whole.
    [undefined, SIZE, undefined],
    ['', SIZE, undefined],
    ['bytes=', SIZE, undefined],
    ['bytes=-', SIZE, undefined],
    ['items=0-1', SIZE, undefined],
    ['bytes=a-b', SIZE, undefined],
    ['bytes=0-1,a', SIZE, undefined],
    // Closed and open ranges.
    ['bytes=0-0', SIZE, [{ start: 0, end: 0 }]],
    ['bytes=0-99', SIZE, [{ start: 0, end: 99 }]],
    ['bytes=100-', SIZE, [{ start: 100, end: 999 }]],
    ['bytes=999-999', SIZE, [{ start: 999, end: 999 }]],
    [' bytes=10-19 ', SIZE, [{ start: 10, end: 19 }]],
    // An end past the object is clamped to its last byte.
    ['bytes=900-5000', SIZE, [{ start: 900, end: 999 }]],
    ['bytes=0-99999999999999999999', SIZE, [{ start: 0, end: 999 }]],
    // Suffix ranges: the last N bytes, all of them when N exceeds the size.
    ['bytes=-1', SIZE, [{ start: 999, end: 999 }]],
    ['bytes=-100', SIZE, [{ start: 900, end: 999 }]],
    ['bytes=-5000', SIZE, [{ start: 0, end: 999 }]],
    // Several ranges, in the order asked (electron-updater's form has a space after each comma).
    ['bytes=0-1,5-6', SIZE, [{ start: 0, end: 1 }, { start: 5, end: 6 }]],
    ['bytes=0-9, 20-29, 990-', SIZE, [{ start: 0, end: 9 }, { start: 20, end: 29 }, { start: 990, end: 999 }]],
    ['bytes=0-9,,20-29', SIZE, [{ start: 0, end: 9 }, { start: 20, end: 29 }]],
    // Ranges outside the object are left out while one is inside.
    ['bytes=0-9,2000-2010', SIZE, [{ start: 0, end: 9 }]],
    // Overlapping or backwards sets are served whole (RFC 9110 lets a server ignore Range).
    ['bytes=0-9,5-20', SIZE, undefined],
    ['bytes=20-29,0-9', SIZE, undefined],
    ['bytes=0-9,0-9', SIZE, undefined],
    ['bytes=0-,-1', SIZE, undefined],
    // Outside the object.
    ['bytes=1000-', SIZE, 'unsatisfiable'],
    ['bytes=1000-1001', SIZE, 'unsatisfiable'],
    ['bytes=1000-1001,2000-', SIZE, 'unsatisfiable'],
    ['bytes=5-4', SIZE, 'unsatisfiable'],
    ['bytes=0-9,5-4', SIZE, 'unsatisfiable'],
    ['bytes=-0', SIZE, 'unsatisfiable'],
    ['bytes=0-', 0, 'unsatisfiable'],
    ['bytes=-1', 0, 'unsatisfiable'],
  ];

  for (const [header, size, expected] of cases) {
    it(`${JSON.stringify(header)} of ${size} bytes → ${JSON.stringify(expected)}`, () => {
      expect(parseByteRanges(header, size)).to.deep.equal(expected);
    });
  }

  it(`takes up to ${MAX_BYTE_RANGES} ranges and serves whole a request for more`, () => {
    const field = (count: number) => `bytes=${Array.from({ length: count }, (_, i) => `${i * 2}-${i * 2}`).join(', ')}`;
    const size = 2 * (MAX_BYTE_RANGES + 1);
    expect(parseByteRanges(field(MAX_BYTE_RANGES), size)).to.have.length(MAX_BYTE_RANGES);
    expect(parseByteRanges(field(MAX_BYTE_RANGES + 1), size)).to.equal(undefined);
  });
});

describe('multipartRanges', () => {
  it('frames each range with the boundary, its type and Content-Range, and counts every byte of the body', () => {
    const object = Buffer.from('abcdefghijklmnopqrstuvwxyz');
    const answer = multipartRanges([{ start: 0, end: 2 }, { start: 10, end: 10 }], object.length, 'application/x-msdownload', 'b0und');
    const body = Buffer.concat([
      ...answer.parts.flatMap(({ head, range }) => [head, object.subarray(range.start, range.end + 1)]),
      answer.tail,
    ]).toString('latin1');
    expect(answer.contentType).to.equal('multipart/byteranges; boundary=b0und');
    expect(body).to.equal(
      '--b0und\r\nContent-Type: application/x-msdownload\r\nContent-Range: bytes 0-2/26\r\n\r\nabc'
      + '\r\n--b0und\r\nContent-Type: application/x-msdownload\r\nContent-Range: bytes 10-10/26\r\n\r\nk'
      + '\r\n--b0und--\r\n',
    );
    expect(answer.length).to.equal(Buffer.byteLength(body, 'latin1'));
  });
});
