import { createPublicKey, generateKeyPairSync, KeyObject, sign, verify } from 'node:crypto';

/**
 * Sparkle's EdDSA keys and signatures as its tools make them, with node:crypto (not the service's
 * implementation): `generate_keys` prints base64 of the 32-byte public key (SUPublicEDKey), and
 * `sign_update -p` prints base64 of the Ed25519 signature over the archive's raw bytes.
 */
export interface SparkleKey {
  /** What SUPublicEDKey holds. */
  publicKey: string;
  sign(archive: Buffer): string;
}

export function generateSparkleKey(): SparkleKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  return { publicKey: raw.toString('base64'), sign: (archive) => sign(null, archive, privateKey).toString('base64') };
}

/** Sparkle's check of an update: the signature over the downloaded bytes under SUPublicEDKey, by node:crypto's one-shot verify. */
export function sparkleVerifies(publicKey: string, archive: Buffer, edSignature: string): boolean {
  return verify(null, archive, publicKeyObject(publicKey), Buffer.from(edSignature, 'base64'));
}

function publicKeyObject(publicKey: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey, 'base64').toString('base64url') }, format: 'jwk' });
}
