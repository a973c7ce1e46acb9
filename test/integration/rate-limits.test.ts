import { expect } from 'chai';
import IORedis from 'ioredis';
import { KEYS_FAIL_OPEN } from '../../gateway/rate-limits/rate-limiting';
import { hashSecret } from '../../shared/secrets';
import { DedicatedRedis, startDedicatedRedis } from '../support/dedicated-redis';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { HttpClient, HttpResult } from '../support/http-client';
import { pollUntil } from '../support/poll';
import { SecondGateway, startSecondGateway, startTestApp, TestApp } from '../support/test-app';

type Customer = { customerId: string; apiKey: string };

/** The RateLimit item of `policy` in a response: its remaining requests and seconds to the window's end. */
function limitOf(response: HttpResult, policy: string): { r: number; t: number } | undefined {
  const items = (response.headers.get('ratelimit') ?? '').split(/,\s*/);
  const match = items.map((item) => /^"([^"]+)";r=(\d+);t=(\d+)$/.exec(item)).find((m) => m?.[1] === policy);
  return match ? { r: Number(match[2]), t: Number(match[3]) } : undefined;
}

function expectRateLimited(response: HttpResult, windowSeconds: number): void {
  expect(response.status, response.raw.toString()).to.equal(429);
  expect(response.body.error.code).to.equal('RATE_LIMITED');
  expect(Number(response.headers.get('retry-after'))).to.be.within(1, windowSeconds);
}

