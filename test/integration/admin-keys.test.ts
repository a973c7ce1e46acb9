import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { issueAdminKey } from '../../shared/api-keys';
import { hashSecret } from '../../shared/secrets';
import { DedicatedRedis, startDedicatedRedis } from '../support/dedicated-redis';
import { createAdminKey, createApplication } from '../support/factories';
import { pollUntil } from '../support/poll';
import { adminKey } from '../support/records';
import { startTestApp, TestApp } from '../support/test-app';

const ADMIN_KEYS = '/v1/management/apikeys';

describe('scoped admin keys', () => {
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ workers: false, captureLogs: true });
  });
  after(() => app?.close());

  const listed = async () => (await app.http.get(ADMIN_KEYS)).body.data.apiKeys as Array<Record<string, unknown>>;

  it('issues a key once, keeps only its SHA-256, and lists it without the key or its hash', async () => {
    const { applicationId } = await createApplication(app);
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const issued = await app.http.post(ADMIN_KEYS, { name: 'CI', scopes: ['publish', 'read'], applicationIds: [applicationId], expiresAt });
    expect(issued.status, issued.raw.toString()).to.equal(201);
    const { apiKey, keyId, prefix } = issued.body.data;
    expect(apiKey).to.match(/^adm_[A-Za-z0-9_-]{43}$/);
    expect(prefix).to.equal(apiKey.slice(0, 12));
    expect(issued.body.data).to.deep.include({ name: 'CI', scopes: ['publish', 'read'], applicationIds: [applicationId], expiresAt, lastUsedAt: null });

    const stored = await app.core.store.accounts.findAdminKeyByHash(hashSecret(apiKey));
    expect(stored?.keyId).to.equal(keyId);
    const { apiKey: _shownOnce, ...record } = issued.body.data;
    expect((await listed()).find((key) => key.keyId === keyId)).to.deep.equal(record);
    expect(Object.keys(record)).to.have.members(['keyId', 'name', 'prefix', 'scopes', 'applicationIds', 'createdAt', 'expiresAt', 'lastUsedAt']);
    // Nowhere at rest (the store's files) nor in the logs.
    for (const file of filesUnder(app.config.dataDir)) expect(fs.readFileSync(file).includes(apiKey), file).to.equal(false);
    expect(JSON.stringify(app.logs)).to.not.include(apiKey);
  });

  it('lets a key do what its scopes allow, and refuses the rest with 403', async () => {
    const reader = await createAdminKey(app, { scopes: ['read'] });
    expect((await app.http.get('/v1/management/applications', { key: reader.apiKey })).status).to.equal(200);
    const refused = await app.http.post('/v1/management/applications', { applicationId: 'refused-app', name: 'x' }, { key: reader.apiKey });
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.deep.equal({ code: 'FORBIDDEN', message: 'this API key does not have the manage scope' });
    expect((await app.http.get('/v1/management/applications/refused-app')).status).to.equal(404);
    expect((await app.http.get(ADMIN_KEYS, { key: reader.apiKey })).status).to.equal(403);
    const administrator = await createAdminKey(app, { scopes: ['admin'] });
    expect((await app.http.get(ADMIN_KEYS, { key: administrator.apiKey })).status).to.equal(200);
    expect((await app.http.get('/v1/downloads/url?applicationId=x&version=1', { key: administrator.apiKey })).status).to.equal(403);
  });

  it('refuses an expired key with 401', async () => {
    const issued = issueAdminKey();
    await app.core.store.accounts.createAdminKey(adminKey('adk_expired', {
      keyHash: issued.keyHash, prefix: issued.prefix, scopes: ['admin'], createdAt: new Date(Date.now() - 120_000), expiresAt: new Date(Date.now() - 60_000),
    }));
    const refused = await app.http.get(ADMIN_KEYS, { key: issued.apiKey });
    expect(refused.status).to.equal(401);
    expect(refused.body.error.message).to.equal('this API key has expired');
  });

  it('revokes a key: the next request with it is 401, a second revocation 404, and it leaves the listing', async () => {
    const key = await createAdminKey(app, { scopes: ['read'] });
    expect((await app.http.get('/v1/activity', { key: key.apiKey })).status).to.equal(200);
    const revoked = await app.http.delete(`${ADMIN_KEYS}/${key.keyId}`);
    expect(revoked.status, revoked.raw.toString()).to.equal(200);
    expect(revoked.body.data.keyId).to.equal(key.keyId);
    expect((await app.http.get('/v1/activity', { key: key.apiKey })).status).to.equal(401);
    expect((await app.http.delete(`${ADMIN_KEYS}/${key.keyId}`)).status).to.equal(404);
    expect((await app.http.delete(`${ADMIN_KEYS}/adk_unknown`)).status).to.equal(404);
    expect((await listed()).map((k) => k.keyId)).to.not.include(key.keyId);
  });

  it('records when a key was last used', async () => {
    const key = await createAdminKey(app, { scopes: ['read'] });
    expect((await listed()).find((k) => k.keyId === key.keyId)?.lastUsedAt).to.equal(null);
    for (let i = 0; i < 5; i += 1) expect((await app.http.get('/v1/activity', { key: key.apiKey })).status).to.equal(200);
    const lastUsedAt = await pollUntil(async () => (await listed()).find((k) => k.keyId === key.keyId)?.lastUsedAt ?? undefined, 5_000, 'lastUsedAt recorded');
    expect(Date.parse(lastUsedAt as string)).to.be.closeTo(Date.now(), 60_000);
  });

  it('refuses what is not a valid key request with 400, issuing nothing', async () => {
    const { applicationId } = await createApplication(app);
    const before = await listed();
    const invalid: Array<[unknown, string]> = [
      [{ scopes: ['read'] }, 'name'],
      [{ name: 'k' }, 'scopes'],
      [{ name: 'k', scopes: [] }, 'scopes'],
      [{ name: 'k', scopes: ['everything'] }, 'scopes.0'],
      [{ name: 'k', scopes: ['read', 'read'] }, 'scopes'],
      [{ name: 'k', scopes: ['admin'], applicationIds: [applicationId] }, 'applicationIds'],
      [{ name: 'k', scopes: ['read'], applicationIds: [] }, 'applicationIds'],
      [{ name: 'k', scopes: ['read'], applicationIds: ['no-such-application'] }, 'applicationIds'],
      [{ name: 'k', scopes: ['read'], expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
      [{ name: 'k', scopes: ['read'], expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ name: 'k', scopes: ['read'], expiresAt: '9999-01-01T00:00:00Z' }, 'expiresAt'],
      [{ name: 'k', scopes: ['read'], keyHash: 'x' }, 'keyHash'],
      [[], '(body)'],
    ];
    for (const [body, field] of invalid) {
      const response = await app.http.post(ADMIN_KEYS, body);
      expect(response.status, JSON.stringify(body)).to.equal(400);
      expect(response.body.error.details.map((d: { field: string }) => d.field), JSON.stringify(body)).to.include(field);
    }
    expect(await listed()).to.deep.equal(before);
  });
});

