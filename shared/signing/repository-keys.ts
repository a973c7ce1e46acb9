import * as openpgp from 'openpgp';
import { openSecret, sealSecret } from '../secrets';
import type { RepositoryKey } from '../store/models';

/**
 * The OpenPGP keys that sign package repositories (apt's InRelease and Release.gpg, dnf's
 * repomd.xml.asc), through openpgp.js. Keys are version 4 (RFC 4880), as GnuPG 2.2's gpgv (apt) and
 * rpm read them: Ed25519 (EdDSA) generated, or RSA/Ed25519 imported. A private key is kept sealed
 * (AES-256-GCM under the configured secret, bound to its application and fingerprint) and opened
 * only in the process that signs.
 */

export interface OpenedKey {
  record: RepositoryKey;
  privateKey: openpgp.PrivateKey;
}

const sealingContext = (applicationId: string, fingerprint: string): string => `repository-key:${applicationId}:${fingerprint}`;

/** A new Ed25519 signing key for the application's repositories, without subkeys (it only signs). */
export async function generateRepositoryKey(secret: Buffer, applicationId: string, at: Date): Promise<RepositoryKey> {
  const { privateKey } = await openpgp.generateKey({
    type: 'ecc', curve: 'ed25519Legacy', subkeys: [], format: 'object', date: at,
    userIDs: [{ name: `${applicationId} package repository` }],
  });
  return recordOf(secret, applicationId, privateKey, 'generated', at);
}

/**
 * A vendor's armoured private key, imported: it must be able to sign (Ed25519 or RSA of at least
 * 3072 bits), unexpired; a passphrase-protected key is opened with `passphrase` and kept sealed instead.
 * Throws a RepositoryKeyError naming what is wrong.
 */
export async function importRepositoryKey(secret: Buffer, applicationId: string, armored: string, passphrase: string | undefined, at: Date): Promise<RepositoryKey> {
  let privateKey: openpgp.PrivateKey;
  try {
    privateKey = await openpgp.readPrivateKey({ armoredKey: armored });
  } catch {
    throw new RepositoryKeyError('not an armoured OpenPGP private key');
  }
  if (!privateKey.isDecrypted()) {
    if (passphrase === undefined) throw new RepositoryKeyError('the key is protected by a passphrase: send it with the key');
    try {
      privateKey = await openpgp.decryptKey({ privateKey, passphrase });
    } catch {
      throw new RepositoryKeyError('the passphrase does not open the key');
    }
  }
  const info = privateKey.getAlgorithmInfo();
  const algorithm = info.algorithm === 'eddsaLegacy' || info.algorithm === 'ed25519' ? 'ed25519'
    : (info.algorithm === 'rsaEncryptSign' || info.algorithm === 'rsaSign') && (info.bits ?? 0) >= 3072 ? 'rsa4096' : undefined;
  if (!algorithm) throw new RepositoryKeyError(`a ${info.algorithm}${info.bits ? ` ${info.bits}-bit` : ''} key: apt and rpm are given Ed25519 or RSA of 3072 bits and more`);
  if (privateKey.keyPacket.version !== 4) throw new RepositoryKeyError('a version 6 key: apt and rpm read version 4 keys');
  try {
    await privateKey.getSigningKey(undefined, at);
  } catch {
    throw new RepositoryKeyError('the key cannot sign now (expired, revoked or without a signing key)');
  }
  return recordOf(secret, applicationId, privateKey, 'imported', at, algorithm);
}

export class RepositoryKeyError extends Error {}

async function recordOf(
  secret: Buffer, applicationId: string, privateKey: openpgp.PrivateKey, origin: RepositoryKey['origin'], at: Date, algorithm: RepositoryKey['algorithm'] = 'ed25519',
): Promise<RepositoryKey> {
  const fingerprint = privateKey.getFingerprint().toUpperCase();
  return {
    fingerprint,
    publicKey: privateKey.toPublic().armor(),
    sealedPrivateKey: sealSecret(secret, privateKey.armor(), sealingContext(applicationId, fingerprint)),
    algorithm,
    origin,
    createdAt: at,
    retiresAt: null,
  };
}

/** The application's keys that still sign at `at`: the current one and those in their overlap. */
export function signingKeysAt(keys: readonly RepositoryKey[], at: Date): RepositoryKey[] {
  return keys.filter((key) => key.retiresAt === null || key.retiresAt.getTime() > at.getTime());
}

export async function openRepositoryKey(secret: Buffer, applicationId: string, record: RepositoryKey): Promise<OpenedKey> {
  const armored = openSecret(secret, record.sealedPrivateKey, sealingContext(applicationId, record.fingerprint));
  return { record, privateKey: await openpgp.readPrivateKey({ armoredKey: armored }) };
}

/** One armoured block holding every public key given (what `key.asc` serves and `gpg --dearmor` turns into a keyring). */
export async function armoredPublicKeys(keys: readonly RepositoryKey[]): Promise<string> {
  const parts: Uint8Array[] = [];
  for (const key of keys) parts.push((await openpgp.readKey({ armoredKey: key.publicKey })).write());
  const bytes = Buffer.concat(parts);
  // With the CRC line: GnuPG 2.2's --dearmor misreads a block without it whenever its last line has certain lengths.
  const emitChecksum = true;
  return openpgp.armor(openpgp.enums.armor.publicKey, bytes, undefined, undefined, undefined, emitChecksum);
}

/** A cleartext-signed document (apt's InRelease), signed by every key given. */
export async function clearsign(text: string, keys: readonly OpenedKey[], at: Date): Promise<string> {
  const message = await openpgp.createCleartextMessage({ text });
  return openpgp.sign({ message, signingKeys: keys.map((key) => key.privateKey), date: at, format: 'armored' });
}

/** An armoured detached signature of the bytes (apt's Release.gpg, dnf's repomd.xml.asc), by every key given. */
export async function detachedSignature(bytes: Uint8Array, keys: readonly OpenedKey[], at: Date): Promise<string> {
  const message = await openpgp.createMessage({ binary: bytes });
  return openpgp.sign({ message, signingKeys: keys.map((key) => key.privateKey), detached: true, date: at, format: 'armored' });
}
