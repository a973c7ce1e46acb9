import type { DigestKind, Hashing } from '../hashing';
import {
  MinisignFormatError,
  PREHASH_ALGORITHM,
  parsePublicKey,
  parseSignature,
  verificationProblem,
} from '../signing/minisign';
import type { ObjectStorage } from '../storage/object-storage';
import type { FileRecord } from '../store/models';
import type { Store } from '../store/store';

/** What a prehashed minisign signature signs: the BLAKE2b-512 of the file, computed where file digests are. */
const PREHASH: readonly DigestKind<'prehash'>[] = [{ name: 'prehash', algorithm: PREHASH_ALGORITHM, encoding: 'base64' }];

/** Far above a minisign signature (about 400 bytes, 550 in base64): a larger SIGNATURE file is not one. */
export const MAX_UPDATE_SIGNATURE_BYTES = 16 * 1024;

/**
 * Why a SIGNATURE file about to be published does not verify, or null when it does or need not.
 * Checked only for applications with an update-signing key: the signature must be minisign's (as
 * `tauri signer sign` writes it), made with that key, over the bytes of the version's available
 * MAIN file for the same platform and arch, which must therefore be published first. A vendor thus
 * never ships a signature that every Tauri client would reject. `bytesKey` is where the signature's
 * bytes are now (a staging key, or the file's own).
 */
export async function updateSignatureProblem(store: Store, storage: ObjectStorage, hashing: Hashing, file: FileRecord, bytesKey: string): Promise<string | null> {
  if (file.fileType !== 'SIGNATURE') return null;
  const application = await store.getApplication(file.applicationId, { includeDeleted: true });
  if (!application?.updateSigningKey) return null;
  return signatureProblemUnder(application.updateSigningKey, store, storage, hashing, file, bytesKey);
}

/** Why a SIGNATURE file does not verify under `signingKey` (an application's updateSigningKey), or null when it does. */
export async function signatureProblemUnder(
  signingKey: string, store: Store, storage: ObjectStorage, hashing: Hashing, file: FileRecord, bytesKey: string,
): Promise<string | null> {
  const publicKey = parsePublicKey(signingKey);

  if (file.fileSize > MAX_UPDATE_SIGNATURE_BYTES) return notMinisign(`it has ${file.fileSize} bytes`);
  let signature;
  try {
    signature = parseSignature(await readText(storage, bytesKey));
  } catch (error) {
    if (error instanceof MinisignFormatError) return notMinisign(error.message);
    throw error;
  }

  const main = await signedMainFile(store, file);
  if (!main) {
    return `the signature has no file to verify: version ${file.version} has no available MAIN file for platform ${platformOf(file)} `
      + `and arch ${archOf(file)}; publish that first`;
  }
  // On the hashing threads: the MAIN file may be gigabytes, and the gateway checks small uploads.
  const { prehash } = await storage.digests(main.storageKey, hashing, PREHASH);
  const problem = verificationProblem(publicKey, signature, Buffer.from(prehash, 'base64'));
  return problem && `the update signature does not verify against ${main.fileName}: ${problem}`;
}

const notMinisign = (why: string) =>
  `the update signature is not a minisign signature (the .sig file \`tauri signer sign\` writes): ${why}`;

const platformOf = (file: FileRecord) => file.platform ?? 'any';
const archOf = (file: FileRecord) => file.arch ?? 'any';

/** The version's available MAIN file of the signature's own platform and arch. */
async function signedMainFile(store: Store, signature: FileRecord): Promise<FileRecord | undefined> {
  const versions = await store.listVersions(signature.applicationId);
  const version = versions.find((candidate) => candidate.version === signature.version);
  return version?.files.find((file) => file.fileType === 'MAIN' && file.status === 'available'
    && platformOf(file) === platformOf(signature) && archOf(file) === archOf(signature));
}

async function readText(storage: ObjectStorage, key: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.getStream(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
