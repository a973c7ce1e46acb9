import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { digestsOfFile, digestsOfStream, FileDigester } from '../../shared/hashing';

const expected = (data: Buffer) => ({
  sha256: createHash('sha256').update(data).digest('hex'),
  sha512: createHash('sha512').update(data).digest('base64'),
});

/** Buffers of the given sizes cut from `data`, as a stream delivers them. */
function chunksOf(data: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += size) chunks.push(data.subarray(offset, offset + size));
  return chunks;
}

describe('file digests', () => {
  let directory: string;
  before(async () => {
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-hashing-'));
  });
  after(async () => {
    await fsp.rm(directory, { recursive: true, force: true });
  });

  it('are SHA-256 as hex and SHA-512 as base64, as electron-updater writes it (known answers for "abc")', () => {
    expect(new FileDigester().update(Buffer.from('abc')).digest()).to.deep.equal({
      sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      sha512: '3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==',
    });
    expect(new FileDigester().digest()).to.deep.equal(expected(Buffer.alloc(0)));
  });

  it('of a stream, whatever its chunking', async () => {
    const data = randomBytes(100_003);
    for (const size of [1, 7, 4096, 65_536, 200_000]) {
      expect(await digestsOfStream(Readable.from(chunksOf(data, size))), `chunks of ${size}`).to.deep.equal(expected(data));
    }
    expect(await digestsOfStream(Readable.from([]))).to.deep.equal(expected(Buffer.alloc(0)));
  });

  describe('of a file read through two reused buffers', () => {
    // Sizes around the buffer size: the last read short, exactly full, or empty.
    const chunkBytes = 64;
    for (const size of [0, 1, 63, 64, 65, 128, 129, 1000, 100_000]) {
      it(`${size} bytes in ${chunkBytes}-byte reads`, async () => {
        const data = randomBytes(size);
        const file = path.join(directory, `file-${size}.bin`);
        await fsp.writeFile(file, data);
        const handle = await fsp.open(file, 'r');
        try {
          expect(await digestsOfFile(handle, chunkBytes)).to.deep.equal(expected(data));
        } finally {
          await handle.close();
        }
      });
    }

    it('a file larger than the reads the embedded store uses', async () => {
      const data = randomBytes(3 * 1024 * 1024 + 17);
      const file = path.join(directory, 'large.bin');
      fs.writeFileSync(file, data);
      const handle = await fsp.open(file, 'r');
      try {
        expect(await digestsOfFile(handle, 1024 * 1024)).to.deep.equal(expected(data));
      } finally {
        await handle.close();
      }
    });
  });
});
