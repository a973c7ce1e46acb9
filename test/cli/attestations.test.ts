import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { dsseEnvelope, signingKey, slsaV1Statement } from '../support/attestations';
import { CliUser, errorOf, jsonOf } from '../support/cli-process';
import { startTestApp, TestApp } from '../support/test-app';

describe('bds attestations', function () {
  this.timeout(60_000);
  let app: TestApp;
  let admin: CliUser;
  let customer: CliUser;
  let dir: string;

  before(async () => {
    app = await startTestApp();
    admin = new CliUser({ BDS_URL: app.baseUrl, BDS_API_KEY: app.adminKey });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-attest-'));
  });
  after(async () => {
    admin?.remove();
    customer?.remove();
    await app?.close();
  });

  it('registers a key, adds a signed provenance attestation to a published file, and lists it for the vendor and for a customer', async () => {
    const buyer = await createCustomer(app);
    customer = new CliUser({ BDS_URL: app.baseUrl, BDS_API_KEY: buyer.apiKey });
    const { applicationId } = await createApplication(app, { customerIds: [buyer.customerId] });
    const content = randomBytes(1024);
    const { fileId } = await uploadSmallFile(app, { applicationId, version: '1.0.0', content, fileType: 'MAIN', platform: 'linux', arch: 'x64' });
    const key = signingKey('ed25519');
    fs.writeFileSync(path.join(dir, 'key.pem'), key.publicKeyPem);
    const build = { builderId: 'https://github.com/actions/runner', repository: 'https://github.com/acme/tool', commit: 'f'.repeat(40) };
    const digest = createHash('sha256').update(content).digest('hex');
    fs.writeFileSync(path.join(dir, 'good.json'), JSON.stringify(dsseEnvelope(slsaV1Statement({ sha256: digest }, build), [{ key, keyid: 'ci' }])));
    fs.writeFileSync(path.join(dir, 'wrong.json'), JSON.stringify(dsseEnvelope(slsaV1Statement({ sha256: '0'.repeat(64) }, build), [{ key, keyid: 'ci' }])));

    const registered = await admin.run(['attestations', 'add-key', applicationId, path.join(dir, 'key.pem'), '--key-id', 'ci']);
    expect(registered.code, registered.stderr).to.equal(0);
    expect(registered.stdout).to.include('registered ed25519 key ci');
    const keys = await admin.run(['attestations', 'keys', applicationId, '--json']);
    expect(keys.code, keys.stderr).to.equal(0);
    expect((JSON.parse(keys.stdout) as { keys: { keyId: string; algorithm: string }[] }).keys.map((k) => [k.keyId, k.algorithm])).to.deep.equal([['ci', 'ed25519']]);

    const added = await admin.run(['attestations', 'add', applicationId, '1.0.0', fileId, path.join(dir, 'good.json')]);
    expect(added.code, added.stderr).to.equal(0);
    expect(added.stdout).to.include('verified').and.include(`built by ${build.builderId}, from commit ${build.commit}`);

    const refused = await admin.run(['attestations', 'add', applicationId, '1.0.0', fileId, path.join(dir, 'wrong.json'), '--json']);
    expect(refused.code).to.equal(1);
    expect(errorOf(refused)).to.include({ code: 'ATTESTATION_SUBJECT_MISMATCH' });

    const vendorList = await admin.run(['attestations', 'list', fileId, '--app', applicationId, '--version', '1.0.0', '--json']);
    expect(vendorList.code, vendorList.stderr).to.equal(0);
    const listed = jsonOf<{ attestations: { verification: { status: string }; provenance: { sourceCommit: string } }[] }>(vendorList).attestations;
    expect(listed.map((a) => [a.verification.status, a.provenance.sourceCommit])).to.deep.equal([['verified', build.commit]]);

    const customerList = await customer.run(['attestations', 'list', fileId]);
    expect(customerList.code, customerList.stderr).to.equal(0);
    expect(customerList.stdout).to.include(build.builderId).and.include('verified (ci)');
  });
});
