/**
 * Writes `bytes` deterministic pseudo-random bytes (an AES-256-CTR keystream under a fixed key) to a
 * file, 1 MiB at a time so the content is never held whole, and prints {"sha256": hex}.
 * Arguments: <path> <bytes>.
 */
import { createCipheriv, createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const CHUNK = 1024 * 1024;

async function main(): Promise<void> {
  const [file, bytesArg] = process.argv.slice(2);
  const total = Number(bytesArg);
  const keystream = createCipheriv('aes-256-ctr', Buffer.alloc(32, 7), Buffer.alloc(16, 0));
  const hash = createHash('sha256');
  const zeros = Buffer.alloc(CHUNK);
  async function* chunks() {
    for (let written = 0; written < total; written += CHUNK) {
      const chunk = keystream.update(zeros.subarray(0, Math.min(CHUNK, total - written)));
      hash.update(chunk);
      yield chunk;
    }
  }
  await pipeline(Readable.from(chunks()), fs.createWriteStream(file));
  process.stdout.write(`${JSON.stringify({ sha256: hash.digest('hex') })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
