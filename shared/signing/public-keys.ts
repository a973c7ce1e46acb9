/**
 * The update-signing public keys vendors paste, read and put in the form they are kept in: minisign's
 * (Tauri's `pubkey`) and Sparkle's EdDSA key (SUPublicEDKey). Written without Node's APIs (bytes are
 * Uint8Array, base64 is atob/btoa), so the contract's request schemas that check them type-check and
 * run anywhere; verifying signatures under them is minisign.ts's and sparkle.ts's.
 */

const ED25519_ALGORITHM = 'Ed';
export const MINISIGN_KEY_ID_BYTES = 8;
const MINISIGN_PUBLIC_KEY_BYTES = 2 + MINISIGN_KEY_ID_BYTES + 32;
export const UNTRUSTED_COMMENT = 'untrusted comment:';
/** minisign's own bound on a comment line; a larger text is not a key or a signature. */
const MAX_TEXT_BYTES = 4096;
const SPARKLE_PUBLIC_KEY_BYTES = 32;

/** A key or signature that cannot be read; `message` says why, for the vendor. */
export class MinisignFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MinisignFormatError';
  }
}

/** A key or signature that cannot be read; `message` says why, for the vendor. */
export class SparkleFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SparkleFormatError';
  }
}

/** Base64 that decodes exactly (no character skipped, padded to a multiple of 4); undefined otherwise. */
export function exactBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Canonical (padded) base64 of the bytes. */
export function base64Text(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The lines of minisign's text, given as the text or as base64 of it; blank lines dropped. */
export function minisignLines(input: string): string[] {
  const trimmed = input.trim();
  if (new TextEncoder().encode(trimmed).length > MAX_TEXT_BYTES * 2) throw new MinisignFormatError('is too long for a minisign key or signature');
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) ? exactBase64(trimmed) : undefined;
  const decoded = bytes && new TextDecoder().decode(bytes);
  // The base64 of a text form decodes to its comment line; a bare key line decodes to binary.
  const text = decoded?.startsWith(UNTRUSTED_COMMENT) ? decoded : trimmed;
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0);
}

/** minisign prints a key id as a little-endian 64-bit number in hex. */
export function keyIdText(bytes: Uint8Array): string {
  return Array.from(bytes).reverse().map((byte) => byte.toString(16).padStart(2, '0')).join('').toUpperCase();
}

export interface MinisignPublicKeyText {
  /** Key id as minisign prints it: 16 uppercase hex digits. */
  keyId: string;
  /** The key in the form Tauri's `pubkey` setting takes: base64 of minisign's two-line text. */
  tauriForm: string;
  /** The 32 bytes of the Ed25519 key. */
  ed25519: Uint8Array;
}

/**
 * Reads a minisign public key given as `tauri signer generate` prints it (base64 of the `.pub` file),
 * as the `.pub` file itself, or as its key line alone.
 */
export function readMinisignPublicKey(input: string): MinisignPublicKeyText {
  const lines = minisignLines(input);
  const keyLine = lines[0]?.startsWith(UNTRUSTED_COMMENT) ? lines[1] : lines[0];
  const raw = exactBase64(keyLine ?? '');
  if (raw?.length !== MINISIGN_PUBLIC_KEY_BYTES || String.fromCharCode(raw[0], raw[1]) !== ED25519_ALGORITHM) {
    throw new MinisignFormatError('is not a minisign public key (the one `tauri signer generate` prints)');
  }
  const keyId = keyIdText(raw.subarray(2, 2 + MINISIGN_KEY_ID_BYTES));
  const text = `${UNTRUSTED_COMMENT} minisign public key: ${keyId}\n${keyLine}\n`;
  return { keyId, tauriForm: base64Text(new TextEncoder().encode(text)), ed25519: raw.subarray(2 + MINISIGN_KEY_ID_BYTES) };
}

/** Base64 that decodes exactly to `bytes` bytes; undefined otherwise. */
export function base64OfLength(text: string, bytes: number): Uint8Array | undefined {
  const decoded = exactBase64(text.trim());
  return decoded?.length === bytes ? decoded : undefined;
}

/**
 * The 32 bytes of a Sparkle public key given as `generate_keys` prints it (the SUPublicEDKey value).
 * Any 32 bytes are taken, as Sparkle takes them: bytes that are no point of the curve verify no signature.
 */
export function readSparklePublicKey(input: string): Uint8Array {
  const key = base64OfLength(input, SPARKLE_PUBLIC_KEY_BYTES);
  if (!key) throw new SparkleFormatError('is not an EdDSA public key (base64 of 32 bytes, the SUPublicEDKey `generate_keys` prints)');
  return key;
}
