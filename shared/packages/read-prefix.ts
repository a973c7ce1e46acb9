import type { Readable } from 'node:stream';

/** A package that is not what its name says, or is malformed where its headers are read. */
export class PackageFormatError extends Error {}

/**
 * The first bytes of a stream, read until `enough` says they hold what is needed, the stream ends, or
 * `max` bytes were read; the stream is then destroyed (the rest of a large package is never read).
 */
export async function readPrefix(body: Readable, max: number, enough: (bytes: Buffer) => boolean): Promise<Buffer> {
  // One buffer grown by doubling: each check sees the bytes so far without copying them again.
  let buffer = Buffer.allocUnsafe(Math.min(max, 256 * 1024));
  let size = 0;
  try {
    for await (const chunk of body) {
      const bytes = chunk as Buffer;
      const taken = Math.min(bytes.length, max - size);
      if (size + taken > buffer.length) {
        const grown = Buffer.allocUnsafe(Math.min(max, Math.max(buffer.length * 2, size + taken)));
        buffer.copy(grown, 0, 0, size);
        buffer = grown;
      }
      bytes.copy(buffer, size, 0, taken);
      size += taken;
      if (size >= max || enough(buffer.subarray(0, size))) break;
    }
  } finally {
    body.destroy();
  }
  return buffer.subarray(0, size);
}
