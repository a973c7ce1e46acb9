import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { createApplication, createCustomer, uploadSmallFile, storageKeyOf } from '../support/factories';
import { dsseEnvelope, signingKey, sigstoreBundle, slsaV02Statement, slsaV1Statement, trustedRootFile } from '../support/attestations';
import { startTestApp, TestApp } from '../support/test-app';

const APPLICATIONS = '/v1/management/applications';
const BUILD = { builderId: 'https://github.com/actions/runner/github-hosted', repository: 'https://github.com/acme/tool', commit: 'c0ffee'.padEnd(40, '1') };

/** Provenance attestations on the store MONGODB_URI names (SQLite without it). */
describe(`provenance attestations (${process.env.MONGODB_URI ? 'MongoDB' : 'SQLite'})`, function () {
  this.timeout(60_000);
  let app: TestApp;
  let applicationId: string;
  let customer: { customerId: string; apiKey: string };
  let content: Buffer;
  let fileId: string;
  let attestationsPath: string;
  const digests = () => ({ sha256: createHash('sha256').update(content).digest('hex'), sha512: createHash('sha512').update(content).digest('hex') });

  before(async () => {
    app = await startTestApp({ env: { SIGSTORE_TRUSTED_ROOT: trustedRootFile() } });
    customer = await createCustomer(app);
    ({ applicationId } = await createApplication(app, { customerIds: [customer.customerId] }));
    content = randomBytes(2048);
    ({ fileId } = await uploadSmallFile(app, { applicationId, version: '1.0.0', content, fileType: 'MAIN', platform: 'windows', arch: 'x64' }));
    attestationsPath = `${APPLICATIONS}/${applicationId}/versions/1.0.0/files/${fileId}/attestations`;
  });
  after(() => app?.close());

  const list = async () => (await app.http.get(attestationsPath)).body.data.attestations as Record<string, any>[];
  const storedBytes = async () => {
    const hash = createHash('sha256');
    for await (const chunk of await app.core.storage.getStream(await storageKeyOf(app, fileId))) hash.update(chunk as Buffer);
    return hash.digest('hex');
  };

  it('adds a DSSE envelope to a published file, verified under a registered Ed25519 key, and a customer who may download it reads it', async () => {
    const key = signingKey('ed25519');
    const registered = await app.http.post(`${APPLICATIONS}/${applicationId}/attestation-keys`, { keyId: 'ci-ed25519', publicKey: key.publicKeyPem });
    expect(registered.status, String(registered.raw)).to.equal(201);
    expect(registered.body.data).to.include({ keyId: 'ci-ed25519', algorithm: 'ed25519' });

    const envelope = dsseEnvelope(slsaV1Statement({ sha256: digests().sha256 }, BUILD), [{ key, keyid: 'ci-ed25519' }]);
    const added = await app.http.post(attestationsPath, envelope);
    expect(added.status, String(added.raw)).to.equal(201);
    expect(added.body.data).to.deep.include({
      fileId, version: '1.0.0', format: 'dsse', predicateType: 'https://slsa.dev/provenance/v1', digestAlgorithm: 'sha256',
      provenance: { builderId: BUILD.builderId, sourceRepository: BUILD.repository, sourceCommit: BUILD.commit },
      verification: { status: 'verified', keyId: 'ci-ed25519', detail: null },
    });
    expect(added.body.data.document).to.deep.equal(envelope);
    expect(await storedBytes()).to.equal(digests().sha256);

    const read = await app.http.get(`/v1/downloads/files/${fileId}/attestations`, { key: customer.apiKey });
    expect(read.status, String(read.raw)).to.equal(200);
    expect(read.body.data.attestations).to.deep.equal([added.body.data]);
  });

  it('verifies an ECDSA P-256 signature with the key named by its fingerprint, and matches a SHA-512 subject; v0.2 provenance is read too', async () => {
    const key = signingKey('ecdsa-p256');
    const registered = await app.http.post(`${APPLICATIONS}/${applicationId}/attestation-keys`, { publicKey: key.publicKeyPem });
    expect(registered.status, String(registered.raw)).to.equal(201);
    expect(registered.body.data.keyId).to.match(/^[0-9a-f]{64}$/);
    const added = await app.http.post(attestationsPath, dsseEnvelope(slsaV02Statement({ sha512: digests().sha512 }, BUILD), [{ key }]));
    expect(added.status, String(added.raw)).to.equal(201);
    expect(added.body.data).to.deep.include({
      digestAlgorithm: 'sha512', predicateType: 'https://slsa.dev/provenance/v0.2',
      provenance: { builderId: BUILD.builderId, sourceRepository: BUILD.repository, sourceCommit: BUILD.commit },
      verification: { status: 'verified', keyId: registered.body.data.keyId, detail: null },
    });
  });

  it('records a signature no registered key verifies as failed, and one by an unregistered key as unverified', async () => {
    const statement = slsaV1Statement({ sha256: digests().sha256 }, BUILD);
    const forged = await app.http.post(attestationsPath, dsseEnvelope(statement, [{ key: signingKey('ed25519'), keyid: 'ci-ed25519' }]));
    expect(forged.status, String(forged.raw)).to.equal(201);
    expect(forged.body.data.verification).to.deep.equal({ status: 'failed', keyId: null, detail: 'no signature verifies under the registered keys' });
    const stranger = await app.http.post(attestationsPath, dsseEnvelope(statement, [{ key: signingKey('ed25519'), keyid: 'someone-else' }]));
    expect(stranger.body.data.verification.status).to.equal('unverified');
  });

  it('verifies a Sigstore bundle (v0.3, public-key hint) offline with @sigstore/verify against the trusted root and the registered key', async () => {
    const key = signingKey('ecdsa-p256');
    expect((await app.http.post(`${APPLICATIONS}/${applicationId}/attestation-keys`, { keyId: 'release-key', publicKey: key.publicKeyPem })).status).to.equal(201);
    const bundle = sigstoreBundle(slsaV1Statement({ sha256: digests().sha256 }, BUILD), key, 'release-key');
    expect(bundle.mediaType).to.equal('application/vnd.dev.sigstore.bundle.v0.3+json');
    const added = await app.http.post(attestationsPath, bundle);
    expect(added.status, String(added.raw)).to.equal(201);
    expect(added.body.data).to.deep.include({ format: 'sigstore-bundle', verification: { status: 'verified', keyId: 'release-key', detail: null } });
    expect(added.body.data.provenance.sourceCommit).to.equal(BUILD.commit);

    const otherKey = signingKey('ecdsa-p256');
    const tampered = await app.http.post(attestationsPath, sigstoreBundle(slsaV1Statement({ sha256: digests().sha256 }, BUILD), otherKey, 'release-key'));
    expect(tampered.status, String(tampered.raw)).to.equal(201);
    expect(tampered.body.data.verification.status).to.equal('failed');
  });

  it('refuses a statement whose subject is not the file, and malformed attestations, changing nothing', async () => {
    const before = await list();
    const key = signingKey('ed25519');
    const other = createHash('sha256').update('other bytes').digest('hex');
    const wrong = await app.http.post(attestationsPath, dsseEnvelope(slsaV1Statement({ sha256: other }, BUILD), [{ key }]));
    expect(wrong.status, String(wrong.raw)).to.equal(422);
    expect(wrong.body.error.code).to.equal('ATTESTATION_SUBJECT_MISMATCH');
    const wrongBundle = await app.http.post(attestationsPath, sigstoreBundle(slsaV1Statement({ sha512: other + other }, BUILD), key, 'release-key'));
    expect(wrongBundle.status).to.equal(422);
    const refusals: [unknown, number][] = [
      [dsseEnvelope({ hello: 'world' }, [{ key }]), 422],
      [dsseEnvelope(slsaV1Statement({ sha256: digests().sha256 }, BUILD), [{ key }], 'text/plain'), 422],
      [{ payloadType: 'application/vnd.in-toto+json', payload: 'not base64!', signatures: [{ sig: 'AA==' }] }, 400],
      [{ payloadType: 'application/vnd.in-toto+json', payload: 'AA==', signatures: [] }, 400],
      [{ mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json', verificationMaterial: {}, dsseEnvelope: {} }, 422],
      [{ mediaType: 'text/plain', verificationMaterial: {}, dsseEnvelope: {} }, 400],
      [{ payloadType: 'x', payload: Buffer.alloc(300 * 1024).toString('base64'), signatures: [{ sig: 'AA==' }] }, 413],
    ];
    for (const [body, status] of refusals) {
      const response = await app.http.post(attestationsPath, body as Record<string, unknown>);
      expect(response.status, String(response.raw).slice(0, 300)).to.equal(status);
    }
    expect(await list()).to.deep.equal(before);
    expect((await app.http.post(`${APPLICATIONS}/${applicationId}/versions/1.0.0/files/file_unknown/attestations`, dsseEnvelope(slsaV1Statement(digests(), BUILD), [{ key }]))).status).to.equal(404);
  });

  it('refuses keys it cannot check signatures with and a key id already registered', async () => {
    const keys = `${APPLICATIONS}/${applicationId}/attestation-keys`;
    const rsa = (await import('node:crypto')).generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect((await app.http.post(keys, { publicKey: rsa })).body.error.code).to.equal('UNSUPPORTED_KEY');
    expect((await app.http.post(keys, { publicKey: 'not a key' })).status).to.equal(422);
    expect((await app.http.post(keys, { keyId: 'ci-ed25519', publicKey: signingKey('ed25519').publicKeyPem })).status).to.equal(409);
    const listed = await app.http.get(keys);
    expect(listed.body.data.keys.map((k: { keyId: string }) => k.keyId)).to.include.members(['ci-ed25519', 'release-key']);
  });

  it("hides a file's attestations from customers the download rules refuse", async () => {
    const stranger = await createCustomer(app);
    const refused = await app.http.get(`/v1/downloads/files/${fileId}/attestations`, { key: stranger.apiKey });
    expect(refused.status).to.equal(404);
    expect((await app.http.get('/v1/downloads/files/file_unknown/attestations', { key: customer.apiKey })).status).to.equal(404);
    const draft = await uploadSmallFile(app, { applicationId, version: '2.0.0-beta', status: 'draft', fileType: 'MAIN', platform: 'windows', arch: 'x64' });
    expect((await app.http.get(`/v1/downloads/files/${draft.fileId}/attestations`, { key: customer.apiKey })).status).to.equal(404);
  });
});
