import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import IORedis from 'ioredis';
import { invalidationChannel } from '../../shared/cache/invalidation-bus';
import { DedicatedRedis, startDedicatedRedis } from '../support/dedicated-redis';
import { createApplication, createCustomer, smallUploadForm, uploadSmallFile } from '../support/factories';
import { testRedisUrl } from '../support/hooks';
import type { HttpResult } from '../support/http-client';
import { RawOutcome, sendRaw } from '../support/raw-http';
import { startTestApp, TestApp } from '../support/test-app';

const withKey = (key: string, headers: Record<string, string> = {}) => ({ headers: { 'idempotency-key': key, ...headers } });

/** The same status and body, the second marked as replayed. */
function expectReplay(first: HttpResult, repeat: HttpResult): void {
  expect(repeat.status, repeat.raw.toString()).to.equal(first.status);
  expect(repeat.raw.toString()).to.equal(first.raw.toString());
  expect(repeat.headers.get('content-type')).to.equal('application/json; charset=utf-8');
  expect(repeat.headers.get('idempotent-replayed')).to.equal('true');
  expect(first.headers.get('idempotent-replayed')).to.equal(null);
}

describe('idempotency keys', () => {
  let app: TestApp;
  let redis: IORedis;
  const otherAdminKey = `adm_${randomBytes(24).toString('base64url')}`;

  before(async () => {
    app = await startTestApp({ workers: false, env: { ADMIN_API_KEYS: `adm_${randomBytes(24).toString('base64url')},${otherAdminKey}` } });
    redis = new IORedis(testRedisUrl());
  });
  after(async () => {
    redis?.disconnect();
    await app?.close();
  });

  const customerCount = async () => (await app.http.get('/v1/management/customers')).body.data.pagination.total as number;
  /** What Redis holds for the app's idempotency keys. */
  const storedRecords = async () => {
    const keys = await redis.keys(`${app.config.redisPrefix}:idempotency:*`);
    return keys.length === 0 ? [] : (await redis.mget(keys)) as string[];
  };

  it('answers a repeated customer creation with the first answer, its new API key included, and creates one customer', async () => {
    const before = await customerCount();
    const key = randomUUID();
    const first = await app.http.post('/v1/management/customers', { name: 'Acme Licensing', tier: 'standard' }, withKey(key));
    expect(first.status, first.raw.toString()).to.equal(201);
    const repeat = await app.http.post('/v1/management/customers', { tier: 'standard', name: 'Acme Licensing' }, withKey(key));
    expectReplay(first, repeat);
    expect(await customerCount()).to.equal(before + 1);
    // The replayed key is the one issued, and it works.
    const { apiKey } = repeat.body.data;
    expect((await app.http.get('/v1/downloads/url?applicationId=nothing-here&version=1', { key: apiKey })).status).to.equal(404);
  });

  it('keeps answers sealed at rest: neither the new API key nor anything else of the answer is readable in Redis', async () => {
    const key = randomUUID();
    const created = await app.http.post('/v1/management/customers', { name: 'Sealed Answers Ltd', tier: 'premium' }, withKey(key));
    expect(created.status).to.equal(201);
    const { apiKey, customerId, keyId } = created.body.data;
    const stored = (await storedRecords()).join('\n');
    expect(stored).to.include('"state":"done"');
    for (const secretOrField of [apiKey, apiKey.split('.')[1], customerId, keyId, 'Sealed Answers Ltd', key]) expect(stored).to.not.include(secretOrField);
    // Kept for a day.
    const [recordKey] = await redis.keys(`${app.config.redisPrefix}:idempotency:*`);
    expect(await redis.pttl(recordKey)).to.be.within(23 * 3600_000, 24 * 3600_000);
  });

  it('applies to routes of every area without code of their own: a scoped admin key issued once, its secret sealed', async () => {
    const key = randomUUID();
    const issue = () => app.http.post('/v1/management/apikeys', { name: 'Release pipeline', scopes: ['publish'] }, withKey(key));
    const first = await issue();
    expect(first.status, first.raw.toString()).to.equal(201);
    expectReplay(first, await issue());
    const keys = (await app.http.get('/v1/management/apikeys')).body.data.apiKeys as { name: string }[];
    expect(keys.filter((listed) => listed.name === 'Release pipeline')).to.have.length(1);
    expect((await storedRecords()).join('\n')).to.not.include(first.body.data.apiKey);
  });

  it('refuses the same key with another request with 422, running nothing', async () => {
    const key = randomUUID();
    expect((await app.http.post('/v1/management/customers', { name: 'First', tier: 'free' }, withKey(key))).status).to.equal(201);
    const before = await customerCount();
    for (const [method, path, body] of [
      ['POST', '/v1/management/customers', { name: 'Second', tier: 'free' }],
      ['POST', '/v1/management/customers', { name: 'First', tier: 'standard' }],
      ['POST', '/v1/management/applications', { applicationId: `app-${randomBytes(4).toString('hex')}`, name: 'First' }],
    ] as const) {
      const refused = await app.http.request(method, path, { json: body, ...withKey(key) });
      expect(refused.status, refused.raw.toString()).to.equal(422);
      expect(refused.body.error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
    }
    expect(await customerCount()).to.equal(before);
  });

  it('keeps keys per caller: another admin key, or another customer, with the same key runs its own request', async () => {
    const key = randomUUID();
    const before = await customerCount();
    const mine = await app.http.post('/v1/management/customers', { name: 'Per caller', tier: 'free' }, withKey(key));
    const theirs = await app.http.post('/v1/management/customers', { name: 'Per caller', tier: 'free' }, { key: otherAdminKey, ...withKey(key) });
    expect([mine.status, theirs.status]).to.deep.equal([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).to.equal(null);
    expect(theirs.body.data.customerId).to.not.equal(mine.body.data.customerId);
    expect(await customerCount()).to.equal(before + 2);
  });

  it('replays an error the first request was answered with', async () => {
    const customerId = `idem-${randomBytes(4).toString('hex')}`;
    expect((await app.http.post('/v1/management/customers', { customerId, name: 'Taken', tier: 'free' })).status).to.equal(201);
    const key = randomUUID();
    const first = await app.http.post('/v1/management/customers', { customerId, name: 'Taken', tier: 'free' }, withKey(key));
    expect(first.status).to.equal(409);
    expectReplay(first, await app.http.post('/v1/management/customers', { customerId, name: 'Taken', tier: 'free' }, withKey(key)));
  });

  it('answers a repeat with 409 while the first request is still running, then with its answer', async () => {
    const { applicationId } = await createApplication(app);
    expect((await app.http.delete(`/v1/management/applications/${applicationId}`)).status).to.equal(200);
    // A subscriber that never confirms holds every cache change for the bus's confirmation timeout:
    // a restore is then still running when its hold is seen.
    const silent = new IORedis(testRedisUrl());
    try {
      await silent.subscribe(invalidationChannel(app.config.redisPrefix));
      const held = new Promise<void>((resolve) => silent.on('message', (_channel: string, message: string) => {
        if (message.includes('"hold"') && message.includes(applicationId)) resolve();
      }));
      const key = randomUUID();
      const restore = () => app.http.post(`/v1/management/applications/${applicationId}/restore`, undefined, withKey(key));
      const first = restore();
      await held;
      const meanwhile = await restore();
      expect(meanwhile.status, meanwhile.raw.toString()).to.equal(409);
      expect(meanwhile.body.error.code).to.equal('CONFLICT');
      const answered = await first;
      expect(answered.status, answered.raw.toString()).to.equal(200);
      expectReplay(answered, await restore());
    } finally {
      silent.disconnect();
    }
  });

  it('takes the key on a customer creating a share link: one link, the same token again', async () => {
    const customer = await createCustomer(app);
    const { applicationId } = await createApplication(app, { customerIds: [customer.customerId] });
    await uploadSmallFile(app, { applicationId, version: '1.0.0' });
    const key = `"${randomUUID()}"`;
    const share = () => app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0', expiresInMinutes: 10 }, { key: customer.apiKey, ...withKey(key) });
    const first = await share();
    expect(first.status, first.raw.toString()).to.equal(201);
    expectReplay(first, await share());
    // The same key without its quotes is the same key (the IETF draft sends it as a structured-field string).
    expectReplay(first, await app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0', expiresInMinutes: 10 }, { key: customer.apiKey, ...withKey(key.slice(1, -1)) }));
  });

  it('refuses a malformed key with the other problems of the request, and a key on the small upload, storing nothing', async () => {
    const before = await customerCount();
    for (const bad of ['two words', 'x'.repeat(256), 'a"b', '"', 'é']) {
      const refused = await app.http.post('/v1/management/customers', { name: 'Bad key', tier: 'nope' }, withKey(bad));
      expect(refused.status, bad).to.equal(400);
      expect(refused.body.error.details.map((d: { field: string }) => d.field)).to.have.members(['tier', 'Idempotency-Key']);
    }
    expect(await customerCount()).to.equal(before);

    const { applicationId } = await createApplication(app);
    const upload = await app.http.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '1.0.0' }), ...withKey(randomUUID()) });
    expect(upload.status, upload.raw.toString()).to.equal(400);
    expect(upload.body.error.details).to.deep.include({
      field: 'Idempotency-Key',
      message: "is not taken with a streamed body, which cannot be compared with a first request's; a repeated upload is refused on its own (409: its file name is taken)",
    });
    expect((await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions).to.deep.equal([]);
  });

  it('refuses an empty or blank key as malformed, never as a request without one: a retry cannot run twice', async () => {
    const before = await customerCount();
    const port = Number(new URL(app.baseUrl).port);
    const body = Buffer.from(JSON.stringify({ name: 'Blank Key Ltd', tier: 'standard' }));
    // Sent byte for byte: `Idempotency-Key:` with nothing, spaces or a tab after the colon.
    for (const blank of ['', '   ', '\t']) {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const outcome = await sendRaw(port, {
          method: 'POST',
          target: '/v1/management/customers',
          headers: [['Host', 'localhost'], ['Authorization', `Bearer ${app.adminKey}`], ['Content-Type', 'application/json'], ['Content-Length', String(body.length)], ['Idempotency-Key', blank]],
          body,
        }, 5_000);
        expect(outcome.kind, JSON.stringify(blank)).to.equal('answered');
        const { response } = outcome as Extract<RawOutcome, { kind: 'answered' }>;
        expect(response.status, JSON.stringify(blank)).to.equal(400);
        const refused = JSON.parse(response.body.toString());
        expect(refused.success).to.equal(false);
        expect(refused.error.details.map((d: { field: string }) => d.field)).to.deep.equal(['Idempotency-Key']);
      }
    }
    // As fetch sends a blank value (trimmed to nothing).
    const viaFetch = await app.http.post('/v1/management/customers', { name: 'Blank Key Ltd', tier: 'standard' }, withKey(' '));
    expect(viaFetch.status, viaFetch.raw.toString()).to.equal(400);
    expect(await customerCount()).to.equal(before);
  });

  it('ignores the header on routes that do not take it', async () => {
    const listed = await app.http.get('/v1/management/customers', withKey('two words'));
    expect(listed.status).to.equal(200);
    expect(listed.headers.get('idempotent-replayed')).to.equal(null);
  });

  describe('while Redis is unreachable', function () {
    this.timeout(60_000);
    let dedicated: DedicatedRedis;
    let isolated: TestApp;

    before(async () => {
      dedicated = await startDedicatedRedis();
      isolated = await startTestApp({ workers: false, env: { REDIS_URL: dedicated.url } });
    });
    after(async () => {
      await isolated?.close();
      await dedicated?.dispose();
    });

    it('refuses a request with a key with 503 and runs nothing, rather than risk running it twice', async () => {
      const total = async () => (await isolated.http.get('/v1/management/customers')).body.data.pagination.total as number;
      const before = await total();
      await dedicated.stop();
      try {
        const refused = await isolated.http.post('/v1/management/customers', { name: 'Outage', tier: 'free' }, withKey(randomUUID()));
        expect(refused.status, refused.raw.toString()).to.equal(503);
        expect(refused.body.error.code).to.equal('SERVICE_UNAVAILABLE');
        expect(await total()).to.equal(before);
        // Without a key the same creation needs no Redis.
        expect((await isolated.http.post('/v1/management/customers', { name: 'Outage', tier: 'free' })).status).to.equal(201);
      } finally {
        await dedicated.restart();
      }
    });
  });
});
