import { createPrivateKey, createPublicKey, generateKeyPairSync, hash, sign, type KeyObject } from 'node:crypto';
import { canonicalize } from '@tufjs/canonical-json';
import { Key, Signature } from '@tufjs/models';

/**
 * Ed25519 keys in TUF's form (specification 1.0, "Key objects"): `keytype` and `scheme` `ed25519`,
 * `keyval.public` the 32-byte public key in hex, and the key id the SHA-256 of the key's canonical JSON.
 */
export interface TufPublicKey {
  keyId: string;
  /** The raw 32-byte public key, hex. */
  publicKey: string;
}

/** A key pair; `privateKey` is PKCS#8 DER in base64, the form that is sealed before it is stored. */
export interface TufKeyPair extends TufPublicKey {
  privateKey: string;
}

/** The key as TUF metadata lists it (a root's `keys`, a delegation's `keys`). */
export function tufKey(publicKey: string): Key {
  return new Key({ keyID: tufKeyId(publicKey), keyType: 'ed25519', scheme: 'ed25519', keyVal: { public: publicKey } });
}

/** The key id TUF gives an ed25519 public key (hex): SHA-256 over the canonical JSON of its key object. */
export function tufKeyId(publicKey: string): string {
  return hash('sha256', canonicalize({ keytype: 'ed25519', keyval: { public: publicKey }, scheme: 'ed25519' }), 'hex');
}

/** A fresh ed25519 key pair. */
export function generateTufKey(): TufKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return keyPairOf(privateKey, publicKey);
}

/** The key pair of a PKCS#8 private key (DER base64, or PEM as `bds tuf init --import` reads it). */
export function importTufKey(privateKey: string): TufKeyPair {
  const key = privateKey.includes('-----BEGIN')
    ? createPrivateKey(privateKey)
    : createPrivateKey({ key: Buffer.from(privateKey, 'base64'), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('not an ed25519 private key');
  return keyPairOf(key, createPublicKey(key));
}

function keyPairOf(privateKey: KeyObject, publicKey: KeyObject): TufKeyPair {
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url').toString('hex');
  return {
    keyId: tufKeyId(raw),
    publicKey: raw,
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  };
}

/** What `Metadata.sign` takes: signs the canonical bytes of a role's `signed` part with the key. */
export function tufSigner(key: TufKeyPair): (data: Buffer) => Signature {
  const privateKey = createPrivateKey({ key: Buffer.from(key.privateKey, 'base64'), format: 'der', type: 'pkcs8' });
  return (data) => new Signature({ keyID: key.keyId, sig: sign(null, data, privateKey).toString('hex') });
}
