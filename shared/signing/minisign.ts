import { createHash, createPublicKey, KeyObject, verify } from 'node:crypto';
import { exactBase64, keyIdText, MINISIGN_KEY_ID_BYTES as KEY_ID_BYTES, MinisignFormatError, minisignLines, readMinisignPublicKey, UNTRUSTED_COMMENT } from './public-keys';

export { MinisignFormatError };

/**
 * Minisign public keys and signatures, as Tauri's updater uses them: `tauri signer generate` prints
 * the public key, and `tauri signer sign` writes the `.sig` file, each as base64 of minisign's text
 * form. Only prehashed signatures (`ED`: Ed25519 over the BLAKE2b-512 of the file, what
 * `tauri signer sign` writes) are verified: the legacy form signs the whole file, which Ed25519
 * cannot take as a stream, and Tauri never writes it.
 */

const PREHASHED_ALGORITHM = 'ED';
const SIGNATURE_BYTES = 2 + KEY_ID_BYTES + 64;
const TRUSTED_COMMENT = 'trusted comment: ';

/** The hash a prehashed signature signs; feed the signed file's bytes to it. */
export const PREHASH_ALGORITHM = 'blake2b512';
export const createPrehash = () => createHash(PREHASH_ALGORITHM);

export interface MinisignPublicKey {
  /** Key id as minisign prints it: 16 uppercase hex digits. */
  keyId: string;
  /** The key in the form Tauri's `pubkey` setting takes: base64 of minisign's two-line text. */
  tauriForm: string;
  key: KeyObject;
}

export interface MinisignSignature {
  algorithm: string;
  keyId: string;
  signature: Buffer;
  trustedComment: string;
  globalSignature: Buffer;
  /** The signature in the form Tauri's update answers carry: base64 of minisign's four-line text. */
  tauriForm: string;
}

/**
 * Reads a public key given as `tauri signer generate` prints it (base64 of the `.pub` file), as the
 * `.pub` file itself, or as its key line alone.
 */
export function parsePublicKey(input: string): MinisignPublicKey {
  const { keyId, tauriForm, ed25519 } = readMinisignPublicKey(input);
  return { keyId, tauriForm, key: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(ed25519).toString('base64url') }, format: 'jwk' }) };
}

/** Reads a signature given as `tauri signer sign` writes it (base64 of minisign's text) or as minisign's text itself. */
export function parseSignature(input: string): MinisignSignature {
  const lines = minisignLines(input);
  const notSignature = () => new MinisignFormatError('is not a minisign signature (the .sig file `tauri signer sign` writes)');
  if (lines.length < 4 || !lines[0].startsWith(UNTRUSTED_COMMENT) || !lines[2].startsWith(TRUSTED_COMMENT)) throw notSignature();
  const raw = strictBase64(lines[1]);
  const globalSignature = strictBase64(lines[3]);
  if (raw?.length !== SIGNATURE_BYTES || globalSignature?.length !== 64) throw notSignature();
  const text = `${lines.slice(0, 4).join('\n')}\n`;
  return {
    algorithm: raw.subarray(0, 2).toString('latin1'),
    keyId: keyIdText(raw.subarray(2, 2 + KEY_ID_BYTES)),
    signature: raw.subarray(2 + KEY_ID_BYTES),
    trustedComment: lines[2].slice(TRUSTED_COMMENT.length),
    globalSignature,
    tauriForm: Buffer.from(text).toString('base64'),
  };
}

/**
 * Why `signature` does not verify the file whose BLAKE2b-512 is `prehash` under `publicKey`, or
 * null when it does. Checks what minisign and Tauri's updater check: the key id, the signature over
 * the file's hash, and the global signature over the signature and its trusted comment.
 */
export function verificationProblem(publicKey: MinisignPublicKey, signature: MinisignSignature, prehash: Buffer): string | null {
  if (signature.algorithm !== PREHASHED_ALGORITHM) {
    return 'the signature is a legacy (not prehashed) minisign signature; sign with `tauri signer sign` or `minisign -S`';
  }
  if (signature.keyId !== publicKey.keyId) {
    return `the signature was made with key ${signature.keyId}, not with the application's update-signing key ${publicKey.keyId}`;
  }
  if (!verify(null, prehash, publicKey.key, signature.signature)) {
    return `the signature does not match the file's bytes under key ${publicKey.keyId}`;
  }
  const signedComment = Buffer.concat([signature.signature, Buffer.from(signature.trustedComment)]);
  if (!verify(null, signedComment, publicKey.key, signature.globalSignature)) {
    return "the signature's trusted comment has been altered";
  }
  return null;
}

/** Base64 that decodes exactly, as a Buffer; undefined otherwise. */
function strictBase64(text: string): Buffer | undefined {
  const bytes = exactBase64(text);
  return bytes && Buffer.from(bytes);
}
