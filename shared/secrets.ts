import { createCipheriv, createDecipheriv, createHmac, hash, hkdfSync, randomBytes } from 'node:crypto';

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

/** Prefix of a sealed secret: the format (AES-256-GCM), so another one can be told apart later. */
const SEALED_PREFIX = 'gcm1';

/**
 * Secrets the service must use again (webhook signing secrets), unlike keys it only compares, are
 * stored sealed: AES-256-GCM under a key kept outside the store, with a fresh 96-bit IV each time.
 * `context` (the owning record's id) is authenticated with it, so a sealed value copied to another
 * record does not open there.
 */
export function sealSecret(key: Buffer, secret: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [SEALED_PREFIX, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

/** The secret sealSecret sealed; throws when the value was sealed under another key or context, or altered. */
export function openSecret(key: Buffer, sealed: string, context: string): string {
  const [prefix, iv, tag, data] = sealed.split('.');
  if (prefix !== SEALED_PREFIX || data === undefined) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * A 256-bit key that only a holder of `secret` can derive again (HKDF-SHA256), one per `context`:
 * what is sealed under it (sealSecret) can be opened only by someone presenting the same secret for
 * the same context, never from what is stored.
 */
export function keyFromSecret(secret: string, context: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, KEY_DERIVATION_SALT, context, 32));
}

const KEY_DERIVATION_SALT = 'bds derived key v1';

/** HMAC-SHA256 of `value` under `key`, in hex: a digest that tells nothing to someone without the key. */
export function keyedDigest(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

/** The scheme name is case-insensitive (RFC 9110 11.1); the credential is not. */
const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/i;

/** The credential of an `Authorization: Bearer <credential>` header; undefined for anything else. */
export function bearerCredential(authorization: string | undefined): string | undefined {
  return authorization ? BEARER.exec(authorization)?.[1] : undefined;
}
