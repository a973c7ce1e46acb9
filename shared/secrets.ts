import { hash } from 'node:crypto';

/** SHA-256 hex digest of a secret: what is stored and cached instead of the secret itself. */
export function hashSecret(secret: string): string {
  // The one-shot form: a third of the cost of a Hash object for a short string (strings hash as UTF-8).
  return hash('sha256', secret, 'hex');
}
