import { ATTESTATION_KEYS_PER_APPLICATION_MAX, ATTESTATION_MAX_BYTES, ATTESTATIONS_PER_FILE_MAX } from '../../shared/policy';
import { conflict, notFound, payloadTooLarge } from '../../shared/errors';
import { newId } from '../../shared/ids';
import type { Attestation, AttestationKey, FileRecord } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import type { AttestationBody } from '../../shared/contract/attestations-requests';
import { readBundle, readPublicKey, SigstoreVerifier, verifyDsse, type DsseEnvelope, type VerificationOutcome } from './attestation-verifier';
import { matchSubject, readProvenance, readStatement } from './in-toto-statement';

/**
 * Provenance attestations: an in-toto statement about an available file, checked against the file's
 * digests, its signatures verified offline once when it is added and the result kept with it. An
 * attestation adds a record; it never touches the file or its bytes, so published files take them.
 */
export class AttestationService {
  private readonly sigstore: SigstoreVerifier;

  constructor(private readonly store: Store, trustedRoot: Readonly<Record<string, unknown>> | null) {
    this.sigstore = new SigstoreVerifier(trustedRoot);
  }

  async add(applicationId: string, version: string, fileId: string, body: AttestationBody): Promise<Attestation> {
    const document = JSON.stringify(body);
    if (Buffer.byteLength(document) > ATTESTATION_MAX_BYTES) throw payloadTooLarge(`an attestation is at most ${ATTESTATION_MAX_BYTES} bytes`);
    const file = await this.availableFile(applicationId, version, fileId);
    const isBundle = 'mediaType' in body;
    const read = isBundle ? readBundle(body) : { payloadType: body.payloadType, payload: Buffer.from(body.payload, 'base64'), bundle: undefined };
    const statement = readStatement(read.payloadType, read.payload);
    const digestAlgorithm = matchSubject(statement, { sha256Hex: file.checksum!.slice('sha256:'.length), sha512Hex: file.sha512 ? Buffer.from(file.sha512, 'base64').toString('hex') : null });
    if (await this.store.attestations.countAttestations(fileId) >= ATTESTATIONS_PER_FILE_MAX) {
      throw conflict(`a file keeps at most ${ATTESTATIONS_PER_FILE_MAX} attestations`);
    }
    const keys = await this.store.attestations.listAttestationKeys(applicationId);
    const outcome: VerificationOutcome = read.bundle ? this.sigstore.verify(read.bundle, keys) : verifyDsse(body as DsseEnvelope, read.payload, keys);
    const provenance = readProvenance(statement);
    return this.store.attestations.insertAttestation({
      attestationId: newId('att'), applicationId, version, fileId,
      format: isBundle ? 'sigstore-bundle' : 'dsse',
      predicateType: statement.predicateType,
      digestAlgorithm,
      ...provenance,
      verification: outcome.verification, verifiedKeyId: outcome.verifiedKeyId, verificationDetail: outcome.detail,
      document,
      createdAt: new Date(),
    });
  }

  /** A file's attestations, as its vendor sees them (any file of the application, drafts included). */
  async listForFile(applicationId: string, version: string, fileId: string): Promise<Attestation[]> {
    await this.requireApplication(applicationId);
    const file = await this.store.versions.getFile(fileId);
    if (!file || file.applicationId !== applicationId || file.version !== version) throw notFound('file not found');
    return this.store.attestations.listAttestations(fileId);
  }

  /** The attestations of a file a download rule has already granted. */
  listGranted(fileId: string): Promise<Attestation[]> {
    return this.store.attestations.listAttestations(fileId);
  }

  async addKey(applicationId: string, publicKey: string, keyId: string | undefined): Promise<AttestationKey> {
    await this.requireApplication(applicationId);
    const { key, algorithm, fingerprint } = readPublicKey(publicKey);
    const existing = await this.store.attestations.listAttestationKeys(applicationId);
    if (existing.length >= ATTESTATION_KEYS_PER_APPLICATION_MAX) throw conflict(`an application registers at most ${ATTESTATION_KEYS_PER_APPLICATION_MAX} attestation keys`);
    const record: AttestationKey = {
      applicationId, keyId: keyId ?? fingerprint, algorithm,
      publicKeyPem: key.export({ type: 'spki', format: 'pem' }).toString(), createdAt: new Date(),
    };
    if (!await this.store.attestations.addAttestationKey(record)) throw conflict(`the application already has an attestation key ${record.keyId}`);
    return record;
  }

  async listKeys(applicationId: string): Promise<AttestationKey[]> {
    await this.requireApplication(applicationId);
    return this.store.attestations.listAttestationKeys(applicationId);
  }

  /** An application that exists and is not deleted (404 otherwise). */
  private async requireApplication(applicationId: string): Promise<void> {
    if (!await this.store.applications.getApplication(applicationId)) throw notFound('application not found');
  }

  private async availableFile(applicationId: string, version: string, fileId: string): Promise<FileRecord> {
    await this.requireApplication(applicationId);
    const file = await this.store.versions.getFile(fileId);
    if (!file || file.applicationId !== applicationId || file.version !== version || file.status === 'failed') throw notFound('file not found');
    if (file.status !== 'available' || file.checksum === null) throw conflict('the file is not available yet: attest it once its upload is verified');
    return file;
  }
}
