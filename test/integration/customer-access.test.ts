import { expect } from 'chai';
import { createAdminKey, createApplication, createCustomer, sha256, uploadSmallFile } from '../support/factories';
import { HttpResult } from '../support/http-client';
import { startTestApp, TestApp } from '../support/test-app';

const access = (customerId: string, applicationId: string) => `/v1/management/customers/${customerId}/applications/${applicationId}`;

function dataOf(result: HttpResult, status = 200): any {
  expect(result.status, result.raw.toString()).to.equal(status);
  return result.body.data;
}

function errorOf(result: HttpResult, status: number): { code: string; message: string } {
  expect(result.status, result.raw.toString()).to.equal(status);
  return result.body.error;
}

describe("one customer's access to one application (/v1/management/customers/:customerId/applications/:applicationId)", () => {
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ workers: false });
  });
  after(() => app?.close());

  async function releasedApplication() {
    const { applicationId } = await createApplication(app);
    await uploadSmallFile(app, { applicationId, version: '1.0.0', fileName: 'setup.exe' });
    return applicationId;
  }
  const downloadStatus = async (apiKey: string, applicationId: string) =>
    (await app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=latest`, { key: apiKey })).status;

  it('grants one customer, keeping the others, and the next download sees it; revoking takes it away', async () => {
    const applicationId = await releasedApplication();
    const first = await createCustomer(app);
    const second = await createCustomer(app);
    dataOf(await app.http.patch(`/v1/management/applications/${applicationId}`, { customerIds: [first.customerId] }));
    expect(await downloadStatus(second.apiKey, applicationId)).to.equal(404);

    const granted = dataOf(await app.http.request('PUT', access(second.customerId, applicationId)));
    expect(granted.customerIds).to.deep.equal([first.customerId, second.customerId]);
    expect(await downloadStatus(second.apiKey, applicationId)).to.equal(200);
    expect(dataOf(await app.http.request('PUT', access(second.customerId, applicationId))).customerIds).to.deep.equal(granted.customerIds);

    const revoked = dataOf(await app.http.delete(access(first.customerId, applicationId)));
    expect(revoked.customerIds).to.deep.equal([second.customerId]);
    expect(await downloadStatus(first.apiKey, applicationId)).to.equal(404);
    expect(await downloadStatus(second.apiKey, applicationId)).to.equal(200);
    expect(dataOf(await app.http.delete(access(first.customerId, applicationId))).customerIds).to.deep.equal([second.customerId]);
  });

  it('refuses an unknown customer or application with 404, and a body with fields with 400, changing nothing', async () => {
    const applicationId = await releasedApplication();
    const customer = await createCustomer(app);
    expect(errorOf(await app.http.request('PUT', access('cust-unknown', applicationId)), 404).message).to.equal('customer cust-unknown not found');
    expect(errorOf(await app.http.delete(access('cust-unknown', applicationId)), 404).message).to.equal('customer cust-unknown not found');
    expect(errorOf(await app.http.request('PUT', access(customer.customerId, 'app-unknown')), 404).message).to.equal('application app-unknown not found');
    expect(errorOf(await app.http.request('PUT', access(customer.customerId, applicationId), { json: { customerIds: [] } }), 400).code).to.equal('VALIDATION_ERROR');
    expect(dataOf(await app.http.get(`/v1/management/applications/${applicationId}`)).customerIds).to.deep.equal([]);
  });

  it('takes the manage scope, is limited to the key\'s applications, and is audited', async () => {
    const applicationId = await releasedApplication();
    const other = await releasedApplication();
    const customer = await createCustomer(app);
    const reader = await createAdminKey(app, { scopes: ['read'] });
    const limited = await createAdminKey(app, { scopes: ['manage'], applicationIds: [applicationId] });
    errorOf(await app.http.request('PUT', access(customer.customerId, applicationId), { key: reader.apiKey }), 403);
    errorOf(await app.http.request('PUT', access(customer.customerId, other), { key: limited.apiKey }), 403);
    const granted = await app.http.request('PUT', access(customer.customerId, applicationId), { key: limited.apiKey });
    dataOf(granted);
    const entries = dataOf(await app.http.get('/v1/management/audit?limit=20')).entries as Array<Record<string, unknown>>;
    expect(entries.find((entry) => entry.requestId === granted.headers.get('x-request-id'))).to.deep.include({
      actor: limited.keyId, action: 'customerAccess.grant', target: `${customer.customerId}/${applicationId}`, applicationId, status: 200,
    });
  });
});

describe('an admin download URL (/v1/management/applications/:applicationId/versions/:version/files/:fileId/download)', () => {
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ workers: false });
  });
  after(() => app?.close());

  it('signs any available file, a draft\'s included, without counting a download', async () => {
    const customer = await createCustomer(app);
    const { applicationId } = await createApplication(app, { customerIds: [customer.customerId] });
    const published = await uploadSmallFile(app, { applicationId, version: '1.0.0', fileName: 'old-setup.exe' });
    const content = Buffer.from('draft installer bytes');
    const uploaded = await uploadSmallFile(app, { applicationId, version: '2.0.0', content, fileName: 'setup.exe', status: 'draft' });
    const path = `/v1/management/applications/${applicationId}/versions/2.0.0/files/${uploaded.fileId}/download`;
    const signed = dataOf(await app.http.get(path));
    expect(signed).to.include({ fileName: 'setup.exe', fileSize: content.length, fileId: uploaded.fileId, version: '2.0.0', checksum: `sha256:${sha256(content)}` });
    const fetched = await fetch(signed.downloadUrl);
    expect(Buffer.from(await fetched.arrayBuffer())).to.deep.equal(content);
    dataOf(await app.http.get(`/v1/management/applications/${applicationId}/versions/1.0.0/files/${published.fileId}/download`));
    // A customer's download of the same application is recorded; the admin's two are not.
    dataOf(await app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=1.0.0`, { key: customer.apiKey }));
    const downloads = dataOf(await app.http.get(`/v1/activity?applicationId=${applicationId}&type=download&limit=100`)).activities;
    expect(downloads.map((entry: { customerId: string }) => entry.customerId)).to.deep.equal([customer.customerId]);
  });

  it('answers 404 for a file of another version or application, and refuses a customer key', async () => {
    const { applicationId } = await createApplication(app);
    const uploaded = await uploadSmallFile(app, { applicationId, version: '1.0.0' });
    errorOf(await app.http.get(`/v1/management/applications/${applicationId}/versions/1.0.1/files/${uploaded.fileId}/download`), 404);
    const { applicationId: other } = await createApplication(app);
    errorOf(await app.http.get(`/v1/management/applications/${other}/versions/1.0.0/files/${uploaded.fileId}/download`), 404);
    const customer = await createCustomer(app);
    errorOf(await app.http.get(`/v1/management/applications/${applicationId}/versions/1.0.0/files/${uploaded.fileId}/download`, { key: customer.apiKey }), 403);
  });
});
