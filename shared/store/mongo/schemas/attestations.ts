import { Schema } from 'mongoose';
import type { Attestation, AttestationKey } from '../../models';
import { uniqueIndex } from '../unique-indexes';
import { collectionOptions } from './schema-options';

export type AttestationKeyDoc = AttestationKey;
export type AttestationDoc = Attestation;

/** The keys a vendor registered per application: one per (applicationId, keyId), written by a conditional upsert. */
export const attestationKeySchema = new Schema<AttestationKeyDoc>(
  {
    applicationId: String,
    keyId: String,
    algorithm: String,
    publicKeyPem: String,
    createdAt: Date,
  },
  collectionOptions('attestationKeys'),
);
attestationKeySchema.index({ applicationId: 1, keyId: 1 }, uniqueIndex('unique_attestationKey'));

/** A file's attestations, read by file in upload order. */
export const attestationSchema = new Schema<AttestationDoc>(
  {
    attestationId: String,
    applicationId: String,
    version: String,
    fileId: String,
    format: String,
    predicateType: String,
    digestAlgorithm: String,
    builderId: { type: String, default: null },
    sourceRepository: { type: String, default: null },
    sourceCommit: { type: String, default: null },
    verification: String,
    verifiedKeyId: { type: String, default: null },
    verificationDetail: { type: String, default: null },
    document: String,
    createdAt: Date,
  },
  collectionOptions('attestations'),
);
attestationSchema.index({ attestationId: 1 }, uniqueIndex('unique_attestationId'));
attestationSchema.index({ fileId: 1, createdAt: 1, attestationId: 1 });
attestationSchema.index({ applicationId: 1 });
