import { createHash } from 'node:crypto';

/** SHA-256 hex digest of a secret: what is stored and cached instead of the secret itself. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
