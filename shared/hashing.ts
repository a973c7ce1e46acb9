import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

/** SHA-256 hex digest of a stream, read chunk by chunk: memory stays flat whatever the size. */
export async function sha256OfStream(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const CHECKSUM = /^(?:sha256:)?([0-9a-f]{64})$/i;

/** Lowercase hex of a checksum given as `sha256:<hex>` or bare hex in any case; null when malformed. */
export function normaliseChecksum(value: string): string | null {
  return CHECKSUM.exec(value.trim())?.[1].toLowerCase() ?? null;
}

export const formatChecksum = (hex: string): string => `sha256:${hex}`;
