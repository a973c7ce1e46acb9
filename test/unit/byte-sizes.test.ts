import { expect } from 'chai';
import { formatBytes } from '../../shared/byte-sizes';

describe('byte sizes as people read them (the CLI and the web pages)', () => {
  it('writes bytes whole, one decimal below 10 of a unit, whole numbers from 10', () => {
    expect(formatBytes(0)).to.equal('0 B');
    expect(formatBytes(1023)).to.equal('1023 B');
    expect(formatBytes(1024)).to.equal('1.0 KiB');
    expect(formatBytes(1536)).to.equal('1.5 KiB');
    expect(formatBytes(10 * 1024 ** 2)).to.equal('10 MiB');
    expect(formatBytes(300 * 1024 ** 2 + 700 * 1024)).to.equal('301 MiB');
    expect(formatBytes(5 * 1024 ** 3)).to.equal('5.0 GiB');
    expect(formatBytes(5 * 1024 ** 4)).to.equal('5.0 TiB');
    expect(formatBytes(2048 * 1024 ** 4)).to.equal('2048 TiB');
  });
});
