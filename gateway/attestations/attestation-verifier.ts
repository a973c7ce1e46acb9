import crypto from 'node:crypto';
import { bundleFromJSON, type Bundle } from '@sigstore/bundle';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { toSignedEntity, toTrustMaterial, Verifier, VerificationError, type TrustMaterial } from '@sigstore/verify';
import { unprocessable } from '../../shared/errors';
import type { AttestationKey, AttestationKeyAlgorithm, AttestationVerification } from '../../shared/store/models';

/** The outcome of the offline check of an attestation's signatures, recorded with it. */
export interface VerificationOutcome {
  verification: AttestationVerification;
  verifiedKeyId: string | null;
  detail: string | null;
}

/** A DSSE envelope: `payload` and each `sig` in standard base64. */
export interface DsseEnvelope {
  payloadType: string;
  payload: string;
  signatures: readonly { keyid?: string; sig: string }[];
}

/** A public key as registered: its algorithm and the id it is known by (the SHA-256 of its SPKI DER, hex, unless the vendor names it). */
export function readPublicKey(pem: string): { key: crypto.KeyObject; algorithm: AttestationKeyAlgorithm; fingerprint: string } {
  let key: crypto.KeyObject;
  try {
    key = crypto.createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw unprocessable('publicKey must be a public key in PEM (SPKI, -----BEGIN PUBLIC KEY-----)', 'UNSUPPORTED_KEY');
  }
  const algorithm = key.asymmetricKeyType === 'ed25519' ? 'ed25519'
    : key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? 'ecdsa-p256' : undefined;
  if (algorithm === undefined) throw unprocessable('publicKey must be an Ed25519 or ECDSA P-256 key', 'UNSUPPORTED_KEY');
  const fingerprint = crypto.createHash('sha256').update(key.export({ type: 'spki', format: 'der' })).digest('hex');
  return { key, algorithm, fingerprint };
}

/** DSSE's pre-authentication encoding: what a signature signs. */
export function preAuthEncoding(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
}

/** A signature under a key: Ed25519 as is; ECDSA P-256 over SHA-256, DER or the fixed 64-byte form. */
function signatureVerifies(key: crypto.KeyObject, algorithm: AttestationKeyAlgorithm, message: Buffer, signature: Buffer): boolean {
  try {
    if (algorithm === 'ed25519') return crypto.verify(null, message, key, signature);
    if (crypto.verify('sha256', message, { key, dsaEncoding: 'der' }, signature)) return true;
    return signature.length === 64 && crypto.verify('sha256', message, { key, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}

/**
 * A DSSE envelope's signatures against the application's registered keys: `verified` by the first
 * signature one of them verifies (a signature naming a `keyid` is tried with that key only),
 * `unverified` when no registered key could be tried, `failed` when those tried verify none.
 */
export function verifyDsse(envelope: DsseEnvelope, payload: Buffer, keys: readonly AttestationKey[]): VerificationOutcome {
  if (keys.length === 0) return { verification: 'unverified', verifiedKeyId: null, detail: 'no attestation key is registered for the application' };
  const message = preAuthEncoding(envelope.payloadType, payload);
  let tried = 0;
  for (const signature of envelope.signatures) {
    const candidates = signature.keyid ? keys.filter((key) => key.keyId === signature.keyid) : keys;
    for (const candidate of candidates) {
      tried += 1;
      const { key } = readPublicKey(candidate.publicKeyPem);
      if (signatureVerifies(key, candidate.algorithm, message, Buffer.from(signature.sig, 'base64'))) {
        return { verification: 'verified', verifiedKeyId: candidate.keyId, detail: null };
      }
    }
  }
  if (tried === 0) return { verification: 'unverified', verifiedKeyId: null, detail: 'signed with keys not registered for the application' };
  return { verification: 'failed', verifiedKeyId: null, detail: 'no signature verifies under the registered keys' };
}

/** A Sigstore bundle read from its JSON (422 INVALID_ATTESTATION when it is none), with the DSSE envelope it must carry. */
export function readBundle(json: unknown): { bundle: Bundle; payloadType: string; payload: Buffer } {
  let bundle: Bundle;
  try {
    bundle = bundleFromJSON(json);
  } catch (error) {
    throw unprocessable(`not a valid Sigstore bundle: ${(error as Error).message}`, 'INVALID_ATTESTATION');
  }
  if (bundle.content.$case !== 'dsseEnvelope') throw unprocessable('the Sigstore bundle must carry an in-toto statement in a DSSE envelope', 'INVALID_ATTESTATION');
  return { bundle, payloadType: bundle.content.dsseEnvelope.payloadType, payload: bundle.content.dsseEnvelope.payload };
}

/**
 * Verifies Sigstore bundles offline with @sigstore/verify, against the configured trusted root: a
 * bundle with a certificate needs the public-good evidence (a transparency-log entry, an SCT, a
 * timestamp) checked against that root's authorities; a bundle with a public-key hint is checked
 * against the application's registered key of that id, and any log entry or timestamp it carries
 * against the root. Nothing is fetched.
 */
export class SigstoreVerifier {
  private readonly root: TrustedRoot | null;

  constructor(trustedRoot: Readonly<Record<string, unknown>> | null) {
    this.root = trustedRoot === null ? null : TrustedRoot.fromJSON(trustedRoot);
  }

  verify(bundle: Bundle, keys: readonly AttestationKey[]): VerificationOutcome {
    if (this.root === null) return { verification: 'unverified', verifiedKeyId: null, detail: 'no Sigstore trusted root is configured (SIGSTORE_TRUSTED_ROOT)' };
    const material = bundle.verificationMaterial.content;
    const hint = material.$case === 'publicKey' ? material.publicKey.hint : null;
    if (hint !== null && !keys.some((key) => key.keyId === hint)) {
      return { verification: 'unverified', verifiedKeyId: null, detail: `the bundle's key ${hint} is not registered for the application` };
    }
    let trust: TrustMaterial;
    try {
      trust = toTrustMaterial(this.root, (wanted) => {
        const key = keys.find((candidate) => candidate.keyId === wanted);
        if (!key) throw new VerificationError({ code: 'PUBLIC_KEY_ERROR', message: `key not found: ${wanted}` });
        return { publicKey: readPublicKey(key.publicKeyPem).key, validFor: () => true };
      });
    } catch (error) {
      return { verification: 'failed', verifiedKeyId: null, detail: `the trusted root cannot be used: ${(error as Error).message}` };
    }
    const thresholds = hint !== null
      ? { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 }
      : { tlogThreshold: 1, ctlogThreshold: 1, timestampThreshold: 1 };
    try {
      new Verifier(trust, thresholds).verify(toSignedEntity(bundle));
      return { verification: 'verified', verifiedKeyId: hint, detail: null };
    } catch (error) {
      return { verification: 'failed', verifiedKeyId: null, detail: (error as Error).message.slice(0, 500) };
    }
  }
}
