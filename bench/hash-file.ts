/**
 * The verification baseline: plain node:crypto over a file read in 1 MiB reads, as the worker's
 * read does, with nothing else around it. Several digests are computed in one pass, each buffer
 * handed to every hash in turn. Arguments: <path> <algorithm>[,<algorithm>...] (e.g. sha256,sha512).
 * Prints {"digests": {algorithm: hex}, "bytes": n, "ms": elapsed}.
 */
import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';

const CHUNK = 1024 * 1024;

async function main(): Promise<void> {
  const [file, algorithms] = process.argv.slice(2);
  const started = performance.now();
  const handle = await fsp.open(file, 'r');
  const hashes = algorithms.split(',').map((algorithm) => ({ algorithm, hash: createHash(algorithm) }));
  const buffer = Buffer.alloc(CHUNK);
  let bytes = 0;
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      for (const { hash } of hashes) hash.update(chunk);
      bytes += bytesRead;
    }
  } finally {
    await handle.close();
  }
  const digests = Object.fromEntries(hashes.map(({ algorithm, hash }) => [algorithm, hash.digest('hex')]));
  process.stdout.write(`${JSON.stringify({ digests, bytes, ms: performance.now() - started })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
