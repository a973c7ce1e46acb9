// Tauri's update signatures checked in the browser before anything is sent, as `bds publish` checks
// them (shared/signing/minisign.ts, on node's crypto): minisign's prehashed form, Ed25519 over the
// file's BLAKE2b-512, the file streamed through the hash. Sparkle's signatures (Ed25519 over the
// whole archive) are left to the service, which verifies each as it is stored.
import { verifyAsync } from '@noble/ed25519';
import { blake2b } from '@noble/hashes/blake2b';
import type { SignatureVerifier } from '../../../shared/publishing';
import type { BuildFolder } from './build-folder';

const UNTRUSTED_COMMENT = 'untrusted comment:';
const TRUSTED_COMMENT = 'trusted comment: ';
const KEY_ID_BYTES = 8;

/** Base64 that decodes exactly; null otherwise. */
function base64Bytes(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

/** minisign's lines, given as its text or as base64 of it (Tauri's form). */
function minisignLines(input: string): string[] {
  const trimmed = input.trim();
  const decoded = base64Bytes(trimmed);
  const text = decoded ? new TextDecoder().decode(decoded) : '';
  return (text.startsWith(UNTRUSTED_COMMENT) ? text : trimmed).split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
}

/** minisign prints a key id as a little-endian 64-bit number in hex. */
const keyIdText = (bytes: Uint8Array) => Array.from(bytes).reverse().map((byte) => byte.toString(16).padStart(2, '0')).join('').toUpperCase();

async function prehashOf(file: Blob): Promise<Uint8Array> {
  const hash = blake2b.create({ dkLen: 64 });
  const reader = file.stream().getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) hash.update(chunk.value);
  return hash.digest();
}

export function browserVerifier(folder: BuildFolder): SignatureVerifier {
  return async (check) => {
    if (check.kind !== 'minisign') return null;
    const keyLines = minisignLines(check.publicKey);
    const key = base64Bytes((keyLines[0]?.startsWith(UNTRUSTED_COMMENT) ? keyLines[1] : keyLines[0]) ?? '');
    if (key?.length !== 2 + KEY_ID_BYTES + 32) return 'the application\'s update-signing key is not a minisign public key';
    const lines = minisignLines(check.text);
    const raw = lines.length >= 4 && lines[0].startsWith(UNTRUSTED_COMMENT) && lines[2].startsWith(TRUSTED_COMMENT) ? base64Bytes(lines[1]) : null;
    const globalSignature = lines.length >= 4 ? base64Bytes(lines[3]) : null;
    if (raw?.length !== 2 + KEY_ID_BYTES + 64 || globalSignature?.length !== 64) return 'is not a minisign signature (the .sig file `tauri signer sign` writes)';
    if (String.fromCharCode(raw[0], raw[1]) !== 'ED') return 'the signature is a legacy (not prehashed) minisign signature; sign with `tauri signer sign` or `minisign -S`';
    const keyId = keyIdText(key.subarray(2, 2 + KEY_ID_BYTES));
    const signedBy = keyIdText(raw.subarray(2, 2 + KEY_ID_BYTES));
    if (signedBy !== keyId) return `the signature was made with key ${signedBy}, not with the application's update-signing key ${keyId}`;
    const file = folder.files.get(check.signedPath);
    if (!file) return `${check.signedPath} is not in the folder`;
    const publicKey = key.subarray(2 + KEY_ID_BYTES);
    const signature = raw.subarray(2 + KEY_ID_BYTES);
    if (!(await verifyAsync(signature, await prehashOf(file), publicKey))) return `the signature does not match the file's bytes under key ${keyId}`;
    const comment = new TextEncoder().encode(lines[2].slice(TRUSTED_COMMENT.length));
    const signedComment = new Uint8Array(signature.length + comment.length);
    signedComment.set(signature);
    signedComment.set(comment, signature.length);
    if (!(await verifyAsync(globalSignature, signedComment, publicKey))) return 'the signature\'s trusted comment has been altered';
    return null;
  };
}
