import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from '../../shared/net';
import { smallUploadForm } from '../support/factories';
import { testRedisUrl } from '../support/hooks';
import { HttpClient } from '../support/http-client';
import { NodeProcess } from '../support/node-process';
import { pollUntil } from '../support/poll';
import { freshDatabase } from '../support/test-app';

/**
 * Share links that allow a number of uses, used at once through two gateway processes of one
 * deployment (Procfile `web`, one store, one Redis): each use is counted in the store, so exactly as
 * many redirects as the cap allows go out, whichever gateway answers.
 */
describe('share-link caps across two gateway processes', function () {
  this.timeout(90_000);
  const adminKey = `adm_${randomBytes(24).toString('hex')}`;
  let dataDir: string;
  let gateways: NodeProcess[];
  let clients: HttpClient[];
  let customerKey: string;
  const applicationId = `caps-${randomBytes(4).toString('hex')}`;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-caps-'));
    const ports = [await findFreePort(), await findFreePort()];
    const shared = {
      DATA_DIR: dataDir,
      ADMIN_API_KEYS: adminKey,
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: `t${randomBytes(6).toString('hex')}`,
      LOG_LEVEL: 'warn',
      ...(process.env.MONGODB_URI ? { MONGODB_URI: freshDatabase(process.env.MONGODB_URI), WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'), REPOSITORY_KEY_SECRET: randomBytes(32).toString('hex') } : {}),
    };
    // One after the other: the first to open the store creates it.
    gateways = [];
    clients = [];
    for (const port of ports) {
      gateways.push(new NodeProcess('bin/web.js', { ...shared, PORT: String(port) }));
      const client = new HttpClient(`http://127.0.0.1:${port}`, adminKey);
      clients.push(client);
      await pollUntil(async () => ((await client.get('/readyz', { key: null }).catch(() => undefined))?.status === 200 ? true : undefined), 30_000, `gateway on ${port} ready`);
    }
    const [admin] = clients;
    const created = await admin.post('/v1/management/customers', { name: 'Caps customer', tier: 'standard' });
    expect(created.status, created.raw.toString()).to.equal(201);
    const { customerId } = created.body.data;
    customerKey = created.body.data.apiKey;
    expect((await admin.post('/v1/management/applications', { applicationId, name: 'Caps', customerIds: [customerId], defaultVersionStatus: 'published' })).status).to.equal(201);
    const upload = await admin.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '1.0.0' }) });
    expect(upload.status, upload.raw.toString()).to.equal(201);
  });

  after(async () => {
    await Promise.all((gateways ?? []).map((gateway) => gateway.kill()));
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const share = (body: Record<string, unknown>) => clients[0].post('/v1/downloads/share', { applicationId, version: '1.0.0', ...body }, { key: customerKey });
  const use = (client: HttpClient, token: string, method = 'GET') => client.request(method, `/v1/downloads/share/${token}`, { key: null });
  const downloadEvents = async () => (await clients[0].get(`/v1/activity?type=download&applicationId=${applicationId}&limit=100`)).body.data.activities.length as number;

  it('answers exactly 10 of 50 parallel uses of a link capped at 10 with a redirect, the rest with 410, and records 10 downloads', async () => {
    const created = await share({ maxDownloads: 10 });
    expect(created.status, created.raw.toString()).to.equal(201);
    expect(created.body.data).to.include({ maxDownloads: 10, downloadCount: 0 });
    const { token } = created.body.data;
    const eventsBefore = await downloadEvents();

    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => use(clients[i % 2], token)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 302), JSON.stringify(statuses)).to.have.length(10);
    expect(statuses.filter((status) => status === 410)).to.have.length(40);
    for (const refused of answers.filter((answer) => answer.status === 410)) {
      expect(refused.body.error).to.deep.equal({ code: 'GONE', message: 'this share link has been used as many times as it allows' });
    }
    expect(await downloadEvents()).to.equal(eventsBefore + 10);
    const revoked = await clients[1].delete(`/v1/downloads/share/${token}`, { key: customerKey });
    expect(revoked.body.data).to.include({ maxDownloads: 10, downloadCount: 10 });
  });

  it('lets HEAD look without counting, and refuses it too once the link is used up', async () => {
    const { token } = (await share({ maxDownloads: 2 })).body.data;
    for (let i = 0; i < 3; i += 1) expect((await use(clients[i % 2], token, 'HEAD')).status).to.equal(302);
    expect([(await use(clients[0], token)).status, (await use(clients[1], token)).status]).to.deep.equal([302, 302]);
    expect((await use(clients[0], token)).status).to.equal(410);
    expect((await use(clients[1], token, 'HEAD')).status).to.equal(410);
  });

  it('counts nothing for a link without a cap', async () => {
    const created = await share({});
    expect(created.body.data).to.include({ maxDownloads: null, downloadCount: null });
    for (let i = 0; i < 12; i += 1) expect((await use(clients[i % 2], created.body.data.token)).status).to.equal(302);
    const revoked = await clients[0].delete(`/v1/downloads/share/${created.body.data.token}`, { key: customerKey });
    expect(revoked.body.data).to.include({ maxDownloads: null, downloadCount: null });
  });

  it('takes maxDownloads from 1 to 100,000', async () => {
    for (const maxDownloads of [0, -1, 100_001, 1.5, '10', null]) {
      const refused = await share({ maxDownloads });
      expect(refused.status, `${maxDownloads}: ${refused.raw}`).to.equal(400);
      expect(refused.body.error.details.map((detail: { field: string }) => detail.field)).to.deep.equal(['maxDownloads']);
    }
    for (const maxDownloads of [1, 100_000]) expect((await share({ maxDownloads })).body.data).to.include({ maxDownloads, downloadCount: 0 });
  });
});
