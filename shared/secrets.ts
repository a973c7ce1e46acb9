import { hash } from 'node:crypto';

/** SHA-256 hex digest of a secret: what is stored and cached instead of the secret itself. */
export function hashSecret(secret: string): string {
  // The one-shot form: a third of the cost of a Hash object for a short string (strings hash as UTF-8).
  return hash('sha256', secret, 'hex');
}

/**
 * Whether two hex digests are equal, in time that depends only on their length: no early exit on the
 * first differing character. Works on the strings directly, since a Buffer per comparison would cost
 * more than the hash itself.
 */
export function sameDigest(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
