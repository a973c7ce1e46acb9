import { expect } from 'chai';
import { createAdminKey, createApplication, createCustomer } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

describe('GET /v1/me: whose key this is', () => {
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ workers: false });
  });
  after(() => app?.close());

  it('tells a root key it holds every scope for every application', async () => {
    const response = await app.http.get('/v1/me');
    expect(response.status).to.equal(200);
    expect(response.body.data).to.deep.equal({ kind: 'admin', actor: 'root', scopes: ['admin'], applicationIds: null, tiers: app.config.tiers, channels: app.config.channels });
  });

  it("tells a scoped key its own scopes and applications, whatever they are", async () => {
    const { applicationId } = await createApplication(app);
    const issued = await createAdminKey(app, { scopes: ['publish'], applicationIds: [applicationId] });
    const response = await app.http.get('/v1/me', { key: issued.apiKey });
    expect(response.status).to.equal(200);
    expect(response.body.data).to.deep.equal({ kind: 'admin', actor: issued.keyId, scopes: ['publish'], applicationIds: [applicationId], tiers: app.config.tiers, channels: app.config.channels });
  });

  it('tells a customer key its customer, its name and tier, and refuses no key, a wrong key and an inactive customer', async () => {
    const customerName = 'Acme Corp';
    const { customerId, apiKey } = await createCustomer(app, { tier: 'premium', name: customerName });
    const response = await app.http.get('/v1/me', { key: apiKey });
    expect(response.body.data).to.deep.equal({ kind: 'customer', customerId, name: customerName, tier: 'premium', maintenance: null });
    expect((await app.http.get('/v1/me', { key: null })).status).to.equal(401);
    expect((await app.http.get('/v1/me', { key: `${customerId}.wrong` })).status).to.equal(401);
    const inactive = await createCustomer(app, { isActive: false });
    const refused = await app.http.get('/v1/me', { key: inactive.apiKey });
    expect(refused.status).to.equal(403);
    expect(refused.body.error.message).to.match(/inactive/);
  });
});
