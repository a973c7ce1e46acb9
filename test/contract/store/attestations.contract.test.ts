import { expect } from 'chai';
import type { Attestation, AttestationKey } from '../../../shared/store/models';
import type { Store } from '../../../shared/store/store';
import { application, at } from '../../support/records';
import { storeRelease } from '../../support/factories';
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

/** A file's attestations go with it: a draft's deleted file or version, a purged application's releases. */
describeStoreContract('attestations of deleted files', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  it('removes the attestations of a deleted draft file and version and of purged releases, and no others', async () => {
    const [draftFile] = await storeRelease(store, 'app_1', '0.9.0', { status: 'draft', files: [{ fileName: 'a.bin' }, { fileName: 'b.bin', fileType: 'OTHER' }] });
    const [published] = await storeRelease(store, 'app_1', '1.0.0');
    const [otherApp] = await storeRelease(store, 'app_2', '1.0.0');
    const [secondDraft] = await storeRelease(store, 'app_1', '0.8.0', { status: 'draft' });
    const add = (attestationId: string, applicationId: string, version: string, fileId: string) =>
      store.attestations.insertAttestation(attestation(attestationId, { applicationId, version, fileId }));
    await add('att_draft', 'app_1', '0.9.0', draftFile);
    await add('att_second', 'app_1', '0.8.0', secondDraft);
    await add('att_published', 'app_1', '1.0.0', published);
    await add('att_other', 'app_2', '1.0.0', otherApp);

    expect((await store.versions.deleteFile(draftFile)).outcome).to.equal('deleted');
    expect(await store.attestations.countAttestations(draftFile)).to.equal(0);
    expect((await store.versions.deleteVersion('app_1', '0.8.0')).outcome).to.equal('deleted');
    expect(await store.attestations.countAttestations(secondDraft)).to.equal(0);
    expect((await store.versions.deleteFile(published)).outcome).to.equal('refused');
    expect(await store.attestations.countAttestations(published)).to.equal(1);

    await store.applications.createApplication(application('app_1'));
    await store.applications.softDeleteApplication('app_1', at(1));
    expect((await store.applications.startReleasePurge('app_1', at(2), at(3))).outcome).to.equal('started');
    await store.versions.deletePurgedReleases('app_1');
    expect(await store.attestations.countAttestations(published)).to.equal(0);
    expect(await store.attestations.countAttestations(otherApp)).to.equal(1);
  });
});
