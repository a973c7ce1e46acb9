import type { Attestation, AttestationKey } from '../models';
import type { AttestationStore } from '../store';
import type { MongoModels } from './models';
import { guardDuplicates } from './unique-indexes';
import type { AttestationDoc, AttestationKeyDoc } from './schemas/attestations';

/** Provenance attestations and the keys registered per application. */
export class MongoAttestations implements AttestationStore {
  constructor(private readonly models: MongoModels) {}

  async addAttestationKey(key: AttestationKey): Promise<boolean> {
    const result = await this.models.attestationKeys.updateOne(
      { applicationId: key.applicationId, keyId: key.keyId },
      { $setOnInsert: { ...key } },
      { upsert: true },
    );
    return result.upsertedCount > 0;
  }

  async listAttestationKeys(applicationId: string): Promise<AttestationKey[]> {
    const docs = await this.models.attestationKeys.find({ applicationId }).sort({ createdAt: 1, keyId: 1 }).lean<AttestationKeyDoc[]>();
    return docs.map(({ applicationId: a, keyId, algorithm, publicKeyPem, createdAt }) => ({ applicationId: a, keyId, algorithm, publicKeyPem, createdAt }));
  }

  async insertAttestation(attestation: Attestation): Promise<Attestation> {
    await guardDuplicates(this.models.attestations, () => this.models.attestations.create(attestation));
    return attestation;
  }

  async listAttestations(fileId: string): Promise<Attestation[]> {
    const docs = await this.models.attestations.find({ fileId }).sort({ createdAt: 1, attestationId: 1 }).lean<AttestationDoc[]>();
    return docs.map(toAttestation);
  }

  async countAttestations(fileId: string): Promise<number> {
    return this.models.attestations.countDocuments({ fileId });
  }
}

function toAttestation(doc: AttestationDoc): Attestation {
  return {
    attestationId: doc.attestationId,
    applicationId: doc.applicationId,
    version: doc.version,
    fileId: doc.fileId,
    format: doc.format,
    predicateType: doc.predicateType,
    digestAlgorithm: doc.digestAlgorithm,
    builderId: doc.builderId ?? null,
    sourceRepository: doc.sourceRepository ?? null,
    sourceCommit: doc.sourceCommit ?? null,
    verification: doc.verification,
    verifiedKeyId: doc.verifiedKeyId ?? null,
    verificationDetail: doc.verificationDetail ?? null,
    document: doc.document,
    createdAt: doc.createdAt,
  };
}
