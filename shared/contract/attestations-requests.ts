import { z } from 'zod';
import { ATTESTATION_KEY_ID_MAX_LENGTH, ATTESTATION_PUBLIC_KEY_MAX_LENGTH } from '../policy';
import { applicationIdField, generatedIdField, versionField } from './fields';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const base64 = (what: string) => z.string({ invalid_type_error: `${what} must be base64` }).min(1, `${what} must not be empty`).regex(BASE64, `${what} must be base64`);

/** A DSSE envelope's signature: `sig` in base64, an optional `keyid` naming the key that made it. */
const dsseSignature = z.object({
  keyid: z.string().max(ATTESTATION_KEY_ID_MAX_LENGTH).optional(),
  sig: base64('sig'),
}).strict();

/** A DSSE envelope (github.com/secure-systems-lab/dsse): an in-toto statement in `payload`, with its signatures. */
export const dsseEnvelopeSchema = z.object({
  payloadType: z.string().min(1).max(200),
  payload: base64('payload'),
  signatures: z.array(dsseSignature).min(1, 'at least one signature').max(16, 'at most 16 signatures'),
}).strict();

/** The media types of a Sigstore bundle, as @sigstore/bundle reads them. */
const BUNDLE_MEDIA_TYPE = /^application\/vnd\.dev\.sigstore\.bundle(?:\.v\d\.\d\+json|\+json;version=\d\.\d)$/;

/**
 * A Sigstore bundle (`application/vnd.dev.sigstore.bundle.v0.3+json`) carrying a DSSE envelope; its
 * verification material is read in full by @sigstore/bundle.
 */
export const sigstoreBundleSchema = z.object({
  mediaType: z.string().regex(BUNDLE_MEDIA_TYPE, 'must be a Sigstore bundle media type (application/vnd.dev.sigstore.bundle.v0.3+json)'),
  verificationMaterial: z.record(z.unknown()),
  dsseEnvelope: z.record(z.unknown()),
}).strict();

/** An attestation: a DSSE envelope, or a Sigstore bundle (told apart by its mediaType). */
export const attestationBody = z.union([sigstoreBundleSchema, dsseEnvelopeSchema]).openapi({
  description: 'An in-toto statement about the file: a DSSE envelope {payloadType, payload, signatures}, or a Sigstore bundle (v0.3) with a dsseEnvelope',
});
export type AttestationBody = z.output<typeof attestationBody>;

export const fileAttestationParams = z.object({ applicationId: applicationIdField, version: versionField, fileId: generatedIdField });
export const customerFileParams = z.object({ fileId: generatedIdField });
export const attestationKeyParams = z.object({ applicationId: applicationIdField });

/** A key to register: an Ed25519 or ECDSA P-256 public key in PEM, with the id its signatures name (the SHA-256 of its SPKI when left out). */
export const addAttestationKeySchema = z.object({
  keyId: z.string().min(1).max(ATTESTATION_KEY_ID_MAX_LENGTH).regex(/^[\x21-\x7e]+$/, 'must be printable characters without spaces').optional(),
  publicKey: z.string().min(1).max(ATTESTATION_PUBLIC_KEY_MAX_LENGTH),
}).strict();
