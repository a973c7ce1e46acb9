import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Digester, digestsOfFile, digestsOfStream, FILE_DIGESTS, FileDigester, Hashing, hashInProcess } from '../../shared/hashing';
import { HashingThreadError, HashingThreads } from '../../shared/hashing-threads/hashing-threads';
import { pollUntil } from '../support/poll';
import { rejectionOf } from '../support/rejection';

const expected = (data: Buffer) => ({
  sha256: createHash('sha256').update(data).digest('hex'),
  sha512: createHash('sha512').update(data).digest('base64'),
  sha1: createHash('sha1').update(data).digest('hex'),
});

/** Buffers of the given sizes cut from `data`, as a stream delivers them. */
function chunksOf(data: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += size) chunks.push(data.subarray(offset, offset + size));
  return chunks;
}

/** Feeds the chunks as a caller must: waiting whenever update asks it to. */
async function feed(digester: Digester, chunks: Buffer[]): Promise<void> {
  for (const chunk of chunks) await digester.update(chunk);
}

/**
 * A ring far smaller than the files below, so copying wraps around it and waits for the threads
 * many times per file.
 */
const SMALL_RING = { capacity: 1000, batch: 100 };

describe('file digests', () => {
  let directory: string;
  before(async () => {
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-hashing-'));
  });
  after(async () => {
    await fsp.rm(directory, { recursive: true, force: true });
  });

  it('are SHA-256 as hex, SHA-512 as base64 as electron-updater writes it, and SHA-1 as hex as RELEASES lists it (known answers for "abc")', async () => {
    const digester = new FileDigester();
    digester.update(Buffer.from('abc'));
    expect(await digester.digest()).to.deep.equal({
      sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      sha512: '3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==',
      sha1: 'a9993e364706816aba3e25717850c26c9cd0d89d',
    });
    expect(await new FileDigester().digest()).to.deep.equal(expected(Buffer.alloc(0)));
  });

  const threads = new HashingThreads({ threads: 2 });
  const threadsWithSmallRing = new HashingThreads({ threads: 2, ring: SMALL_RING });
  const oneThread = new HashingThreads({ threads: 1, ring: SMALL_RING });
  after(() => Promise.all([threads.close(), threadsWithSmallRing.close(), oneThread.close()]));

  const hashings: [string, Hashing][] = [
    ['in process', hashInProcess],
    ['on two hashing threads', threads],
    ['on two hashing threads through a ring smaller than the file', threadsWithSmallRing],
    ['both on one hashing thread', oneThread],
  ];
  for (const [where, hashing] of hashings) {
    describe(`computed ${where}`, () => {
      it('of a stream, whatever its chunking', async () => {
        const data = randomBytes(100_003);
        for (const size of [1, 7, 999, 1000, 1001, 4096, 65_536, 200_000]) {
          expect(await digestsOfStream(Readable.from(chunksOf(data, size)), hashing.digester()), `chunks of ${size}`).to.deep.equal(expected(data));
        }
        expect(await digestsOfStream(Readable.from([]), hashing.digester())).to.deep.equal(expected(Buffer.alloc(0)));
      });

      // Sizes around the buffer size: the last read short, exactly full, or empty.
      const chunkBytes = 64;
      for (const size of [0, 1, 63, 64, 65, 128, 129, 1000, 100_000]) {
        it(`of a file of ${size} bytes read through two reused ${chunkBytes}-byte buffers`, async () => {
          const data = randomBytes(size);
          const file = path.join(directory, `file-${size}.bin`);
          await fsp.writeFile(file, data);
          const handle = await fsp.open(file, 'r');
          try {
            expect(await digestsOfFile(handle, chunkBytes, hashing.digester())).to.deep.equal(expected(data));
          } finally {
            await handle.close();
          }
        });
      }

      it('of a file larger than the reads the embedded store uses', async () => {
        const data = randomBytes(3 * 1024 * 1024 + 17);
        const file = path.join(directory, 'large.bin');
        fs.writeFileSync(file, data);
        const handle = await fsp.open(file, 'r');
        try {
          expect(await digestsOfFile(handle, 1024 * 1024, hashing.digester())).to.deep.equal(expected(data));
        } finally {
          await handle.close();
        }
      });

      it("of other kinds: an update signature's BLAKE2b-512 prehash, of a stream and of a file, alone or beside the kept digests", async () => {
        const prehash = [{ name: 'prehash', algorithm: 'blake2b512', encoding: 'base64' }] as const;
        const blake2b512 = (data: Buffer) => createHash('blake2b512').update(data).digest('base64');
        const data = randomBytes(300_007);
        for (const size of [1, 999, 65_536]) {
          expect(await digestsOfStream(Readable.from(chunksOf(data, size)), hashing.digesterOf(prehash)), `chunks of ${size}`)
            .to.deep.equal({ prehash: blake2b512(data) });
        }
        expect(await digestsOfStream(Readable.from([]), hashing.digesterOf(prehash))).to.deep.equal({ prehash: blake2b512(Buffer.alloc(0)) });
        const file = path.join(directory, 'prehashed.bin');
        await fsp.writeFile(file, data);
        const handle = await fsp.open(file, 'r');
        try {
          const all = [...FILE_DIGESTS, ...prehash];
          expect(await digestsOfFile(handle, 64 * 1024, hashing.digesterOf(all))).to.deep.equal({ ...expected(data), prehash: blake2b512(data) });
        } finally {
          await handle.close();
        }
      });

      it('of several files at once, their chunks interleaved, one of them given up', async () => {
        const files = [randomBytes(50_000), randomBytes(3_000), randomBytes(70_001), randomBytes(0)];
        const digesters = files.map(() => hashing.digester());
        const given = digesters.map((): Promise<void>[] => []);
        for (let offset = 0; offset < 70_001; offset += 4096) {
          files.forEach((data, i) => {
            if (offset < data.length) given[i].push(Promise.resolve(digesters[i].update(data.subarray(offset, offset + 4096))));
          });
          await Promise.all(given.flat());
        }
        digesters[1].abort();
        expect(await Promise.all([0, 2, 3].map((i) => digesters[i].digest()))).to.deep.equal([0, 2, 3].map((i) => expected(files[i])));
        // A chunk the caller may reuse once update has taken it: the digest is of the bytes given then.
        const reused = Buffer.from('first');
        const digester = hashing.digester();
        await digester.update(reused);
        reused.write('xxxxx');
        await digester.update(reused);
        expect(await digester.digest()).to.deep.equal(expected(Buffer.from('firstxxxxx')));
      });
    });
  }

  describe('hashing threads', () => {
    it('start with the first file, and stop with close; files after that are hashed in process', async () => {
      const hashing = new HashingThreads({ threads: 2 });
      expect(hashing.running()).to.have.length(0);
      const data = randomBytes(10_000);
      const digester = hashing.digester();
      await feed(digester, [data]);
      expect(await digester.digest()).to.deep.equal(expected(data));
      const running = hashing.running();
      expect(running).to.have.length(2);
      const exited = running.map((worker) => once(worker, 'exit'));
      await hashing.close();
      await Promise.all(exited);
      expect(hashing.running()).to.have.length(0);
      const after = hashing.digester();
      expect(after).to.be.instanceOf(FileDigester);
      await feed(after, [data]);
      expect(await after.digest()).to.deep.equal(expected(data));
    });

    it('fail the files of a thread that stops, and are replaced for the next file', async () => {
      const hashing = new HashingThreads({ threads: 2, ring: SMALL_RING });
      try {
        const cut = hashing.digester();
        await feed(cut, chunksOf(randomBytes(5_000), 300));
        for (const worker of hashing.running()) await worker.terminate();
        expect(await rejectionOf(cut.digest())).to.be.instanceOf(HashingThreadError);
        expect(await rejectionOf(Promise.resolve(cut.update(randomBytes(10))))).to.be.instanceOf(HashingThreadError);
        expect(hashing.running()).to.have.length(0);

        const data = randomBytes(5_000);
        const next = hashing.digester();
        await feed(next, chunksOf(data, 300));
        expect(await next.digest()).to.deep.equal(expected(data));
        expect(hashing.running()).to.have.length(2);
      } finally {
        await hashing.close();
      }
    });

    it('release a caller waiting for room in the ring when its thread stops', async () => {
      // Threads that start and never hash: the ring fills and stays full.
      const stalled = path.join(directory, 'stalled-thread.js');
      fs.writeFileSync(stalled, "const { parentPort } = require('node:worker_threads');\nparentPort.on('message', () => {});\nparentPort.postMessage({ kind: 'ready' });\n");
      const hashing = new HashingThreads({ threads: 2, ring: SMALL_RING, entry: stalled });
      try {
        const digester = hashing.digester();
        const waiting = digester.update(randomBytes(SMALL_RING.capacity + 1));
        expect(waiting, 'more than the ring holds').to.be.instanceOf(Promise);
        const outcome = rejectionOf(waiting as Promise<void>);
        for (const worker of hashing.running()) await worker.terminate();
        expect(await outcome).to.be.instanceOf(HashingThreadError);
      } finally {
        await hashing.close();
      }
    });

    it('that cannot start fail the file given them, say so once, and leave later files to the calling thread', async () => {
      const broken = path.join(directory, 'broken-thread.js');
      fs.writeFileSync(broken, "throw new Error('this thread cannot start');\n");
      const told: Error[] = [];
      const hashing = new HashingThreads({ threads: 2, entry: broken, onUnavailable: (error) => told.push(error) });
      try {
        const first = hashing.digester();
        await feed(first, [randomBytes(100)]);
        const failure = (await rejectionOf(first.digest())) as Error;
        expect(failure).to.be.instanceOf(HashingThreadError);
        expect(failure.message).to.contain('this thread cannot start');
        expect(told).to.have.length(1);
        const data = randomBytes(1000);
        const next = hashing.digester();
        expect(next).to.be.instanceOf(FileDigester);
        await feed(next, [data]);
        expect(await next.digest()).to.deep.equal(expected(data));
        await pollUntil(() => (hashing.running().length === 0 ? true : undefined), 10_000, 'the threads that could not start gone');
      } finally {
        await hashing.close();
      }
    });

    it('do not keep a process alive once its files are hashed', async function () {
      this.timeout(30_000);
      const module = path.resolve(__dirname, '../../shared/hashing-threads/hashing-threads.js');
      const script = `
        const { HashingThreads } = require(${JSON.stringify(module)});
        const digester = new HashingThreads({ threads: 2 }).digester();
        digester.update(Buffer.from('abc'));
        digester.digest().then((digests) => console.log(digests.sha256));
      `;
      const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const [code, signal] = await once(child, 'exit');
      clearTimeout(killer);
      expect({ code, signal }, 'the process exits by itself').to.deep.equal({ code: 0, signal: null });
      expect(output.trim()).to.equal(expected(Buffer.from('abc')).sha256);
    });
  });
});
