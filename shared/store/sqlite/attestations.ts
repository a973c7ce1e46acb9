import type { Attestation, AttestationKey, AttestationKeyAlgorithm, AttestationFormat, AttestationVerification } from '../models';
import type { AttestationStore } from '../store';
import type { Row, SqliteDatabase } from './database';

/** Provenance attestations, read by file in upload order, and the keys registered per application. */
export class SqliteAttestations implements AttestationStore {
  constructor(private readonly database: SqliteDatabase) {}

  async addAttestationKey(key: AttestationKey): Promise<boolean> {
    const result = this.database.write(() =>
      this.database.prepare(`INSERT INTO attestation_keys (application_id, key_id, algorithm, public_key_pem, created_at)
        VALUES (?, ?, ?, ?, ?) ON CONFLICT (application_id, key_id) DO NOTHING`)
        .run(key.applicationId, key.keyId, key.algorithm, key.publicKeyPem, key.createdAt.getTime()),
    );
    return result.changes > 0;
  }

  async listAttestationKeys(applicationId: string): Promise<AttestationKey[]> {
    return (this.database.prepare('SELECT * FROM attestation_keys WHERE application_id = ? ORDER BY created_at, key_id').all(applicationId) as Row[])
      .map(keyFromRow);
  }

  async insertAttestation(attestation: Attestation): Promise<Attestation> {
    const a = attestation;
    this.database.write(() =>
      this.database.prepare(`INSERT INTO attestations (attestation_id, application_id, version, file_id, format, predicate_type, digest_algorithm,
          builder_id, source_repository, source_commit, verification, verified_key_id, verification_detail, document, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(a.attestationId, a.applicationId, a.version, a.fileId, a.format, a.predicateType, a.digestAlgorithm, a.builderId,
          a.sourceRepository, a.sourceCommit, a.verification, a.verifiedKeyId, a.verificationDetail, a.document, a.createdAt.getTime()),
    );
    return attestation;
  }

  async listAttestations(fileId: string): Promise<Attestation[]> {
    return (this.database.prepare('SELECT * FROM attestations WHERE file_id = ? ORDER BY created_at, attestation_id').all(fileId) as Row[])
      .map(attestationFromRow);
  }

  async countAttestations(fileId: string): Promise<number> {
    return (this.database.prepare('SELECT COUNT(*) AS n FROM attestations WHERE file_id = ?').get(fileId) as { n: number }).n;
  }
}

function keyFromRow(row: Row): AttestationKey {
  return {
    applicationId: row.application_id as string,
    keyId: row.key_id as string,
    algorithm: row.algorithm as AttestationKeyAlgorithm,
    publicKeyPem: row.public_key_pem as string,
    createdAt: new Date(row.created_at as number),
  };
}

function attestationFromRow(row: Row): Attestation {
  return {
    attestationId: row.attestation_id as string,
    applicationId: row.application_id as string,
    version: row.version as string,
    fileId: row.file_id as string,
    format: row.format as AttestationFormat,
    predicateType: row.predicate_type as string,
    digestAlgorithm: row.digest_algorithm as 'sha256' | 'sha512',
    builderId: row.builder_id as string | null,
    sourceRepository: row.source_repository as string | null,
    sourceCommit: row.source_commit as string | null,
    verification: row.verification as AttestationVerification,
    verifiedKeyId: row.verified_key_id as string | null,
    verificationDetail: row.verification_detail as string | null,
    document: row.document as string,
    createdAt: new Date(row.created_at as number),
  };
}
