import { expect } from 'chai';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from '../../shared/net';
import { smallUploadForm } from '../support/factories';
import { testRedisUrl } from '../support/hooks';
import { HttpClient } from '../support/http-client';
import { DIST_DIR, NodeProcess } from '../support/node-process';
import { pollUntil } from '../support/poll';

const GENERATED_KEY = /Admin API key \(shown this once[^\n]*\n\s*(adm_[A-Za-z0-9_-]+)/;
const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

interface ListedFile { fileId: string; fileName: string; checksum: string; fileSize: number }
interface ListedVersion { version: string; files: ListedFile[] }

/**
 * `npm run backup` while the embedded default serves uploads and downloads, then `npm run restore`
 * into a fresh DATA_DIR and the service started on it: every record there before the backup is there
 * after it, and every file the restored store lists downloads with its SHA-256.
 */
describe('backup and restore of DATA_DIR', function () {
  this.timeout(180_000);
  const dirs: string[] = [];
  const processes: NodeProcess[] = [];
  const freshDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-backup-'));
    dirs.push(dir);
    return dir;
  };
  after(async () => {
    for (const child of processes) await child.kill();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The embedded default (`npm start`'s entry) on `dataDir`; its generated admin key when it prints one. */
  const startService = async (dataDir: string) => {
    const port = await findFreePort();
    const service = new NodeProcess('bin/standalone.js', {
      DATA_DIR: dataDir, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn',
      REDIS_URL: testRedisUrl(), REDIS_PREFIX: `b${randomBytes(6).toString('hex')}`,
    });
    processes.push(service);
    await service.waitForOutput(/Listening on /, 60_000);
    return { service, baseUrl: `http://127.0.0.1:${port}`, generatedKey: GENERATED_KEY.exec(service.stdout)?.[1] };
  };
  const stop = async (service: NodeProcess) => {
    service.signal('SIGTERM');
    expect((await service.exitWithin(30_000)).code, service.output()).to.equal(0);
  };
  /** `npm run backup` / `npm run restore`, as package.json runs them (in a child: this process keeps serving its traffic). */
  const runBackupCommand = async (command: 'backup' | 'restore', dir: string, dataDir: string) => {
    const result = await backupCommand(command, dir, dataDir);
    expect(result.status, result.output).to.equal(0);
    return result.output;
  };
  const upload = async (admin: HttpClient, applicationId: string, version: string) => {
    const content = randomBytes(20_000 + Math.floor(Math.random() * 50_000));
    const answer = await admin.request('POST', '/v1/management/upload', {
      body: smallUploadForm({ applicationId, version, content, fileName: `app-${version}.exe`, status: 'published' }),
    });
    expect(answer.status, answer.raw.toString()).to.equal(201);
    return content;
  };
  const versionsOf = async (admin: HttpClient, applicationId: string): Promise<ListedVersion[]> => {
    const listed = await admin.get(`/v1/management/applications/${applicationId}/versions`);
    expect(listed.status, listed.raw.toString()).to.equal(200);
    return listed.body.data.versions;
  };
  const downloaded = async (baseUrl: string, customerKey: string, applicationId: string, version: string, fileId: string) => {
    const customer = new HttpClient(baseUrl, customerKey);
    const answer = await customer.get(`/v1/downloads/url?applicationId=${applicationId}&version=${version}&fileId=${fileId}`);
    expect(answer.status, answer.raw.toString()).to.equal(200);
    const bytes = await fetch(answer.body.data.downloadUrl);
    expect(bytes.status).to.equal(200);
    return Buffer.from(await bytes.arrayBuffer());
  };

  it('restores every record and file of a backup taken while the service runs', async () => {
    const dataDir = freshDir();
    const original = await startService(dataDir);
    const adminKey = original.generatedKey as string;
    expect(adminKey, original.service.output()).to.be.a('string');
    const admin = new HttpClient(original.baseUrl, adminKey);
    await pollUntil(async () => ((await admin.get('/readyz', { key: null })).status === 200 ? true : undefined), 30_000, 'ready');

    const customer = await admin.post('/v1/management/customers', { name: 'Backed up', tier: 'standard' });
    expect(customer.status, customer.raw.toString()).to.equal(201);
    const { customerId, apiKey: customerKey } = customer.body.data;
    const applicationId = `backup-${randomBytes(4).toString('hex')}`;
    const busyApplicationId = `busy-${randomBytes(4).toString('hex')}`;
    for (const id of [applicationId, busyApplicationId]) {
      expect((await admin.post('/v1/management/applications', { applicationId: id, name: id, customerIds: [customerId] })).status).to.equal(201);
    }
    const contents = new Map<string, Buffer>();
    for (let i = 1; i <= 6; i += 1) contents.set(`1.0.${i}`, await upload(admin, applicationId, `1.0.${i}`));
    const versionsBefore = await versionsOf(admin, applicationId);
    const customersBefore = (await admin.get('/v1/management/customers')).body.data;

    // Requests in flight through the whole backup: uploads of new versions and downloads.
    let busy = true;
    let uploadsDuring = 0;
    const traffic = (async () => {
      for (let i = 0; busy; i += 1) {
        await Promise.all([
          upload(admin, busyApplicationId, `2.0.${i}`).then(() => { uploadsDuring += 1; }),
          downloaded(original.baseUrl, customerKey, applicationId, versionsBefore[0].version, versionsBefore[0].files[0].fileId),
        ]);
      }
    })();
    await pollUntil(() => (uploadsDuring >= 2 ? true : undefined), 30_000, 'traffic under way');
    const backupDir = path.join(freshDir(), 'backup');
    const summary = await runBackupCommand('backup', backupDir, dataDir);
    expect(summary).to.match(/backed up .* objects/);
    busy = false;
    await traffic;
    await stop(original.service);

    const restoredDir = path.join(freshDir(), 'restored');
    await runBackupCommand('restore', backupDir, restoredDir);
    const restored = await startService(restoredDir);
    expect(restored.generatedKey, 'the restored admin key hash is used, no new key').to.equal(undefined);
    const restoredAdmin = new HttpClient(restored.baseUrl, adminKey);
    await pollUntil(async () => ((await restoredAdmin.get('/readyz', { key: null })).status === 200 ? true : undefined), 30_000, 'restored ready');

    // Every record there before the backup, as it was.
    const versionsAfter = await versionsOf(restoredAdmin, applicationId);
    const shape = (versions: ListedVersion[]) => versions.map(({ version, files }) => ({
      version, files: files.map(({ fileId, fileName, checksum, fileSize }) => ({ fileId, fileName, checksum, fileSize })),
    }));
    expect(shape(versionsAfter)).to.deep.equal(shape(versionsBefore));
    const customersAfter = (await restoredAdmin.get('/v1/management/customers')).body.data;
    expect(JSON.stringify(customersAfter)).to.include(customerId);
    expect(customersAfter.customers?.length ?? customersAfter.length).to.be.at.least(customersBefore.customers?.length ?? customersBefore.length);

    // Every file the restored store lists (those uploaded during the backup included) is whole.
    for (const { version, files } of versionsAfter) {
      const bytes = await downloaded(restored.baseUrl, customerKey, applicationId, version, files[0].fileId);
      expect(sha256(bytes)).to.equal(sha256(contents.get(version) as Buffer)).and.to.equal(files[0].checksum);
    }
    const busyVersions = await versionsOf(restoredAdmin, busyApplicationId);
    expect(busyVersions.length).to.be.at.least(2);
    for (const { version, files } of busyVersions) {
      for (const file of files) expect(sha256(await downloaded(restored.baseUrl, customerKey, busyApplicationId, version, file.fileId))).to.equal(file.checksum);
    }
    await stop(restored.service);
  });

  it('refuses to restore over a DATA_DIR that is not empty, and to back up where there is no store', async () => {
    const backupDir = freshDir();
    new Database(path.join(backupDir, 'store.sqlite')).exec('CREATE TABLE kept (x)').close();
    const notEmpty = freshDir();
    fs.writeFileSync(path.join(notEmpty, 'store.sqlite'), 'the service data');
    const restore = await backupCommand('restore', backupDir, notEmpty);
    expect(restore.status).to.equal(1);
    expect(restore.output).to.include('is not empty');
    expect(fs.readFileSync(path.join(notEmpty, 'store.sqlite'), 'utf8')).to.equal('the service data');

    const backup = await backupCommand('backup', path.join(backupDir, 'new'), freshDir());
    expect(backup.status).to.equal(1);
    expect(backup.output).to.include('no embedded store');
  });
});

function backupCommand(command: 'backup' | 'restore', dir: string, dataDir: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(DIST_DIR, 'bin', 'backup.js'), command, dir], {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.once('exit', (status) => resolve({ status, output }));
  });
}
