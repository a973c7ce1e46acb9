import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from '../../shared/net';
import { smallUploadForm } from '../support/factories';
import { testRedisUrl } from '../support/hooks';
import { HttpClient } from '../support/http-client';
import { NodeProcess } from '../support/node-process';
import { pollUntil } from '../support/poll';

const BOUNDARY = 'b';
const field = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHeader = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;

/**
 * Multipart bodies a process must survive: each is answered 400 and leaves no staged object.
 * The file parts are large enough that bytes reach the staging object before the body ends.
 */
function malformedBodies(applicationId: string): Record<string, Buffer> {
  const fields = field('applicationId', applicationId) + field('version', '1');
  return {
    'no closing boundary': Buffer.from(`${fields}${fileHeader}hello`),
    'cut mid-file': Buffer.concat([Buffer.from(fields + fileHeader), randomBytes(512 * 1024)]),
    'cut mid-headers': Buffer.from(`${fields}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filen`),
    'a complete file part, then nothing': Buffer.concat([Buffer.from(fields + fileHeader), randomBytes(64 * 1024), Buffer.from(`\r\n--${BOUNDARY}\r\n`)]),
  };
}

describe('malformed multipart bodies against a running process', function () {
  this.timeout(60_000);
  const adminKey = `adm_${randomBytes(24).toString('hex')}`;
  let dataDir: string;
  let web: NodeProcess;
  let client: HttpClient;
  let applicationId: string;

  /** Staged objects, finished or still being written. */
  const staged = () => ['staging', '.partial'].flatMap((dir) => {
    const full = path.join(dataDir, 'objects', dir);
    return fs.existsSync(full) ? fs.readdirSync(full) : [];
  });

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-malformed-'));
    const port = await findFreePort();
    web = new NodeProcess('bin/web.js', {
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_API_KEYS: adminKey,
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: `m${randomBytes(6).toString('hex')}`,
      LOG_LEVEL: 'info',
    });
    client = new HttpClient(`http://127.0.0.1:${port}`, adminKey);
    await pollUntil(async () => ((await client.get('/readyz')).status === 200 ? true : undefined), 30_000, 'readiness');
    applicationId = `malformed-${randomBytes(4).toString('hex')}`;
    expect((await client.post('/v1/management/applications', { applicationId, name: 'Malformed', defaultVersionStatus: 'published' })).status).to.equal(201);
  });

  after(async () => {
    await web?.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (body: Buffer) => client.request('POST', '/v1/management/upload', {
    body,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  });

  for (const name of Object.keys(malformedBodies(''))) {
    it(`${name}: 400 in the envelope, nothing staged, the process alive and serving`, async () => {
      const answer = await upload(malformedBodies(applicationId)[name]);
      expect(answer.status, web.output()).to.equal(400);
      expect(answer.body.error.code).to.equal('BAD_REQUEST');
      expect(answer.body.error.message).to.contain('malformed multipart body');
      expect(staged()).to.deep.equal([]);
      expect(web.running, web.output()).to.equal(true);
      expect((await client.get('/healthz')).status).to.equal(200);
    });
  }

  it('a client that disconnects mid-file leaves nothing staged and the process serving', async () => {
    const body = malformedBodies(applicationId)['cut mid-file'];
    const url = new URL(client.baseUrl);
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write([
      'POST /v1/management/upload HTTP/1.1',
      `Host: ${url.host}`,
      `Authorization: Bearer ${adminKey}`,
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
      `Content-Length: ${body.length + 1024 * 1024}`,
      '', '',
    ].join('\r\n'));
    await new Promise<void>((resolve) => socket.write(body, () => resolve()));
    // The server has been writing the file part to a staging object; the client goes away mid-file.
    await pollUntil(() => (staged().length > 0 ? true : undefined), 10_000, 'bytes being staged');
    socket.destroy();
    await pollUntil(() => (staged().length === 0 ? true : undefined), 10_000, 'the staged bytes removed');
    expect(web.running, web.output()).to.equal(true);
  });

  it('afterwards still publishes a well-formed upload, and no stack trace reached stderr', async () => {
    const res = await client.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '2' }) });
    expect(res.status, res.raw.toString()).to.equal(201);
    expect(web.stderr).to.equal('');
  });
});
