import { z } from 'zod';
import { ATTESTATION_FORMATS, ATTESTATION_KEY_ALGORITHMS, ATTESTATION_VERIFICATIONS, type Attestation, type AttestationKey } from '../store/models';
import { iso, timestamp } from './common';

/** A public key registered to check an application's attestations. */
export const attestationKeyResponse = z.object({
  applicationId: z.string(),
  keyId: z.string(),
  algorithm: z.enum(ATTESTATION_KEY_ALGORITHMS),
  publicKey: z.string(),
  createdAt: timestamp,
});

export const attestationKeyListResponse = z.object({ keys: z.array(attestationKeyResponse) });

export function presentAttestationKey(key: AttestationKey): z.input<typeof attestationKeyResponse> {
  return { applicationId: key.applicationId, keyId: key.keyId, algorithm: key.algorithm, publicKey: key.publicKeyPem, createdAt: iso(key.createdAt) };
}

/**
 * A provenance attestation of a file: what the SLSA predicate says of the build, what the offline
 * check of its signatures found, and the envelope or bundle itself for a customer's own check.
 */
export const attestationResponse = z.object({
  attestationId: z.string(),
  applicationId: z.string(),
  version: z.string(),
  fileId: z.string(),
  format: z.enum(ATTESTATION_FORMATS),
  predicateType: z.string(),
  digestAlgorithm: z.enum(['sha256', 'sha512']),
  provenance: z.object({
    builderId: z.string().nullable(),
    sourceRepository: z.string().nullable(),
    sourceCommit: z.string().nullable(),
  }),
  verification: z.object({
    status: z.enum(ATTESTATION_VERIFICATIONS),
    keyId: z.string().nullable(),
    detail: z.string().nullable(),
  }),
  /** The DSSE envelope or Sigstore bundle as uploaded. */
  document: z.record(z.unknown()),
  createdAt: timestamp,
});

export const attestationListResponse = z.object({ attestations: z.array(attestationResponse) });

export type AttestationView = z.infer<typeof attestationResponse>;

export function presentAttestation(attestation: Attestation): z.input<typeof attestationResponse> {
  return {
    attestationId: attestation.attestationId,
    applicationId: attestation.applicationId,
    version: attestation.version,
    fileId: attestation.fileId,
    format: attestation.format,
    predicateType: attestation.predicateType,
    digestAlgorithm: attestation.digestAlgorithm,
    provenance: { builderId: attestation.builderId, sourceRepository: attestation.sourceRepository, sourceCommit: attestation.sourceCommit },
    verification: { status: attestation.verification, keyId: attestation.verifiedKeyId, detail: attestation.verificationDetail },
    document: JSON.parse(attestation.document) as Record<string, unknown>,
    createdAt: iso(attestation.createdAt),
  };
}

export const presentAttestationList = (attestations: readonly Attestation[]): z.input<typeof attestationListResponse> =>
  ({ attestations: attestations.map(presentAttestation) });
