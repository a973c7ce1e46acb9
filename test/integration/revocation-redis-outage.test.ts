import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from '../../shared/net';
import { DedicatedRedis, startDedicatedRedis } from '../support/dedicated-redis';
import { smallUploadForm } from '../support/factories';
import { HttpClient, HttpResult } from '../support/http-client';
import { NodeProcess } from '../support/node-process';
import { pollUntil } from '../support/poll';

/**
 * The Procfile processes (web and worker) on one redis-server with its append-only file on, stopped
 * and started again around a security change. When Redis comes back it reloads every entry it held,
 * so a change must be either refused with nothing changed, or applied and seen by the first request.
 */
describe('revocations across a Redis outage (web and worker processes, Redis with AOF)', function () {
  this.timeout(120_000);

  const adminKey = `adm_${randomBytes(24).toString('hex')}`;
  let redis: DedicatedRedis;
  let dataDir: string;
  let web: NodeProcess;
  let worker: NodeProcess;
  let admin: HttpClient;
  let applicationId: string;

  const waitReady = () =>
    pollUntil(async () => ((await admin.get('/readyz', { key: null })).status === 200 ? true : undefined), 30_000, '/readyz 200');

  before(async () => {
    redis = await startDedicatedRedis({ persistent: true });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-outage-'));
    const port = await findFreePort();
    const env = {
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_API_KEYS: adminKey,
      REDIS_URL: redis.url,
      REDIS_PREFIX: `p${randomBytes(6).toString('hex')}`,
      LOG_LEVEL: 'warn',
    };
    web = new NodeProcess('bin/web.js', env);
    worker = new NodeProcess('bin/worker.js', env);
    admin = new HttpClient(`http://127.0.0.1:${port}`, adminKey);
    await waitReady();
    applicationId = `outage-${randomBytes(4).toString('hex')}`;
    expect((await admin.post('/v1/management/applications', { applicationId, name: 'Outage', defaultVersionStatus: 'published' })).status).to.equal(201);
    const upload = await admin.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '1' }) });
    expect(upload.status, upload.raw.toString()).to.equal(201);
  });

  after(async () => {
    await Promise.all([web?.kill(), worker?.kill()]);
    await redis?.dispose();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A customer with access to the application, and its first key. */
  async function customerWithAccess(): Promise<{ customerId: string; keyId: string; apiKey: string }> {
    const created = await admin.post('/v1/management/customers', { name: 'Outage customer', tier: 'standard' });
    expect(created.status, created.raw.toString()).to.equal(201);
    const { customerId, keyId, apiKey } = created.body.data;
    const application = await admin.get(`/v1/management/applications/${applicationId}`);
    const customerIds = [...application.body.data.customerIds, customerId];
    expect((await admin.patch(`/v1/management/applications/${applicationId}`, { customerIds })).status).to.equal(200);
    return { customerId, keyId, apiKey };
  }

  const download = (apiKey: string) => admin.get(`/v1/downloads/url?applicationId=${applicationId}&version=1`, { key: apiKey });

  /** Downloads once, so the key and the customer are cached in Redis and in the gateway. */
  async function warm(apiKey: string): Promise<void> {
    const first = await download(apiKey);
    expect(first.status, first.raw.toString()).to.equal(200);
  }

  /** Runs `change` with Redis stopped, then starts Redis again on its port and directory. */
  async function duringOutage(change: () => Promise<HttpResult>): Promise<HttpResult> {
    await redis.stop();
    const answer = await change();
    await redis.restart();
    await waitReady();
    return answer;
  }

  it('a deactivation is refused with nothing changed, or applied and the key refused at once', async () => {
    const customer = await customerWithAccess();
    await warm(customer.apiKey);
    const deactivate = () => admin.patch(`/v1/management/customers/${customer.customerId}`, { isActive: false });

    const answer = await duringOutage(deactivate);

    const stored = (await admin.get(`/v1/management/customers/${customer.customerId}`)).body.data;
    if (answer.status === 503) {
      expect(stored.isActive, 'a refused deactivation changed the customer').to.equal(true);
      expect((await deactivate()).status).to.equal(200);
    } else {
      expect(answer.status, answer.raw.toString()).to.equal(200);
      expect(stored.isActive).to.equal(false);
    }
    const refused = await download(customer.apiKey);
    expect(refused.status, refused.raw.toString()).to.equal(403);
  });

  it('a key revocation is refused with nothing changed, or applied and the key refused at once', async () => {
    const customer = await customerWithAccess();
    await warm(customer.apiKey);
    const revoke = () => admin.delete(`/v1/management/customers/${customer.customerId}/apikeys/${customer.keyId}`);

    const answer = await duringOutage(revoke);

    const activeKeys = (await admin.get(`/v1/management/customers/${customer.customerId}/apikeys`)).body.data.apiKeys;
    const stillActive = activeKeys.some((key: { keyId: string }) => key.keyId === customer.keyId);
    if (answer.status === 503) {
      expect(stillActive, 'a refused revocation revoked the key').to.equal(true);
      expect((await revoke()).status).to.equal(200);
    } else {
      expect(answer.status, answer.raw.toString()).to.equal(200);
      expect(stillActive).to.equal(false);
    }
    const refused = await download(customer.apiKey);
    expect(refused.status, refused.raw.toString()).to.equal(401);
  });

  it('an access token revocation is refused with nothing changed, or applied and the token refused at once', async () => {
    const customer = await customerWithAccess();
    const created = await admin.post(`/v1/management/customers/${customer.customerId}/tokens`, { maxDownloads: 100 });
    expect(created.status, created.raw.toString()).to.equal(201);
    const { tokenId, token } = created.body.data;
    // Twice, so the token is cached in the gateway.
    expect((await download(token)).status).to.equal(200);
    expect((await download(token)).status).to.equal(200);
    const revoke = () => admin.delete(`/v1/management/customers/${customer.customerId}/tokens/${tokenId}`);

    const answer = await duringOutage(revoke);

    const active = (await admin.get(`/v1/management/customers/${customer.customerId}/tokens`)).body.data.tokens;
    const stillActive = active.some((listed: { tokenId: string }) => listed.tokenId === tokenId);
    if (answer.status === 503) {
      expect(stillActive, 'a refused revocation revoked the token').to.equal(true);
      expect((await revoke()).status).to.equal(200);
    } else {
      expect(answer.status, answer.raw.toString()).to.equal(200);
      expect(stillActive).to.equal(false);
    }
    const refused = await download(token);
    expect(refused.status, refused.raw.toString()).to.equal(401);
  });

  it('an admin key revocation is refused with nothing changed, or applied and the key refused at once', async () => {
    const issued = await admin.post('/v1/management/apikeys', { name: 'Outage key', scopes: ['read'] });
    expect(issued.status, issued.raw.toString()).to.equal(201);
    const { keyId, apiKey } = issued.body.data;
    const read = () => admin.get('/v1/activity', { key: apiKey });
    // Twice, so the key is cached in the gateway.
    expect((await read()).status).to.equal(200);
    expect((await read()).status).to.equal(200);
    const revoke = () => admin.delete(`/v1/management/apikeys/${keyId}`);

    const answer = await duringOutage(revoke);

    const stillActive = (await admin.get('/v1/management/apikeys')).body.data.apiKeys.some((key: { keyId: string }) => key.keyId === keyId);
    if (answer.status === 503) {
      expect(stillActive, 'a refused revocation revoked the key').to.equal(true);
      expect((await revoke()).status).to.equal(200);
    } else {
      expect(answer.status, answer.raw.toString()).to.equal(200);
      expect(stillActive).to.equal(false);
    }
    const refused = await read();
    expect(refused.status, refused.raw.toString()).to.equal(401);
  });

  it('a Redis that comes back without its last writes cannot hand out a standing older than the store', async () => {
    const customer = await customerWithAccess();
    await warm(customer.apiKey);
    // What the append-only file held before the change: a server that loses the writes after it
    // (killed before its once-a-second fsync, a replica promoted with lag) comes back with this.
    const appendOnlyDir = path.join(redis.dir, 'appendonlydir');
    await pollUntil(() => (filesHold(appendOnlyDir, customer.customerId) ? true : undefined), 10_000, 'the cached customer in the AOF');
    const beforeChange = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-aof-'));
    fs.cpSync(appendOnlyDir, beforeChange, { recursive: true });

    const deactivated = await admin.patch(`/v1/management/customers/${customer.customerId}`, { isActive: false });
    expect(deactivated.status, deactivated.raw.toString()).to.equal(200);
    await redis.kill();
    fs.rmSync(appendOnlyDir, { recursive: true });
    fs.cpSync(beforeChange, appendOnlyDir, { recursive: true });
    fs.rmSync(beforeChange, { recursive: true });
    await redis.restart();
    await waitReady();

    const refused = await download(customer.apiKey);
    expect(refused.status, refused.raw.toString()).to.equal(403);
  });
});

/** Whether any file under `dir` contains `text`. */
function filesHold(dir: string, text: string): boolean {
  return fs.readdirSync(dir).some((name) => fs.readFileSync(path.join(dir, name)).includes(text));
}
