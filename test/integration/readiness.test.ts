import { expect } from 'chai';
import { DedicatedRedis, startDedicatedRedis } from '../support/dedicated-redis';
import type { HttpResult } from '../support/http-client';
import { startRedisServer } from '../../shared/redis/redis-server-process';
import { pollUntil, timed } from '../support/poll';
import { startTestApp, TestApp } from '../support/test-app';

function expectNotReady(response: HttpResult, down: string[]): void {
  expect(response.status, response.raw.toString()).to.equal(503);
  expect(response.body.success).to.equal(false);
  expect(response.body.error.code).to.equal('SERVICE_UNAVAILABLE');
  // Without Redis the details also say what the rate limits do meanwhile.
  const noted = down.includes('redis') ? [...down, 'rateLimits'] : down;
  expect(response.body.error.details.map((d: { field: string }) => d.field)).to.deep.equal(noted);
  for (const name of down) expect(response.body.error.message).to.include(name);
}

describe('health and readiness', () => {
  describe('with every dependency up', () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ workers: false });
    });
    after(async () => {
      await app?.close();
    });

    it('answers /healthz with 200 without a key', async () => {
      const response = await app.http.get('/healthz', { key: null });
      expect(response.status).to.equal(200);
      expect(response.body).to.deep.equal({ success: true, data: { status: 'ok' } });
    });

    it('answers /readyz with 200 listing store, redis and object storage up', async () => {
      const response = await app.http.get('/readyz', { key: null });
      expect(response.status).to.equal(200);
      expect(response.body).to.deep.equal({
        success: true,
        data: { status: 'ready', checks: { store: 'up', redis: 'up', objectStorage: 'up' } },
      });
    });

    it('answers HEAD /healthz', async () => {
      expect((await app.http.request('HEAD', '/healthz', { key: null })).status).to.equal(200);
    });
  });

  describe('with Redis stopped', () => {
    let redis: DedicatedRedis;
    let app: TestApp;
    before(async () => {
      redis = await startDedicatedRedis();
      app = await startTestApp({ workers: false, env: { REDIS_URL: redis.url } });
      expect((await app.http.get('/readyz', { key: null })).status).to.equal(200);
      await redis.stop();
    });
    after(async () => {
      await app?.close();
      await redis?.dispose();
    });

    it("answers /readyz with 503 naming 'redis', promptly", async () => {
      const { result, ms } = await timed(() => app.http.get('/readyz', { key: null }));
      expectNotReady(result, ['redis']);
      expect(ms).to.be.below(3_000);
    });

    it('still answers /healthz with 200', async () => {
      expect((await app.http.get('/healthz', { key: null })).status).to.equal(200);
    });

    it('is ready again once Redis is back on its address', async () => {
      const restarted = await startRedisServer({ dir: redis.dir, persistent: false, port: redis.port });
      try {
        await pollUntil(async () => ((await app.http.get('/readyz', { key: null })).status === 200 ? true : undefined), 10_000, 'readiness');
      } finally {
        await restarted.stop();
      }
    });
  });

  describe('with Redis frozen (connected, never answering)', () => {
    let redis: DedicatedRedis;
    let app: TestApp;
    before(async () => {
      redis = await startDedicatedRedis();
      app = await startTestApp({ workers: false, env: { REDIS_URL: redis.url } });
      redis.pause();
    });
    after(async () => {
      redis?.resume();
      await app?.close();
      await redis?.dispose();
    });

    it("answers /readyz with 503 naming 'redis' within the check timeout", async () => {
      const { result, ms } = await timed(() => app.http.get('/readyz', { key: null }));
      expectNotReady(result, ['redis']);
      expect(ms).to.be.below(3_000);
    });
  });

  describe('with the store closed', () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ workers: false });
      await app.core.store.close();
    });
    after(async () => {
      await app?.close();
    });

    it("answers /readyz with 503 naming 'store'", async () => {
      expectNotReady(await app.http.get('/readyz', { key: null }), ['store']);
    });

    it('answers requests that need the store with 503 in the envelope, reads and writes alike', async () => {
      const read = await app.http.get('/v1/management/applications');
      const write = await app.http.post('/v1/management/applications', { applicationId: 'app-during-outage', name: 'Outage' });
      for (const response of [read, write]) {
        expect(response.status, response.raw.toString()).to.equal(503);
        expect(response.body).to.deep.equal({
          success: false,
          error: { code: 'SERVICE_UNAVAILABLE', message: 'a dependency is unavailable, try again shortly' },
        });
      }
    });
  });
});
