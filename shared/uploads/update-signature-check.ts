import type { DigestKind, Hashing } from '../hashing';
import { challengeSeed, parseSparklePublicKey, sparkleSignatureOf, verifiesWithChallenge } from '../signing/sparkle';
import {
  MinisignFormatError,
  MinisignPublicKey,
  PREHASH_ALGORITHM,
  parsePublicKey,
  parseSignature,
  verificationProblem,
} from '../signing/minisign';
import type { ObjectStorage } from '../storage/object-storage';
import { signedFileName } from '../releases/signed-files';
import type { FileRecord, RetiredSigningKey, SigningKeyKind } from '../store/models';
import type { Store } from '../store/store';

/** What a prehashed minisign signature signs: the BLAKE2b-512 of the file, computed where file digests are. */
const PREHASH: readonly DigestKind<'prehash'>[] = [{ name: 'prehash', algorithm: PREHASH_ALGORITHM, encoding: 'base64' }];

/** Far above a minisign signature (about 400 bytes, 550 in base64): a larger SIGNATURE file is not one. */
export const MAX_UPDATE_SIGNATURE_BYTES = 16 * 1024;

/** The keys an application's update signatures verify under (null: none). */
export interface UpdateSigningKeys {
  /** minisign's, for Tauri (Application.updateSigningKey). */
  updateSigningKey: string | null;
  /** Ed25519's, for Sparkle (Application.sparklePublicKey). */
  sparklePublicKey: string | null;
  /** Keys replaced since: a signature under one still verifies (a bridge release, signed with the old key). */
  retiredSigningKeys: readonly RetiredSigningKey[];
}

/** The keys of an application. */
export const signingKeysOf = ({ updateSigningKey, sparklePublicKey, retiredSigningKeys }: UpdateSigningKeys): UpdateSigningKeys =>
  ({ updateSigningKey, sparklePublicKey, retiredSigningKeys });

/** What checking a SIGNATURE file found: why it does not verify (null: it does, or nothing checks it), and the key it verified under. */
export interface SignatureVerdict {
  problem: string | null;
  /** The kind and key (a minisign key id, a Sparkle public key) it verified under; null when it did not verify or was not checked. */
  signedUnder: { kind: SigningKeyKind; key: string } | null;
}

const UNCHECKED: SignatureVerdict = Object.freeze({ problem: null, signedUnder: null });
const refused = (problem: string): SignatureVerdict => ({ problem, signedUnder: null });

/** The retired keys of a kind, most recently retired first. */
const retiredOf = (keys: UpdateSigningKeys, kind: SigningKeyKind): string[] =>
  keys.retiredSigningKeys.filter((key) => key.kind === kind).map((key) => key.key).reverse();

export const hasSigningKey = (keys: UpdateSigningKeys): boolean => keys.updateSigningKey !== null || keys.sparklePublicKey !== null;

/**
 * Why a SIGNATURE file about to be published does not verify (problem null when it does or need
 * not), and the key it verified under: the current key of its kind or a retired one. Checked only
 * for applications with a key: a Sparkle signature (base64 of 64 bytes, what
 * `sign_update -p` prints) under the Sparkle key, any other under the update-signing key as
 * minisign's (as `tauri signer sign` writes it). Either must verify over the bytes of the file it
 * signs (`signedFile`), which must therefore be published first. A vendor thus never ships a
 * signature that every client would reject. `bytesKey` is where the signature's bytes are now (a
 * staging key, or the file's own).
 */
export async function checkUpdateSignature(store: Store, storage: ObjectStorage, hashing: Hashing, file: FileRecord, bytesKey: string): Promise<SignatureVerdict> {
  if (file.fileType !== 'SIGNATURE') return UNCHECKED;
  const application = await store.applications.getApplication(file.applicationId, { includeDeleted: true });
  if (!application || !hasSigningKey(application)) return UNCHECKED;
  return checkSignatureUnder(signingKeysOf(application), store, storage, hashing, file, bytesKey);
}

/**
 * Whether a SIGNATURE file verifies under the application's keys (problem null when it does, or no
 * key checks it): a Sparkle signature under the current Sparkle key or else a retired one, a
 * minisign signature under the current or retired key its key id names.
 */
export async function checkSignatureUnder(
  keys: UpdateSigningKeys, store: Store, storage: ObjectStorage, hashing: Hashing, file: FileRecord, bytesKey: string,
): Promise<SignatureVerdict> {
  if (file.fileSize > MAX_UPDATE_SIGNATURE_BYTES) {
    return refused(keys.updateSigningKey ? notMinisign(`it has ${file.fileSize} bytes`) : notSparkle(`it has ${file.fileSize} bytes`));
  }
  const text = await readText(storage, bytesKey);
  const sparkleSignature = sparkleSignatureOf(text);
  if (keys.sparklePublicKey && sparkleSignature) return sparkleVerdict(keys, sparkleSignature, store, storage, hashing, file);
  if (keys.updateSigningKey) return minisignVerdict(keys, text, store, storage, hashing, file);
  return keys.sparklePublicKey ? refused(notSparkle('its content is not base64 of 64 bytes')) : UNCHECKED;
}