describe('scoped admin keys while Redis is down', () => {
  let redis: DedicatedRedis;
  let app: TestApp;

  before(async () => {
    redis = await startDedicatedRedis();
    app = await startTestApp({ workers: false, env: { REDIS_URL: redis.url } });
  });
  after(async () => {
    await app?.close();
    await redis?.dispose();
  });

  it('still authenticate (admin authentication needs no Redis), and a revocation is refused with nothing changed', async () => {
    const key = await createAdminKey(app, { scopes: ['read'] });
    expect((await app.http.get('/v1/management/applications', { key: key.apiKey })).status).to.equal(200);
    await redis.stop();
    try {
      expect((await app.http.get('/v1/management/applications', { key: key.apiKey })).status).to.equal(200);
      const refused = await app.http.delete(`${ADMIN_KEYS}/${key.keyId}`);
      expect(refused.status).to.equal(503);
      expect((await app.core.store.accounts.listAdminKeys()).map((k) => k.keyId)).to.include(key.keyId);
      expect((await app.http.get('/v1/management/applications', { key: key.apiKey })).status).to.equal(200);
    } finally {
      await redis.restart();
    }
    await pollUntil(async () => ((await app.http.delete(`${ADMIN_KEYS}/${key.keyId}`)).status === 200 ? true : undefined), 10_000, 'revocation once Redis is back');
    expect((await app.http.get('/v1/management/applications', { key: key.apiKey })).status).to.equal(401);
  });
});

function filesUnder(root: string): string[] {
  return fs.readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}
