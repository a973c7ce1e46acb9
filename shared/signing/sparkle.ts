import { Point } from '@noble/ed25519';
import { base64OfLength as bytesOfLength, readSparklePublicKey, SparkleFormatError } from './public-keys';

export { SparkleFormatError };

/**
 * Sparkle's EdDSA signatures: the app's `SUPublicEDKey` is base64 of a 32-byte Ed25519 public key,
 * and `sign_update -p` prints base64 of a 64-byte Ed25519 signature over the archive's raw bytes (no
 * prehash; Sparkle's SUSignatureVerifier hands the whole mapped file to ed25519_verify).
 *
 * Verified without holding the archive: Ed25519 (RFC 8032, 5.1.7) hashes k = SHA-512(R || A || M)
 * and then checks [S]B = R + [k]A. The hash is the only step that reads the message, so it is
 * streamed (where file digests are computed, seeded with R || A: `challengeSeed`) and the equation is
 * finished here from its digest. node:crypto's Ed25519 takes only the whole message, and
 * @noble/ed25519's verify hashes the message itself, so only its curve arithmetic (`Point`) is used.
 * The check is Sparkle's own (its vendored ed25519/src/verify.c, cofactorless): the encoding of
 * [S]B - [k]A must equal R's bytes; S must be below the group order (RFC 8032's rule, which every
 * signature `sign_update` makes keeps; Sparkle only checks its top three bits).
 */

const PUBLIC_KEY_BYTES = 32;
const SIGNATURE_BYTES = 64;
/** The order of Ed25519's base point. */
const GROUP_ORDER = 2n ** 252n + 27742317777372353535851937790883648493n;

/** Base64 that decodes exactly to `bytes` bytes, as a Buffer; undefined otherwise. */
function base64OfLength(text: string, bytes: number): Buffer | undefined {
  const decoded = bytesOfLength(text, bytes);
  return decoded && Buffer.from(decoded);
}

/** The 32 bytes of a public key given as `generate_keys` prints it (the SUPublicEDKey value): public-keys.ts reads it. */
export function parseSparklePublicKey(input: string): Buffer {
  return Buffer.from(readSparklePublicKey(input));
}

/** What `sign_update` prints without `-p`: the enclosure's attributes, the signature among them. */
const ENCLOSURE_ATTRIBUTES = /^\s*sparkle:edSignature="([A-Za-z0-9+/=]+)"(?:\s+length="\d+")?\s*$/;

/**
 * The 64 bytes of a signature given as `sign_update -p` prints it (or as `sign_update` prints it,
 * with its `length`); undefined for any other text.
 */
export function sparkleSignatureOf(text: string): Buffer | undefined {
  const attribute = ENCLOSURE_ATTRIBUTES.exec(text);
  return base64OfLength(attribute ? attribute[1] : text, SIGNATURE_BYTES);
}

/** The canonical base64 a key or signature is kept and served in. */
export const sparkleText = (bytes: Buffer): string => bytes.toString('base64');

/** What the message's SHA-512 must be fed before the message: R (the signature's first half), then A. */
export function challengeSeed(signature: Buffer, publicKey: Buffer): Buffer {
  return Buffer.concat([signature.subarray(0, 32), publicKey]);
}

/**
 * Whether `signature` verifies under `publicKey`, given `challenge` = SHA-512(R || A || M) of the
 * signed message M. Cofactorless, as Sparkle's ed25519_verify.
 */
export function verifiesWithChallenge(publicKey: Buffer, signature: Buffer, challenge: Buffer): boolean {
  if (publicKey.length !== PUBLIC_KEY_BYTES || signature.length !== SIGNATURE_BYTES || challenge.length !== 64) return false;
  const s = littleEndian(signature.subarray(32));
  if (s >= GROUP_ORDER) return false;
  let a: Point;
  try {
    a = Point.fromBytes(publicKey, false);
  } catch {
    return false;
  }
  const k = littleEndian(challenge) % GROUP_ORDER;
  // [S]B - [k]A; multiply refuses 0, which both may be (by chance or by a forger's choice).
  const sB = s === 0n ? Point.ZERO : Point.BASE.multiply(s, false);
  const kA = k === 0n ? Point.ZERO : a.multiply(k, false);
  return Buffer.from(sB.subtract(kA).toBytes()).equals(signature.subarray(0, 32));
}

function littleEndian(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i -= 1) value = (value << 8n) | BigInt(bytes[i]);
  return value;
}
