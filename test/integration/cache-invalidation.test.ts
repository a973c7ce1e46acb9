import { expect } from 'chai';
import { rolloutBucket } from '../../shared/releases/rollout';
import { startDedicatedRedis, DedicatedRedis } from '../support/dedicated-redis';
import { createAdminKey, createApplication, createCustomer, storeRelease, uploadSmallFile } from '../support/factories';
import { HttpClient } from '../support/http-client';
import { SecondGateway, startSecondGateway, startTestApp, TestApp } from '../support/test-app';

/**
 * Two gateway processes' worth of gateways on one store and one Redis: a change made through one is
 * seen by the very next request on the other, although both cache keys and catalog records in process.
 */
describe('in-process caches across gateways', () => {
  let app: TestApp;
  let second: SecondGateway;
  let a: HttpClient;
  let b: HttpClient;

  before(async () => {
    app = await startTestApp({ workers: false });
    second = await startSecondGateway(app);
    a = app.http;
    b = second.http;
  });
  after(async () => {
    await second.close();
    await app.close();
  });

  async function scenario(tier = 'standard') {
    const customer = await createCustomer(app, { tier });
    const { applicationId } = await createApplication(app, { customerIds: [customer.customerId] });
    await uploadSmallFile(app, { applicationId, version: '1' });
    const download = (client: HttpClient) => client.get(`/v1/downloads/url?applicationId=${applicationId}&version=1`, { key: customer.apiKey });
    // Twice, so the second answer comes from the caches.
    expect((await download(b)).status).to.equal(200);
    expect((await download(b)).status).to.equal(200);
    return { customer, applicationId, download };
  }

  it('deactivation and reactivation', async () => {
    const { customer, download } = await scenario();
    await a.patch(`/v1/management/customers/${customer.customerId}`, { isActive: false });
    expect((await download(b)).status).to.equal(403);
    await a.patch(`/v1/management/customers/${customer.customerId}`, { isActive: true });
    expect((await download(b)).status).to.equal(200);
  });

  it('a tier change of the customer', async () => {
    const { customer, applicationId, download } = await scenario('premium');
    await a.patch(`/v1/management/applications/${applicationId}/versions/1`, { requiredTier: 'premium' });
    expect((await download(b)).status).to.equal(200);
    await a.patch(`/v1/management/customers/${customer.customerId}`, { tier: 'free' });
    expect((await download(b)).status).to.equal(403);
  });

  it('key revocation', async () => {
    const { customer, download } = await scenario();
    const [key] = await app.core.store.accounts.listApiKeys(customer.customerId);
    await a.delete(`/v1/management/customers/${customer.customerId}/apikeys/${key.keyId}`);
    expect((await download(b)).status).to.equal(401);
  });

  it('application deletion, restore and access removal', async () => {
    const { applicationId, download } = await scenario();
    await a.delete(`/v1/management/applications/${applicationId}`);
    expect((await download(b)).status).to.equal(404);
    await a.post(`/v1/management/applications/${applicationId}/restore`);
    expect((await download(b)).status).to.equal(200);
    await a.patch(`/v1/management/applications/${applicationId}`, { customerIds: [] });
    expect((await download(b)).status).to.equal(404);
  });

  it('a version\'s required tier rising', async () => {
    const { applicationId, download } = await scenario();
    await a.patch(`/v1/management/applications/${applicationId}/versions/1`, { requiredTier: 'enterprise' });
    expect((await download(b)).status).to.equal(403);
  });

  it('a tier set by a later upload to the same version', async () => {
    const { applicationId, download } = await scenario();
    await uploadSmallFile(app, { applicationId, version: '1', fileName: 'extra.dll', fileType: 'DEPENDENCY', requiredTier: 'enterprise' });
    expect((await download(b)).status).to.equal(403);
  });

  it('admin key revocation', async () => {
    const key = await createAdminKey(app, { scopes: ['read'] });
    const read = (client: HttpClient) => client.get('/v1/activity', { key: key.apiKey });
    // Twice, so the second answer comes from the cache.
    expect((await read(b)).status).to.equal(200);
    expect((await read(b)).status).to.equal(200);
    expect((await a.delete(`/v1/management/apikeys/${key.keyId}`)).status).to.equal(200);
    expect((await read(b)).status).to.equal(401);
  });

  it('a version yanked, un-yanked, moved to another channel or staged, and a draft published', async () => {
    const { customer, applicationId, download } = await scenario();
    await uploadSmallFile(app, { applicationId, version: '2' });
    const latest = async (client: HttpClient, query = '') => {
      const res = await client.get(`/v1/downloads/url?applicationId=${applicationId}&version=latest${query}`, { key: customer.apiKey });
      return res.status === 200 ? res.body.data.version : res.status;
    };
    const listed = async (client: HttpClient) => (await client.get(`/v1/downloads/releases?applicationId=${applicationId}`, { key: customer.apiKey }))
      .body.data.releases.map((r: { version: string }) => r.version);
    expect(await latest(b)).to.equal('2');
    expect(await listed(b)).to.deep.equal(['2', '1']);

    await a.patch(`/v1/management/applications/${applicationId}/versions/1`, { status: 'yanked' });
    expect((await download(b)).status).to.equal(410);
    expect(await listed(b)).to.deep.equal(['2']);
    await a.patch(`/v1/management/applications/${applicationId}/versions/1`, { status: 'published' });
    expect((await download(b)).status).to.equal(200);

    await a.patch(`/v1/management/applications/${applicationId}/versions/2`, { channel: 'beta' });
    expect(await latest(b)).to.equal('1');
    expect(await latest(b, '&channel=beta')).to.equal('2');
    await a.patch(`/v1/management/applications/${applicationId}/versions/2`, { channel: 'stable', rolloutPercentage: 1 });
    expect(await latest(b)).to.equal(rolloutBucket(customer.customerId, applicationId, '2') < 1 ? '2' : '1');
    await a.patch(`/v1/management/applications/${applicationId}/versions/2`, { rolloutPercentage: 100 });
    expect(await latest(b)).to.equal('2');

    await storeRelease(app.core.store, applicationId, '3', { status: 'draft' });
    expect(await latest(b)).to.equal('2');
    await a.patch(`/v1/management/applications/${applicationId}/versions/3`, { status: 'published' });
    expect(await latest(b)).to.equal('3');
  });

  it('share-link revocation', async () => {
    const { customer, applicationId } = await scenario();
    const { token } = (await b.post('/v1/downloads/share', { applicationId, version: '1' }, { key: customer.apiKey })).body.data;
    expect((await b.get(`/v1/downloads/share/${token}`, { key: null })).status).to.equal(302);
    expect((await b.get(`/v1/downloads/share/${token}`, { key: null })).status).to.equal(302);
    await a.delete(`/v1/downloads/share/${token}`, { key: customer.apiKey });
    expect((await b.get(`/v1/downloads/share/${token}`, { key: null })).status).to.equal(410);
  });
});

describe('in-process caches without Redis', () => {
  let redis: DedicatedRedis;
  let app: TestApp;
  before(async () => {
    redis = await startDedicatedRedis();
    app = await startTestApp({ workers: false, env: { REDIS_URL: redis.url } });
  });
  after(async () => {
    await app.close();
    await redis.dispose();
  });

  it('are not served once invalidations can no longer arrive', async () => {
    const customer = await createCustomer(app);
    const { applicationId } = await createApplication(app, { customerIds: [customer.customerId] });
    await uploadSmallFile(app, { applicationId, version: '1' });
    const download = () => app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=1`, { key: customer.apiKey });
    expect((await download()).status).to.equal(200);
    expect((await download()).status).to.equal(200);
    await redis.stop();
    const started = Date.now();
    const res = await download();
    expect(res.status).to.equal(503);
    expect(Date.now() - started).to.be.lessThan(5_000);
  });
});
