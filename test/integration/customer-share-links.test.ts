import { expect } from 'chai';
import { createAdminKey, createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/** What the console's customer page uses: customer search, a customer's share links, and the audit log's filters. */
describe("a customer's share links, customer search and audit filters for the vendor's team", function () {
  this.timeout(30_000);
  let app: TestApp;
  let applicationId: string;

  before(async () => {
    app = await startTestApp({ workers: false });
    ({ applicationId } = await createApplication(app));
    await uploadSmallFile(app, { applicationId, version: '1.0.0' });
  });
  after(() => app?.close());

  const links = (customerId: string) => `/v1/management/customers/${customerId}/share-links`;

  it("makes a link on a customer's behalf, lists it with its remaining uses, and revokes it by id", async () => {
    const customer = await createCustomer(app, { tier: 'premium' });
    await app.http.request('PUT', `/v1/management/customers/${customer.customerId}/applications/${applicationId}`, { json: {} });
    const made = await app.http.post(links(customer.customerId), { applicationId, version: 'latest', maxDownloads: 2, expiresInMinutes: 10 });
    expect(made.status).to.equal(201);
    const { shareUrl, token, shareLinkId } = made.body.data;
    expect(shareUrl).to.match(new RegExp(`/v1/downloads/share/${token}$`));
    expect(made.body.data).to.include({ customerId: customer.customerId, version: '1.0.0', maxDownloads: 2, remainingDownloads: 2, revokedAt: null });

    expect((await app.http.get(`/v1/downloads/share/${token}`, { key: null, redirect: 'manual' })).status).to.equal(302);
    const listed = (await app.http.get(links(customer.customerId))).body.data.shareLinks;
    expect(listed).to.have.length(1);
    expect(listed[0]).to.include({ shareLinkId, downloadCount: 1, remainingDownloads: 1 });
    expect(listed[0]).not.to.have.property('token');
    // The customer's own links are listed too, as they are the customer's.
    await app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0' }, { key: customer.apiKey });
    expect((await app.http.get(links(customer.customerId))).body.data.shareLinks).to.have.length(2);

    const revoked = await app.http.delete(`${links(customer.customerId)}/${shareLinkId}`);
    expect(revoked.status).to.equal(200);
    expect((await app.http.get(`/v1/downloads/share/${token}`, { key: null, redirect: 'manual' })).status).to.equal(410);
    expect((await app.http.delete(`${links(customer.customerId)}/${shareLinkId}`)).status).to.equal(404);
    const other = await createCustomer(app);
    expect((await app.http.delete(`${links(other.customerId)}/${listed[0].shareLinkId}`)).status).to.equal(404);
    const audit = (await app.http.get(`/v1/management/audit?action=shareLink.revoke&target=${customer.customerId}/${shareLinkId}`)).body.data.entries;
    // Newest first: the second revocation found nothing to revoke.
    expect(audit.map((entry: { outcome: string }) => entry.outcome)).to.deep.equal(['refused', 'succeeded']);
  });

  it('refuses a link the customer could not make itself, for an inactive customer or an unknown one, and changes nothing', async () => {
    // Without access the application is not found, as the customer's own request would be answered.
    const outsider = await createCustomer(app);
    expect((await app.http.post(links(outsider.customerId), { applicationId, version: '1.0.0' })).status).to.equal(404);
    const inactive = await createCustomer(app, { isActive: false });
    await app.http.request('PUT', `/v1/management/customers/${inactive.customerId}/applications/${applicationId}`, { json: {} });
    expect((await app.http.post(links(inactive.customerId), { applicationId, version: '1.0.0' })).status).to.equal(409);
    expect((await app.http.post(links('nobody-here'), { applicationId, version: '1.0.0' })).status).to.equal(404);
    expect((await app.http.get(links('nobody-here'))).status).to.equal(404);
    for (const customerId of [outsider.customerId, inactive.customerId]) {
      expect((await app.http.get(links(customerId))).body.data.shareLinks).to.deep.equal([]);
    }
  });

  it('lets a read key list links but not make or revoke them, and a key limited to other applications neither', async () => {
    const customer = await createCustomer(app);
    const reader = await createAdminKey(app, { scopes: ['read'] });
    expect((await app.http.get(links(customer.customerId), { key: reader.apiKey })).status).to.equal(200);
    expect((await app.http.post(links(customer.customerId), { applicationId, version: '1.0.0' }, { key: reader.apiKey })).status).to.equal(403);
    const { applicationId: elsewhere } = await createApplication(app);
    const limited = await createAdminKey(app, { scopes: ['manage'], applicationIds: [elsewhere] });
    expect((await app.http.post(links(customer.customerId), { applicationId, version: '1.0.0' }, { key: limited.apiKey })).status).to.equal(403);
  });

  it('finds customers by the start of their id or name, in any case', async () => {
    await createCustomer(app, { customerId: 'searchable-north' });
    await createCustomer(app, { customerId: 'searchable-south' });
    const found = await app.http.get('/v1/management/customers?search=SEARCHABLE-N');
    expect(found.body.data.customers.map((c: { customerId: string }) => c.customerId)).to.deep.equal(['searchable-north']);
    expect(found.body.data.pagination).to.include({ total: 1 });
    expect((await app.http.get('/v1/management/customers?search=')).status).to.equal(400);
    expect((await app.http.get(`/v1/management/customers?search=${'x'.repeat(101)}`)).status).to.equal(400);
  });

  it('filters the audit log by actor and period, and refuses a period that ends before it starts', async () => {
    const key = await createAdminKey(app, { scopes: ['manage'] });
    await app.http.post('/v1/management/customers', { name: 'Audited', tier: 'standard' }, { key: key.apiKey });
    const today = new Date().toISOString().slice(0, 10);
    const byKey = (await app.http.get(`/v1/management/audit?actor=${key.keyId}&from=${today}&to=${today}`)).body.data.entries;
    expect(byKey.map((entry: { action: string; actor: string }) => [entry.action, entry.actor])).to.deep.equal([['customer.create', key.keyId]]);
    expect((await app.http.get(`/v1/management/audit?actor=${key.keyId}&to=2020-01-01`)).body.data.entries).to.deep.equal([]);
    expect((await app.http.get('/v1/management/audit?from=2026-02-02&to=2026-02-01')).status).to.equal(400);
  });
});
