import fs from 'node:fs';
import os from 'node:os';
import { runJsonChild } from './children';

/** Writes `bytes` deterministic pseudo-random bytes to `file` (random-file.ts); returns their SHA-256. */
export async function writeRandomFile(file: string, bytes: number): Promise<string> {
  const { sha256 } = await runJsonChild<{ sha256: string }>('random-file', [file, String(bytes)], 600_000);
  return sha256;
}

/** Fails, naming the need, when the temporary directory's file system has less than `bytes` free. */
export function requireFreeDisk(bytes: number, what: string): void {
  const stats = fs.statfsSync(os.tmpdir());
  const free = stats.bavail * stats.bsize;
  if (free < bytes) throw new Error(`${what} needs ${bytes} bytes free in ${os.tmpdir()}, ${free} are`);
}
