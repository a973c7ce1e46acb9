/**
 * The verification baseline: plain node:crypto SHA-256 over a file read in 1 MiB reads, as the
 * worker's streaming read does, with nothing else around it. Argument: <path>.
 * Prints {"sha256": hex, "bytes": n, "ms": elapsed}.
 */
import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';

const CHUNK = 1024 * 1024;

async function main(): Promise<void> {
  const started = performance.now();
  const handle = await fsp.open(process.argv[2], 'r');
  const hash = createHash('sha256');
  const buffer = Buffer.alloc(CHUNK);
  let bytes = 0;
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      bytes += bytesRead;
    }
  } finally {
    await handle.close();
  }
  const sha256 = hash.digest('hex');
  process.stdout.write(`${JSON.stringify({ sha256, bytes, ms: performance.now() - started })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
