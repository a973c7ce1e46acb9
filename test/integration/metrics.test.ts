import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { QUEUE_NAMES } from '../../shared/queues/jobs';
import { createWorkerConnection } from '../../shared/redis/connections';
import { findFreePort } from '../../shared/net';
import { testRedisUrl } from '../support/hooks';
import { HttpClient } from '../support/http-client';
import { routeTemplate } from '../../gateway/http/route';
import { mountedRoutes } from '../support/mounted-routes';
import { NodeProcess } from '../support/node-process';
import { pollUntil } from '../support/poll';
import { parseExposition, Sample, samplesOf, valueOf } from '../support/prometheus-text';
import { smallUploadForm } from '../support/factories';
import { startTestApp } from '../support/test-app';

const TOKEN = `metrics_${randomBytes(24).toString('base64url')}`;

/** GET /metrics on `baseUrl` with `authorization`, without the API client (the worker's listener serves no API). */
async function scrapeRaw(baseUrl: string, authorization?: string) {
  const response = await fetch(`${baseUrl}/metrics`, { headers: authorization ? { authorization } : {} });
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

async function scrape(baseUrl: string): Promise<Sample[]> {
  const response = await scrapeRaw(baseUrl, `Bearer ${TOKEN}`);
  expect(response.status, response.text).to.equal(200);
  expect(response.contentType).to.match(/^text\/plain; version=0\.0\.4/);
  return parseExposition(response.text);
}

/**
 * GET /metrics on the Procfile's two processes, `web` (bin/web.js) and `worker` (bin/worker.js), on
 * the test redis-server (BullMQ) and one SQLite store, with METRICS_TOKEN set: the web process on its
 * port, the worker on its own listener (METRICS_PORT).
 */
describe('metrics of the web and worker processes', function () {
  this.timeout(120_000);
  const adminKey = `adm_${randomBytes(24).toString('base64url')}`;
  const prefix = `m${randomBytes(6).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-metrics-'));
  let web: NodeProcess;
  let worker: NodeProcess;
  let webUrl: string;
  let workerUrl: string;
  let api: HttpClient;
  let applicationId: string;
  let customerKey: string;
  let customerId: string;

  before(async () => {
    const [webPort, workerPort] = [await findFreePort(), await findFreePort()];
    const env = { DATA_DIR: dataDir, ADMIN_API_KEYS: adminKey, REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix, LOG_LEVEL: 'info', METRICS_TOKEN: TOKEN };
    worker = new NodeProcess('bin/worker.js', { ...env, METRICS_PORT: String(workerPort) });
    await worker.waitForOutput(/"msg":"metrics listening"/, 30_000);
    web = new NodeProcess('bin/web.js', { ...env, PORT: String(webPort), PUBLIC_BASE_URL: `http://127.0.0.1:${webPort}` });
    await web.waitForOutput(/"msg":"gateway listening"/, 30_000);
    webUrl = `http://127.0.0.1:${webPort}`;
    workerUrl = `http://127.0.0.1:${workerPort}`;
    api = new HttpClient(webUrl, adminKey);

    const customer = await api.post('/v1/management/customers', { name: 'Metrics', tier: 'standard' });
    ({ customerId, apiKey: customerKey } = customer.body.data);
    applicationId = `metrics-${randomBytes(4).toString('hex')}`;
    expect((await api.post('/v1/management/applications', { applicationId, name: 'Metrics', customerIds: [customerId], defaultVersionStatus: 'published' })).status).to.equal(201);
    expect((await api.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '1.0.0' }) })).status).to.equal(201);
  });

  after(async () => {
    for (const child of [web, worker]) {
      if (!child?.running) continue;
      child.signal('SIGTERM');
      await child.exitWithin(30_000).catch(() => child.kill());
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const download = (query: string) => api.get(`/v1/downloads/url?${query}`, { key: customerKey });

  describe('web', () => {
    it('serves /metrics only for the metrics token, in the error envelope otherwise', async () => {
      for (const authorization of [undefined, `Bearer ${adminKey}`, `Bearer ${customerKey}`, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
        const refused = await scrapeRaw(webUrl, authorization);
        expect(refused.status, String(authorization)).to.equal(401);
        expect(JSON.parse(refused.text).error.code).to.equal('UNAUTHORIZED');
      }
      expect((await api.get('/metrics', { key: TOKEN })).status).to.equal(200);
    });

    it('counts and times requests by route template and status, lane and router alike, unmatched ones under one label', async () => {
      const before = await scrape(webUrl);
      const share = await api.post('/v1/downloads/share', { applicationId, version: '1.0.0' }, { key: customerKey });
      expect(share.status).to.equal(201);
      const { token } = share.body.data;
      for (let i = 0; i < 3; i += 1) expect((await download(`applicationId=${applicationId}&version=1.0.0`)).status).to.equal(200);
      const signedUrl = (await download(`applicationId=${applicationId}&version=1.0.0`)).body.data.downloadUrl as string;
      expect((await fetch(signedUrl)).status).to.equal(200);
      expect((await download(`applicationId=${applicationId}&version=9.9.9`)).status).to.equal(404);
      for (let i = 0; i < 2; i += 1) expect((await api.get(`/v1/downloads/share/${token}`, { key: null })).status).to.equal(302);
      expect((await api.get(`/v1/nowhere/${applicationId}`)).status).to.equal(404);
      expect((await api.request('PUT', '/healthz', { key: null })).status).to.equal(405);
      const after = await scrape(webUrl);

      const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
      const requests = (route: string, method: string, status: number) => delta('http_requests_total', { route, method, status: String(status) });
      expect(requests('/v1/downloads/url', 'GET', 200)).to.equal(4);
      // The signed object route by its template, without the router's pattern (`:key(.+)`).
      expect(requests('/v1/objects/:key', 'GET', 200)).to.equal(1);
      expect(requests('/v1/downloads/url', 'GET', 404)).to.equal(1);
      expect(requests('/v1/downloads/share/:token', 'GET', 302)).to.equal(2);
      expect(requests('/v1/downloads/share', 'POST', 201)).to.equal(1);
      expect(requests('unmatched', 'GET', 404)).to.equal(1);
      expect(requests('unmatched', 'PUT', 405)).to.equal(1);
      expect(delta('http_request_duration_seconds_count', { route: '/v1/downloads/url', method: 'GET', status: '200' })).to.equal(4);
      expect(delta('http_request_duration_seconds_bucket', { route: '/v1/downloads/url', method: 'GET', status: '200', le: '+Inf' })).to.equal(4);

      // Bounded labels: route templates of the table or `unmatched`, never a path, id or token.
      const templates = new Set([...mountedRoutes().map((route) => routeTemplate(route.path)), 'unmatched']);
      expect(samplesOf(after, 'http_requests_total').map((sample) => sample.labels.route).join(' ')).not.to.match(/[()]/);
      for (const sample of samplesOf(after, 'http_requests_total')) expect(templates, sample.labels.route).to.include(sample.labels.route);
      const text = (await scrapeRaw(webUrl, `Bearer ${TOKEN}`)).text;
      for (const secret of [applicationId, token, customerId, customerKey, adminKey, TOKEN]) expect(text).not.to.include(secret);
    });

    it("counts hits and misses of the download path's caches", async () => {
      const before = await scrape(webUrl);
      for (let i = 0; i < 4; i += 1) expect((await download(`applicationId=${applicationId}&version=1.0.0`)).status).to.equal(200);
      const after = await scrape(webUrl);
      const delta = (cache: string, result?: string) => valueOf(after, 'download_cache_lookups_total', { cache, ...(result ? { result } : {}) })
        - valueOf(before, 'download_cache_lookups_total', { cache, ...(result ? { result } : {}) });
      for (const cache of ['keys', 'catalog', 'answers']) {
        expect(delta(cache), cache).to.equal(4);
        expect(delta(cache, 'hit'), cache).to.be.at.least(1);
      }
      expect(samplesOf(after, 'download_cache_lookups_total', { cache: 'share-links' })).to.have.length(2);
    });

    it('serves the process metrics a dyno is scaled by', async () => {
      const samples = await scrape(webUrl);
      for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds']) {
        expect(samplesOf(samples, name), name).not.to.be.empty;
      }
    });
  });

  describe('worker', () => {
    it('serves /metrics on its own listener, only for the metrics token', async () => {
      for (const authorization of [undefined, `Bearer ${adminKey}`, `Bearer ${TOKEN.slice(1)}`]) {
        const refused = await scrapeRaw(workerUrl, authorization);
        expect(refused.status, String(authorization)).to.equal(401);
        expect(JSON.parse(refused.text).error.code).to.equal('UNAUTHORIZED');
      }
      const elsewhere = await fetch(`${workerUrl}/v1/openapi.json`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(elsewhere.status).to.equal(404);
      expect(((await elsewhere.json()) as { error: { code: string } }).error.code).to.equal('NOT_FOUND');
      const posted = await fetch(`${workerUrl}/metrics`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(posted.status).to.equal(405);
      expect(posted.headers.get('allow')).to.equal('GET, HEAD');
      expect(samplesOf(await scrape(workerUrl), 'http_requests_total')).to.deep.equal([]);
    });

    it('reports the depth of every queue, by state, as jobs come and go', async () => {
      const before = await scrape(workerUrl);
      for (const queue of QUEUE_NAMES) {
        for (const state of ['waiting', 'active', 'delayed', 'failed']) expect(samplesOf(before, 'queue_jobs', { queue, state }), `${queue} ${state}`).to.have.length(1);
      }
      // A share link schedules its expiry: one more delayed job.
      expect((await api.post('/v1/downloads/share', { applicationId, version: '1.0.0' }, { key: customerKey })).status).to.equal(201);
      const delayed = valueOf(await scrape(workerUrl), 'queue_jobs', { queue: 'share-links', state: 'delayed' });
      expect(delayed).to.equal(valueOf(before, 'queue_jobs', { queue: 'share-links', state: 'delayed' }) + 1);
    });

    it('times jobs by queue, name and outcome: a verification that fails stays in the failed count', async () => {
      const before = await scrape(workerUrl);
      const content = randomBytes(4096);
      const issued = await api.post('/v1/management/upload/large-url', { applicationId, version: '2.0.0', fileName: 'big.bin', fileSize: content.length });
      expect(issued.status).to.equal(201);
      const { uploadId, uploadUrl } = issued.body.data;
      expect((await api.request('PUT', uploadUrl, { key: null, body: content, headers: { 'content-type': 'application/octet-stream' } })).status).to.equal(200);
      const completed = await api.post('/v1/management/upload/large-complete', {
        uploadId, applicationId, version: '2.0.0', fileName: 'big.bin', fileSize: content.length, checksum: 'ab'.repeat(32),
      });
      expect(completed.status).to.equal(202);
      const failedVerification = { queue: 'uploads', job_name: 'verify-upload', outcome: 'failed' };
      const after = await pollUntil(async () => {
        const samples = await scrape(workerUrl);
        return valueOf(samples, 'job_duration_seconds_count', failedVerification) > valueOf(before, 'job_duration_seconds_count', failedVerification) ? samples : undefined;
      }, 30_000, 'the failed verification');
      expect(valueOf(after, 'job_duration_seconds_count', failedVerification) - valueOf(before, 'job_duration_seconds_count', failedVerification)).to.equal(1);
      expect(valueOf(after, 'queue_jobs', { queue: 'uploads', state: 'failed' }) - valueOf(before, 'queue_jobs', { queue: 'uploads', state: 'failed' })).to.equal(1);
      const rollups = { queue: 'statistics', job_name: 'rollup-events', outcome: 'completed' };
      await pollUntil(async () => (valueOf(await scrape(workerUrl), 'job_duration_seconds_count', rollups) > valueOf(after, 'job_duration_seconds_count', rollups) ? true : undefined), 30_000, 'another rollup');
    });

    it('reports the rollup lag: the age of the oldest download not yet counted, 0 once counted', async () => {
      const connection = createWorkerConnection(testRedisUrl());
      const statistics = new Queue('statistics', { connection, prefix });
      try {
        await pollUntil(async () => (valueOf(await scrape(workerUrl), 'rollup_lag_seconds') === 0 ? true : undefined), 30_000, 'no lag');
        // A file the customer has not downloaded yet (a repeated download of one file counts once).
        expect((await api.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '1.0.1' }) })).status).to.equal(201);
        // Rollups held back: a download waits to be counted.
        await statistics.pause();
        await pollUntil(async () => ((await statistics.getActiveCount()) === 0 ? true : undefined), 30_000, 'the running rollup to finish');
        expect((await download(`applicationId=${applicationId}&version=1.0.1`)).status).to.equal(200);
        await pollUntil(async () => (valueOf(await scrape(workerUrl), 'rollup_lag_seconds') > 0 ? true : undefined), 30_000, 'a lag');
        await statistics.resume();
        await pollUntil(async () => (valueOf(await scrape(workerUrl), 'rollup_lag_seconds') === 0 ? true : undefined), 30_000, 'the lag to go');
      } finally {
        await statistics.resume().catch(() => undefined);
        await statistics.close();
        connection.disconnect();
      }
    });

    it('reports webhook delivery outcomes from 0', async () => {
      const samples = await scrape(workerUrl);
      for (const outcome of ['delivered', 'retried', 'failed', 'refused']) {
        expect(samplesOf(samples, 'webhook_deliveries_total', { outcome }), outcome).to.have.length(1);
      }
    });
  });
});

describe('metrics without METRICS_TOKEN', function () {
  this.timeout(60_000);

  it('are served by no process: the web process has no /metrics route, the worker no listener', async () => {
    const app = await startTestApp({ workers: false });
    try {
      expect((await app.http.get('/metrics', { key: null })).status).to.equal(404);
      expect(app.gateway.gateway.routes.map((route) => route.path)).not.to.include('/metrics');
    } finally {
      await app.close();
    }
    const metricsPort = await findFreePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-metrics-'));
    const worker = new NodeProcess('bin/worker.js', {
      DATA_DIR: dataDir, REDIS_URL: testRedisUrl(), REDIS_PREFIX: `m${randomBytes(6).toString('hex')}`, LOG_LEVEL: 'info', METRICS_PORT: String(metricsPort),
    });
    try {
      await worker.waitForOutput(/"msg":"workers started"/, 30_000);
      const refused = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(() => false, () => true);
      expect(refused, 'a connection to METRICS_PORT is refused').to.equal(true);
    } finally {
      worker.signal('SIGTERM');
      await worker.exitWithin(30_000).catch(() => worker.kill());
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
