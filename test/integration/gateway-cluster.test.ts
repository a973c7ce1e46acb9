import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { findFreePort } from '../../shared/net';
import { HttpClient } from '../support/http-client';
import { childPids, NodeProcess } from '../support/node-process';
import { parseExposition, valueOf } from '../support/prometheus-text';

/** WEB_CONCURRENCY: several gateway processes on one port, supervised by the standalone process. */
describe('standalone with WEB_CONCURRENCY=2', function () {
  this.timeout(90_000);
  let dataDir: string;
  let standalone: NodeProcess;
  let http: HttpClient;
  let metricsPort: number;
  const metricsToken = randomBytes(24).toString('hex');

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-cluster-'));
    const port = await findFreePort();
    metricsPort = await findFreePort();
    const adminKey = `adm_${randomBytes(24).toString('base64url')}`;
    standalone = new NodeProcess('bin/standalone.js', {
      PORT: String(port), DATA_DIR: dataDir, ADMIN_API_KEYS: adminKey, WEB_CONCURRENCY: '2', LOG_LEVEL: 'warn',
      METRICS_TOKEN: metricsToken, METRICS_PORT: String(metricsPort),
    });
    await standalone.waitForOutput(/Listening on /, 60_000);
    http = new HttpClient(`http://127.0.0.1:${port}`, adminKey);
  });
  after(async () => {
    await standalone.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves from two gateway processes that see each other\'s changes', async () => {
    expect(childPids(standalone.pid, 'node')).to.have.length(2);
    const created = await http.post('/v1/management/customers', { name: 'Cluster customer', tier: 'standard' });
    expect(created.status).to.equal(201);
    const { customerId, apiKey } = created.body.data;
    await http.post('/v1/management/applications', { applicationId: 'cluster-app', name: 'x', customerIds: [customerId], defaultVersionStatus: 'published' });
    const form = new FormData();
    form.set('applicationId', 'cluster-app');
    form.set('version', '1');
    form.set('file', new Blob([randomBytes(100)]), 'a.bin');
    expect((await http.request('POST', '/v1/management/upload', { body: form })).status).to.equal(201);
    const download = () => http.get('/v1/downloads/url?applicationId=cluster-app&version=1', { key: apiKey, headers: { connection: 'close' } });
    // New connections are spread over both processes; warm both caches.
    for (let i = 0; i < 6; i += 1) expect((await download()).status).to.equal(200);
    await http.patch(`/v1/management/customers/${customerId}`, { isActive: false }, { headers: { connection: 'close' } });
    for (let i = 0; i < 6; i += 1) expect((await download()).status).to.equal(403);
  });

  it("answers GET /metrics from any gateway process with every process's counts; the workers' on METRICS_PORT", async () => {
    const scrape = async () => {
      const response = await http.get('/metrics', { key: metricsToken, headers: { connection: 'close' } });
      expect(response.status).to.equal(200);
      return valueOf(parseExposition(response.raw.toString()), 'http_requests_total', { route: '/healthz', status: '200' });
    };
    const before = await scrape();
    // New connections are spread over both processes.
    for (let i = 0; i < 8; i += 1) expect((await http.get('/healthz', { key: null, headers: { connection: 'close' } })).status).to.equal(200);
    for (let i = 0; i < 4; i += 1) expect(await scrape()).to.equal(before + 8);
    const workers = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(workers.status).to.equal(200);
    const samples = parseExposition(await workers.text());
    expect(valueOf(samples, 'queue_jobs', { queue: 'statistics' })).to.be.at.least(0);
    expect(samples.filter((sample) => sample.name === 'job_duration_seconds_count')).not.to.be.empty;
  });

  it('stops every gateway process and exits 0 on SIGTERM', async () => {
    const gateways = childPids(standalone.pid, 'node');
    standalone.signal('SIGTERM');
    const exit = await standalone.exitWithin(25_000);
    expect(exit.code).to.equal(0);
    for (const pid of gateways) expect(() => process.kill(pid, 0)).to.throw();
  });
});
