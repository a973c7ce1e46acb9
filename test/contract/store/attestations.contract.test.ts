import { expect } from 'chai';
import type { Attestation, AttestationKey } from '../../../shared/store/models';
import type { Store } from '../../../shared/store/store';
import { at } from '../../support/records';
import { expectDuplicate } from '../../support/store-expectations';
import { describeStoreContract } from './harness';

const key = (keyId: string, overrides: Partial<AttestationKey> = {}): AttestationKey => ({
  applicationId: 'app_1', keyId, algorithm: 'ed25519', publicKeyPem: `-----BEGIN PUBLIC KEY-----\n${keyId}\n-----END PUBLIC KEY-----\n`, createdAt: at(1), ...overrides,
});

const attestation = (attestationId: string, overrides: Partial<Attestation> = {}): Attestation => ({
  attestationId, applicationId: 'app_1', version: '1.0.0', fileId: 'file_1', format: 'dsse', predicateType: 'https://slsa.dev/provenance/v1',
  digestAlgorithm: 'sha256', builderId: 'https://github.com/actions/runner', sourceRepository: 'git+https://example.com/app', sourceCommit: 'a'.repeat(40),
  verification: 'verified', verifiedKeyId: 'k1', verificationDetail: null, document: '{"payloadType":"application/vnd.in-toto+json"}', createdAt: at(1), ...overrides,
});

/** The AttestationStore port: provenance attestations and the keys that check them. */
describeStoreContract('attestations', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  it('registers a key once per application and key id, listing them oldest first', async () => {
    expect(await store.attestations.addAttestationKey(key('k2', { createdAt: at(2) }))).to.equal(true);
    expect(await store.attestations.addAttestationKey(key('k1', { algorithm: 'ecdsa-p256' }))).to.equal(true);
    expect(await store.attestations.addAttestationKey(key('k1', { publicKeyPem: 'other', createdAt: at(3) }))).to.equal(false);
    expect(await store.attestations.addAttestationKey(key('k1', { applicationId: 'app_2' }))).to.equal(true);
    expect(await store.attestations.listAttestationKeys('app_1')).to.deep.equal([key('k1', { algorithm: 'ecdsa-p256' }), key('k2', { createdAt: at(2) })]);
    expect(await store.attestations.listAttestationKeys('app_3')).to.deep.equal([]);
  });

  it("stores attestations as given and lists a file's oldest first, refusing a duplicate id", async () => {
    const unverified = attestation('att_2', { createdAt: at(0), format: 'sigstore-bundle', digestAlgorithm: 'sha512', builderId: null, sourceRepository: null,
      sourceCommit: null, verification: 'unverified', verifiedKeyId: null, verificationDetail: 'no key registered' });
    expect(await store.attestations.insertAttestation(attestation('att_1'))).to.deep.equal(attestation('att_1'));
    await store.attestations.insertAttestation(unverified);
    await store.attestations.insertAttestation(attestation('att_3', { fileId: 'file_2' }));
    expect(await store.attestations.listAttestations('file_1')).to.deep.equal([unverified, attestation('att_1')]);
    expect(await store.attestations.countAttestations('file_1')).to.equal(2);
    expect(await store.attestations.countAttestations('file_9')).to.equal(0);
    await expectDuplicate(store.attestations.insertAttestation(attestation('att_1', { fileId: 'file_3' })), 'attestationId');
    expect(await store.attestations.listAttestations('file_3')).to.deep.equal([]);
  });
});
