import { expect } from 'chai';
import { MAX_PUT_BYTES, MULTIPART_MAX_PARTS, MULTIPART_MIN_PART_BYTES, MULTIPART_UPLOAD_MAX_BYTES } from '../../shared/policy';
import { choosePartSize, describeShortfall, partLayout, partShortfall, partSizeOf } from '../../shared/uploads/multipart-layout';

const MIB = 1024 ** 2;
const TIB = 1024 ** 4;

describe('multipart layout', () => {
  it('takes files up to 5 TiB and refuses one byte more, or no bytes', () => {
    expect(MULTIPART_UPLOAD_MAX_BYTES).to.equal(5 * TIB);
    expect(choosePartSize(5 * TIB)).to.equal(525 * MIB);
    for (const size of [5 * TIB + 1, 0, -1, 1.5, Number.NaN]) expect(() => choosePartSize(size), String(size)).to.throw(RangeError);
  });

  it('gives every file parts of at least 8 MiB (above S3\'s 5 MiB) and at most 10,000 of them, whole MiB each', () => {
    expect(MULTIPART_MIN_PART_BYTES).to.equal(8 * MIB);
    expect(MULTIPART_MIN_PART_BYTES, 'S3 requires 5 MiB of every part but the last').to.be.at.least(5 * MIB);
    const sizes = [1, 8 * MIB, 8 * MIB + 1, 80_000 * MIB, 80_000 * MIB + 1, 5 * 1024 ** 3 + 1, 1 * TIB, 5 * TIB - 1, 5 * TIB];
    for (const fileSize of sizes) {
      const partSize = choosePartSize(fileSize);
      const { partCount } = partLayout(fileSize, partSize);
      expect(partSize % MIB, `${fileSize}`).to.equal(0);
      expect(partSize, `${fileSize}`).to.be.within(MULTIPART_MIN_PART_BYTES, MAX_PUT_BYTES);
      expect(partCount, `${fileSize}`).to.be.within(1, MULTIPART_MAX_PARTS);
      // The least size that fits: one MiB less would need more than 10,000 parts (or go below 8 MiB).
      if (partSize > MULTIPART_MIN_PART_BYTES) expect(Math.ceil(fileSize / (partSize - MIB)), `${fileSize}`).to.be.above(MULTIPART_MAX_PARTS);
    }
    expect(choosePartSize(80_000 * MIB)).to.equal(8 * MIB);
    expect(choosePartSize(80_000 * MIB + 1)).to.equal(9 * MIB);
  });

  it('sizes every part but the last at the part size, and the last at what is left', () => {
    const layout = partLayout(2 * 8 * MIB + 5, 8 * MIB);
    expect(layout.partCount).to.equal(3);
    expect([1, 2, 3].map((n) => partSizeOf(layout, n))).to.deep.equal([8 * MIB, 8 * MIB, 5]);
    const even = partLayout(16 * MIB, 8 * MIB);
    expect([1, 2].map((n) => partSizeOf(even, n))).to.deep.equal([8 * MIB, 8 * MIB]);
    const largest = partLayout(5 * TIB, 525 * MIB);
    expect(largest.partCount).to.equal(9987);
    expect(partSizeOf(largest, 9987)).to.equal(5 * TIB - 9986 * 525 * MIB);
    for (const n of [0, 4, 1.5]) expect(() => partSizeOf(layout, n), String(n)).to.throw(RangeError);
  });

  it('names the parts missing and those of the wrong size', () => {
    const layout = partLayout(2 * 8 * MIB + 5, 8 * MIB);
    const part = (partNumber: number, size: number) => ({ partNumber, size, etag: `"${partNumber}"` });
    expect(describeShortfall(partShortfall(layout, [part(1, 8 * MIB), part(2, 8 * MIB), part(3, 5)]))).to.equal(null);
    expect(describeShortfall(partShortfall(layout, [part(2, 8 * MIB), part(3, 6)])))
      .to.equal(`1 part(s) missing (1); 1 part(s) of the wrong size (3: 6 of 5 bytes)`);
    const many = partShortfall(partLayout(12 * 8 * MIB, 8 * MIB), []);
    expect(describeShortfall(many)).to.equal('12 part(s) missing (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, and 2 more)');
  });
});