/** Records the key a verified signature's version was signed under (Store.recordSigningKey); nothing for an unchecked one. */
export async function recordSignedUnder(store: Store, file: FileRecord, verdict: SignatureVerdict): Promise<void> {
  if (verdict.signedUnder) await store.versions.recordSigningKey(file.applicationId, file.version, verdict.signedUnder.kind, verdict.signedUnder.key);
}

async function minisignVerdict(keys: UpdateSigningKeys, text: string, store: Store, storage: ObjectStorage, hashing: Hashing, file: FileRecord): Promise<SignatureVerdict> {
  let signature;
  try {
    signature = parseSignature(text);
  } catch (error) {
    if (error instanceof MinisignFormatError) return refused(notMinisign(error.message));
    throw error;
  }
  // The key the signature names, when it is the current one or a retired one; else the current one, which says so.
  const current = parsePublicKey(keys.updateSigningKey as string);
  const publicKey = current.keyId === signature.keyId ? current
    : retiredOf(keys, 'minisign').map(readableMinisignKey).find((key) => key?.keyId === signature.keyId) ?? current;
  // The MAIN file only: Tauri's answer serves a signature with the MAIN file it offers.
  const signed = await signedFile(store, file, 'main');
  if (!signed) return refused(nothingSigned(file));
  // On the hashing threads: the MAIN file may be gigabytes, and the gateway checks small uploads.
  const { prehash } = await storage.digests(signed.storageKey, hashing, PREHASH);
  const problem = verificationProblem(publicKey, signature, Buffer.from(prehash, 'base64'));
  if (problem) return refused(`the update signature does not verify against ${signed.fileName}: ${problem}`);
  return { problem: null, signedUnder: { kind: 'minisign', key: publicKey.keyId } };
}

/** A retired key as stored (it was valid when set); undefined if it cannot be read. */
function readableMinisignKey(key: string): MinisignPublicKey | undefined {
  try {
    return parsePublicKey(key);
  } catch (error) {
    if (error instanceof MinisignFormatError) return undefined;
    throw error;
  }
}

/**
 * Ed25519 over the archive's raw bytes, as Sparkle verifies it: the challenge SHA-512(R || A || M)
 * is streamed through the hashing threads (the archive may be gigabytes), the equation finished
 * from its digest (shared/signing/sparkle.ts).
 */
async function sparkleVerdict(keys: UpdateSigningKeys, signature: Buffer, store: Store, storage: ObjectStorage, hashing: Hashing, file: FileRecord): Promise<SignatureVerdict> {
  const signed = await signedFile(store, file, 'named');
  if (!signed) return refused(nothingSigned(file));
  // The current key first; a retired one only when it does not verify (each is one pass over the archive).
  for (const keyText of [keys.sparklePublicKey as string, ...retiredOf(keys, 'sparkle')]) {
    const publicKey = parseSparklePublicKey(keyText);
    const kinds: readonly DigestKind<'challenge'>[] = [{ name: 'challenge', algorithm: 'sha512', encoding: 'base64', seed: challengeSeed(signature, publicKey) }];
    const { challenge } = await storage.digests(signed.storageKey, hashing, kinds);
    if (verifiesWithChallenge(publicKey, signature, Buffer.from(challenge, 'base64'))) return { problem: null, signedUnder: { kind: 'sparkle', key: keyText } };
  }
  return refused(`the Sparkle signature does not verify against ${signed.fileName}: it does not match the file's bytes under the application's sparklePublicKey`);
}

const nothingSigned = (file: FileRecord) =>
  `the signature has no file to verify: version ${file.version} has no available MAIN file for platform ${platformOf(file)} `
  + `and arch ${archOf(file)}; publish that first`;

const notMinisign = (why: string) =>
  `the update signature is not a minisign signature (the .sig file \`tauri signer sign\` writes): ${why}`;

const notSparkle = (why: string) =>
  `the update signature is not a Sparkle EdDSA signature (base64 of 64 bytes, what \`sign_update -p\` prints): ${why}`;

const platformOf = (file: FileRecord) => file.platform ?? 'any';
const archOf = (file: FileRecord) => file.arch ?? 'any';

/**
 * The available file of the version a signature signs, of the signature's own platform and arch:
 * the MAIN file, or with `named` the one its name names (`{file}.sig`, any last extension: a Sparkle
 * delta's signature beside it) and else the MAIN file.
 */
async function signedFile(store: Store, signature: FileRecord, rule: 'main' | 'named'): Promise<FileRecord | undefined> {
  const versions = await store.versions.listVersions(signature.applicationId);
  const version = versions.find((candidate) => candidate.version === signature.version);
  const candidates = version?.files.filter((file) => file.status === 'available' && file.fileType !== 'SIGNATURE'
    && platformOf(file) === platformOf(signature) && archOf(file) === archOf(signature)) ?? [];
  const named = signedFileName(signature.fileName);
  return (rule === 'named' ? candidates.find((file) => file.fileName === named) : undefined) ?? candidates.find((file) => file.fileType === 'MAIN');
}


async function readText(storage: ObjectStorage, key: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.getStream(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