describe('rate limits', () => {
  describe('per key and per share link, shared by every gateway', () => {
    let app: TestApp;
    /** A second gateway of the same deployment: same Redis prefix, same store. */
    let second: SecondGateway;
    let secondHttp: HttpClient;
    let applicationId: string;

    before(async () => {
      app = await startTestApp({
        workers: false,
        env: { TRUST_PROXY: 'true', RATE_LIMITS: 'standard=5/3600,admin=40/3600,share-link=3/3600,share-client=4/3600' },
      });
      second = await startSecondGateway(app);
      secondHttp = second.http;
      ({ applicationId } = await createApplication(app));
      await uploadSmallFile(app, { applicationId, version: '1.0.0' });
    });
    after(async () => {
      await second?.close();
      await app?.close();
    });

    async function customerWithAccess(tier: string): Promise<Customer> {
      const customer = await createCustomer(app, { tier });
      const { customerIds } = (await app.http.get(`/v1/management/applications/${applicationId}`)).body.data;
      expect((await app.http.patch(`/v1/management/applications/${applicationId}`, { customerIds: [...customerIds, customer.customerId] })).status).to.equal(200);
      return customer;
    }

    const download = (http: HttpClient, customer: Customer) => http.get(`/v1/downloads/url?applicationId=${applicationId}&version=1.0.0`, { key: customer.apiKey });

    it("counts a customer key's requests by its tier on every gateway, then refuses with 429 and Retry-After", async () => {
      const customer = await customerWithAccess('standard');
      const answers: HttpResult[] = [];
      for (let i = 0; i < 5; i += 1) answers.push(await download(i % 2 === 0 ? app.http : secondHttp, customer));
      for (const [i, answer] of answers.entries()) {
        expect(answer.status, answer.raw.toString()).to.equal(200);
        expect(answer.headers.get('ratelimit-policy')).to.equal('"standard";q=5;w=3600');
        expect(limitOf(answer, 'standard')?.r).to.equal(4 - i);
      }
      const refused = [await download(app.http, customer), await download(secondHttp, customer)];
      for (const answer of refused) {
        expectRateLimited(answer, 3600);
        expect(answer.headers.get('ratelimit-policy')).to.equal('"standard";q=5;w=3600');
        expect(limitOf(answer, 'standard')?.r).to.equal(0);
        expect(Number(answer.headers.get('retry-after'))).to.be.at.least(limitOf(answer, 'standard')?.t as number);
      }
      // Another key, even of the same tier, has its own count.
      const other = await customerWithAccess('standard');
      expect((await download(app.http, other)).status).to.equal(200);
    });

    it('limits each customer by its tier', async () => {
      const enterprise = await customerWithAccess('enterprise');
      const answer = await download(app.http, enterprise);
      expect(answer.status).to.equal(200);
      expect(answer.headers.get('ratelimit-policy')).to.equal('"enterprise";q=6000;w=60');
      expect(limitOf(answer, 'enterprise')?.r).to.be.within(5990, 5999);
    });

    it('limits share-link uses per token and per client address, without a key', async () => {
      const customer = await customerWithAccess('premium');
      const shareFor = async () => (await app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0' }, { key: customer.apiKey })).body.data.token as string;
      const use = (http: HttpClient, token: string, client: string) => http.get(`/v1/downloads/share/${token}`, { key: null, headers: { 'x-forwarded-for': client } });

      const token = await shareFor();
      const uses = [await use(app.http, token, '198.51.100.1'), await use(secondHttp, token, '198.51.100.2'), await use(app.http, token, '198.51.100.3')];
      for (const answer of uses) {
        expect(answer.status, answer.raw.toString()).to.equal(302);
        expect(answer.headers.get('ratelimit-policy')).to.equal('"share-link";q=3;w=3600, "share-client";q=4;w=3600');
        expect(limitOf(answer, 'share-client')?.r).to.equal(3);
      }
      expect(uses.map((answer) => limitOf(answer, 'share-link')?.r)).to.deep.equal([2, 1, 0]);
      expectRateLimited(await use(secondHttp, token, '198.51.100.4'), 3600);
      // Counted in Redis under the token's SHA-256, never the token itself.
      const redis = new IORedis(app.config.redisUrl as string);
      try {
        expect(await redis.keys(`${app.config.redisPrefix}:rate:share-link:${hashSecret(token)}`)).to.have.length(1);
        expect(await redis.keys(`*${token}*`)).to.deep.equal([]);
      } finally {
        redis.disconnect();
      }

      // One address, several links: its fifth use is refused whatever the link, and spends nothing of the link's.
      const links = [await shareFor(), await shareFor()];
      for (const [i, link] of [links[0], links[0], links[1], links[1]].entries()) {
        expect((await use(i % 2 === 0 ? app.http : secondHttp, link, '203.0.113.7')).status).to.equal(302);
      }
      const refused = await use(app.http, links[1], '203.0.113.7');
      expectRateLimited(refused, 3600);
      expect(limitOf(refused, 'share-client')?.r).to.equal(0);
      const fromElsewhere = await use(app.http, links[1], '203.0.113.8');
      expect(fromElsewhere.status).to.equal(302);
      expect(limitOf(fromElsewhere, 'share-link')?.r).to.equal(0);
    });

    it('counts the clients of an IPv6 /64 together', async () => {
      const customer = await customerWithAccess('premium');
      const tokens = await Promise.all([1, 2, 3, 4, 5].map(async () => (await app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0' }, { key: customer.apiKey })).body.data.token as string));
      const clients = ['2001:db8:1:2::1', '2001:db8:1:2:ffff::9', '2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::5'];
      for (const [i, client] of clients.entries()) {
        expect((await app.http.get(`/v1/downloads/share/${tokens[i]}`, { key: null, headers: { 'x-forwarded-for': client } })).status).to.equal(302);
      }
      expectRateLimited(await app.http.get(`/v1/downloads/share/${tokens[4]}`, { key: null, headers: { 'x-forwarded-for': '2001:db8:1:2::7' } }), 3600);
      expect((await app.http.get(`/v1/downloads/share/${tokens[4]}`, { key: null, headers: { 'x-forwarded-for': '2001:db8:1:3::7' } })).status).to.equal(302);
    });

    it('limits admin keys, the root keys together and each scoped key on its own (last: it spends the root allowance)', async () => {
      const scoped = await app.http.post('/v1/management/apikeys', { name: 'Reader', scopes: ['read'] });
      expect(scoped.status, scoped.raw.toString()).to.equal(201);
      const listed = await app.http.get('/v1/management/customers');
      expect(listed.headers.get('ratelimit-policy')).to.equal('"admin";q=40;w=3600');
      const missing = await app.http.get('/v1/management/applications/no-such-app');
      expect(missing.status).to.equal(404);
      expect(limitOf(missing, 'admin')).to.not.equal(undefined);
      let last = missing;
      for (let i = 0; i < 45 && last.status !== 429; i += 1) last = await (i % 2 === 0 ? secondHttp : app.http).get('/v1/management/customers');
      expectRateLimited(last, 3600);
      const byScopedKey = await secondHttp.get('/v1/management/customers', { key: scoped.body.data.apiKey });
      expect(byScopedKey.status, byScopedKey.raw.toString()).to.equal(200);
      expect(limitOf(byScopedKey, 'admin')?.r).to.equal(39);
    });

    it('leaves routes without a key and without a declared limit alone', async () => {
      const health = await app.http.get('/healthz', { key: null });
      expect(health.status).to.equal(200);
      expect(health.headers.get('ratelimit')).to.equal(null);
    });
  });

  describe('without limits (RATE_LIMITS=off)', () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ workers: false, env: { RATE_LIMITS: 'off' } });
    });
    after(() => app?.close());

    it('sends no RateLimit headers and refuses nothing', async () => {
      for (let i = 0; i < 3; i += 1) {
        const answer = await app.http.get('/v1/management/customers');
        expect(answer.status).to.equal(200);
        expect(answer.headers.get('ratelimit-policy')).to.equal(null);
      }
    });
  });

  describe('while Redis is unreachable', function () {
    this.timeout(90_000);
    let redis: DedicatedRedis;
    let app: TestApp;
    let customer: Customer;
    let applicationId: string;
    let token: string;

    before(async () => {
      redis = await startDedicatedRedis();
      app = await startTestApp({
        workers: false,
        captureLogs: true,
        env: { REDIS_URL: redis.url, LOG_LEVEL: 'warn', RATE_LIMITS: 'standard=3/3600,admin=3/3600,share-link=2/3600' },
      });
      customer = await createCustomer(app, { tier: 'standard' });
      ({ applicationId } = await createApplication(app, { customerIds: [customer.customerId] }));
      await uploadSmallFile(app, { applicationId, version: '1.0.0' });
      token = (await app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0' }, { key: customer.apiKey })).body.data.token;
    });
    after(async () => {
      await app?.close();
      await redis?.dispose();
    });

    const download = () => app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=1.0.0`, { key: customer.apiKey });
    const useLink = () => app.http.get(`/v1/downloads/share/${token}`, { key: null });
    /** Ready again, and the outage over as the gateway's log tells it. */
    async function waitReady(): Promise<void> {
      await pollUntil(async () => ((await app.http.get('/readyz', { key: null })).status === 200 ? true : undefined), 30_000, '/readyz 200');
      const recoveries = () => app.logs.filter((line) => line.msg === 'redis is reachable again').length;
      const unreachable = app.logs.filter((line) => line.msg === 'redis is unreachable').length;
      await pollUntil(() => (recoveries() === unreachable ? true : undefined), 10_000, 'the end of the outage logged');
    }

    /** /readyz names Redis and says what the rate limits do meanwhile. */
    async function expectReadinessToSayRateLimitsFailOpen(): Promise<void> {
      const readiness = await app.http.get('/readyz', { key: null });
      expect(readiness.status).to.equal(503);
      const details = readiness.body.error.details as { field: string; message: string }[];
      expect(details.map((detail) => detail.field)).to.include.members(['redis', 'rateLimits']);
      expect(details.find((detail) => detail.field === 'rateLimits')?.message).to.match(/not limited \(failing open\)/);
    }

    const failOpenLines = () => app.logs.filter((line) => line.msg === KEYS_FAIL_OPEN);

    it('lets authenticated customers through while Redis hangs, says so once in the log and in /readyz, and limits share links per gateway', async () => {
      // Warm: the key, the customer and the link are cached in process; each has been counted once.
      expect((await download()).status).to.equal(200);
      expect((await useLink()).status).to.equal(302);

      // Frozen: connections stay open (the in-process caches stay on) but no command is answered.
      redis.pause();
      try {
        const answers: HttpResult[] = [];
        for (let i = 0; i < 5; i += 1) answers.push(await download());
        for (const answer of answers) {
          expect(answer.status, answer.raw.toString()).to.equal(200);
          expect(answer.headers.get('ratelimit-policy')).to.equal('"standard";q=3;w=3600');
        }
        // Counted by this gateway alone, from nothing: two uses, then refused.
        expect([(await useLink()).status, (await useLink()).status, (await useLink()).status]).to.deep.equal([302, 302, 429]);
        await expectReadinessToSayRateLimitsFailOpen();
        expect(failOpenLines(), JSON.stringify(app.logs.map((line) => line.msg))).to.have.length(1);
        expect(failOpenLines()[0].level).to.equal(40);
      } finally {
        redis.resume();
      }
      await waitReady();
      expect(app.logs.filter((line) => line.level >= 50)).to.deep.equal([]);
      // Counted in Redis again, from where it stood before: one download counted, then two, then refused.
      await pollUntil(async () => ((await download()).status === 429 ? true : undefined), 20_000, 'counting in Redis again');
    });

    it('keeps serving admin keys while Redis is stopped; customers, who cannot be authenticated without it, get 503, never 500', async () => {
      const logged = failOpenLines().length;
      await redis.stop();
      try {
        for (let i = 0; i < 5; i += 1) {
          const answer = await app.http.get('/v1/management/customers');
          expect(answer.status, answer.raw.toString()).to.equal(200);
          expect(answer.headers.get('ratelimit-policy')).to.equal('"admin";q=3;w=3600');
        }
        const refused = await download();
        expect(refused.status, refused.raw.toString()).to.equal(503);
        await expectReadinessToSayRateLimitsFailOpen();
        expect(failOpenLines()).to.have.length(logged + 1);
      } finally {
        await redis.restart();
      }
      await waitReady();
      expect(app.logs.filter((line) => line.level >= 50)).to.deep.equal([]);
    });
  });
});
