import { Queue } from 'bullmq';
import { expect } from 'chai';
import IORedis from 'ioredis';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KEYS_FAIL_OPEN } from '../../gateway/rate-limits/rate-limiting';
import { findFreePort } from '../../shared/net';
import { fileStorageKey, stagingStorageKey } from '../../shared/uploads/storage-keys';
import { JOB_LOCKS } from '../../workers/worker-process';
import { DedicatedRedis, startDedicatedRedis } from '../support/dedicated-redis';
import { smallUploadForm } from '../support/factories';
import { HttpClient } from '../support/http-client';
import { NodeProcess } from '../support/node-process';
import { pollUntil } from '../support/poll';

/** One parsed pino line of a child process. */
interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

const WARN = 40;
const ERROR = 50;

/** The JSON log lines `child` printed after the first `from` characters of its stdout. */
function logLines(child: NodeProcess, from = 0): LogLine[] {
  return child.stdout.slice(from).split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogLine);
}

/** The Procfile processes (web, worker) on a Redis of their own, under a worker kill and a Redis outage. */
describe('web and worker processes under faults', function () {
  this.timeout(120_000);

  const adminKey = `adm_${randomBytes(24).toString('hex')}`;
  let redis: DedicatedRedis;
  let dataDir: string;
  let env: Record<string, string>;
  let web: NodeProcess;
  let worker: NodeProcess;
  let admin: HttpClient;
  const started: NodeProcess[] = [];

  const startWorker = async () => {
    const child = new NodeProcess('bin/worker.js', env);
    started.push(child);
    await child.waitForOutput(/"msg":"workers started"/, 30_000);
    return child;
  };
  const waitReady = () =>
    pollUntil(async () => ((await admin.get('/readyz', { key: null })).status === 200 ? true : undefined), 30_000, '/readyz 200');

  before(async () => {
    redis = await startDedicatedRedis();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-faults-'));
    const port = await findFreePort();
    env = {
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_API_KEYS: adminKey,
      REDIS_URL: redis.url,
      REDIS_PREFIX: `p${randomBytes(6).toString('hex')}`,
      LOG_LEVEL: 'info',
    };
    web = new NodeProcess('bin/web.js', env);
    started.push(web);
    admin = new HttpClient(`http://127.0.0.1:${port}`, adminKey);
    worker = await startWorker();
    await waitReady();
  });

  after(async () => {
    await Promise.all(started.map((child) => child.kill()));
    await redis?.dispose();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes a verification whose worker was killed, once, and completes it', async () => {
    const applicationId = `faults-${randomBytes(4).toString('hex')}`;
    expect((await admin.post('/v1/management/applications', { applicationId, name: 'Faults', defaultVersionStatus: 'published' })).status).to.equal(201);
    // A sparse staging object, as a PUT would leave it: hashing it takes long enough to be killed
    // mid-way, and it takes no disk.
    const fileSize = 256 * 1024 ** 2;
    const issued = await admin.post('/v1/management/upload/large-url', { applicationId, version: '1', fileName: 'big.bin', fileSize });
    expect(issued.status, issued.raw.toString()).to.equal(201);
    const { uploadId, fileId } = issued.body.data;
    const staged = path.join(dataDir, 'objects', stagingStorageKey(uploadId));
    fs.mkdirSync(path.dirname(staged), { recursive: true });
    fs.writeFileSync(staged, '');
    fs.truncateSync(staged, fileSize);
    const published = path.join(dataDir, 'objects', fileStorageKey(applicationId, fileId));

    const completion = { uploadId, applicationId, version: '1', fileName: 'big.bin', fileSize };
    expect((await admin.post('/v1/management/upload/large-complete', completion)).status).to.equal(202);
    // The processor moves the object to the file's key before hashing it: from then on it is hashing.
    await pollUntil(() => (fs.existsSync(published) ? true : undefined), 20_000, 'the verification to start', 10);
    worker.signal('SIGKILL');
    await worker.exitWithin(5_000);
    worker = await startWorker();

    // A correctness bound, not a benchmark: BullMQ's defaults took 31 to 62 s.
    const stalls = () => logLines(worker).filter((line) => line.msg.startsWith('job stalled') && line.jobId === uploadId);
    await pollUntil(() => (stalls().length > 0 ? true : undefined), 20_000, 'the killed verification to resume');
    const completed = await pollUntil(async () => {
      const upload = (await admin.get(`/v1/management/uploads/${uploadId}`)).body.data;
      return upload.status === 'completed' ? upload : undefined;
    }, 60_000, 'the verification to complete');
    expect(completed.file.fileSize).to.equal(fileSize);
    expect(stalls(), 'a stall while the resumed verification hashed').to.have.length(1);
  });

  it('fails a verification that keeps killing its worker, deletes its bytes and releases its file name', async function () {
    this.timeout(90_000);
    const applicationId = `stalls-${randomBytes(4).toString('hex')}`;
    expect((await admin.post('/v1/management/applications', { applicationId, name: 'Stalls', defaultVersionStatus: 'published' })).status).to.equal(201);
    // Sparse, so it takes no disk; hashing it takes far longer than it takes to kill the worker.
    const fileSize = 1024 ** 3;
    const target = { applicationId, version: '1', fileName: 'stalls.bin', fileSize };
    const issued = await admin.post('/v1/management/upload/large-url', target);
    expect(issued.status, issued.raw.toString()).to.equal(201);
    const { uploadId, fileId } = issued.body.data;
    const staged = path.join(dataDir, 'objects', stagingStorageKey(uploadId));
    fs.mkdirSync(path.dirname(staged), { recursive: true });
    fs.writeFileSync(staged, '');
    fs.truncateSync(staged, fileSize);
    const published = path.join(dataDir, 'objects', fileStorageKey(applicationId, fileId));
    expect((await admin.post('/v1/management/upload/large-complete', { uploadId, ...target })).status).to.equal(202);

    const connection = new IORedis(redis.url, { maxRetriesPerRequest: null });
    const uploads = new Queue('uploads', { connection, prefix: env.REDIS_PREFIX });
    try {
      // Each start is killed while active: its lock lapses, and the next worker's stalled check counts
      // a stall. One more than maxStalledCount fails the job, in the worker that takes it next.
      for (let start = 1; start <= JOB_LOCKS.maxStalledCount + 1; start += 1) {
        await pollUntil(async () => {
          const job = await uploads.getJob(uploadId);
          return job?.attemptsStarted === start && (await job.getState()) === 'active' ? true : undefined;
        }, 30_000, `start ${start} of the verification`, 10);
        worker.signal('SIGKILL');
        await worker.exitWithin(5_000);
        worker = await startWorker();
      }
      const failed = await pollUntil(async () => {
        const upload = (await admin.get(`/v1/management/uploads/${uploadId}`)).body.data;
        return upload.status === 'failed' ? upload : undefined;
      }, 30_000, 'the upload to fail');
      expect(failed.failureReason).to.contain('verification was interrupted repeatedly');
      expect((await uploads.getJob(uploadId))?.failedReason).to.contain('stalled more than allowable limit');
    } finally {
      await uploads.close();
      connection.disconnect();
    }
    expect(fs.existsSync(published), 'the moved bytes').to.equal(false);
    expect(fs.existsSync(staged), 'the staged bytes').to.equal(false);
    // The failed file released its name and the MAIN slot.
    const again = await admin.post('/v1/management/upload/large-url', target);
    expect(again.status, again.raw.toString()).to.equal(201);
  });

  it('a verification that resumes after its upload was failed for stalling publishes nothing: the version keeps what it had', async function () {
    this.timeout(300_000);
    const applicationId = `stale-${randomBytes(4).toString('hex')}`;
    expect((await admin.post('/v1/management/applications', { applicationId, name: 'Stale', defaultVersionStatus: 'published' })).status).to.equal(201);
    const original = await admin.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '1', releaseNotes: 'Original' }) });
    expect(original.status).to.equal(201);
    const listing = async () => (await admin.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions;
    const fileSize = 1024 ** 3;
    const target = { applicationId, version: '1', fileName: 'stale.bin', fileSize };
    const issued = await admin.post('/v1/management/upload/large-url', { ...target, fileType: 'OTHER', releaseNotes: 'From the failed upload', requiredTier: 'enterprise' });
    expect(issued.status, issued.raw.toString()).to.equal(201);
    const { uploadId, fileId } = issued.body.data;
    /** The versions as listed, without the upload's own file. */
    const versions = async () => (await listing()).map((v: { files: { fileId: string }[] }) => ({ ...v, files: v.files.filter((f) => f.fileId !== fileId) }));
    const before = await versions();
    const staged = path.join(dataDir, 'objects', stagingStorageKey(uploadId));
    fs.mkdirSync(path.dirname(staged), { recursive: true });
    fs.writeFileSync(staged, '');
    fs.truncateSync(staged, fileSize);
    const published = path.join(dataDir, 'objects', fileStorageKey(applicationId, fileId));
    expect((await admin.post('/v1/management/upload/large-complete', { uploadId, ...target })).status).to.equal(202);

    // The first worker stops mid-hash (a long pause, not a crash): its lock lapses while it holds the bytes open.
    await pollUntil(() => (fs.existsSync(published) ? true : undefined), 20_000, 'the verification to start', 10);
    const stale = worker;
    stale.signal('SIGSTOP');
    const connection = new IORedis(redis.url, { maxRetriesPerRequest: null });
    const uploads = new Queue('uploads', { connection, prefix: env.REDIS_PREFIX });
    try {
      worker = await startWorker();
      // The next workers take the job in turn and are killed while active; one stall more than
      // maxStalledCount fails it, and the worker that sees that settles the upload as failed.
      for (let start = 2; start <= JOB_LOCKS.maxStalledCount + 1; start += 1) {
        await pollUntil(async () => {
          const job = await uploads.getJob(uploadId);
          return job?.attemptsStarted === start && (await job.getState()) === 'active' ? true : undefined;
        }, 30_000, `start ${start} of the verification`, 10);
        worker.signal('SIGKILL');
        await worker.exitWithin(5_000);
        worker = await startWorker();
      }
      const failed = await pollUntil(async () => {
        const upload = (await admin.get(`/v1/management/uploads/${uploadId}`)).body.data;
        return upload.status === 'failed' ? upload : undefined;
      }, 30_000, 'the upload to fail');
      expect(failed.failureReason).to.contain('verification was interrupted repeatedly');
    } finally {
      stale.signal('SIGCONT');
      await uploads.close();
      connection.disconnect();
    }

    // The stopped worker finishes its hash and tries to publish.
    const versionChanged = async () => JSON.stringify(await versions()) !== JSON.stringify(before);
    const gaveUp = () => logLines(stale).some((line) => line.msg.startsWith('a verification ended after its upload had been failed') && line.uploadId === uploadId);
    // The resumed worker still hashes the rest of a gibibyte, which takes minutes on a loaded machine.
    await pollUntil(async () => (gaveUp() || await versionChanged() ? true : undefined), 180_000, 'the stale verification to end').catch((error: Error) => {
      // What the resumed worker did instead is the only clue a rare failure here leaves.
      throw new Error(`${error.message}; the stopped worker's last log lines:\n${stale.stdout.split('\n').slice(-20).join('\n')}`);
    });
    expect(await versions(), 'the version and its other files').to.deep.equal(before);
    const own = (await listing())[0].files.find((f: { fileId: string }) => f.fileId === fileId);
    expect(own).to.include({ status: 'failed', checksum: null, sha512: null });
    expect((await admin.get(`/v1/management/uploads/${uploadId}`)).body.data).to.include({ status: 'failed', file: null });
    expect(fs.existsSync(published), 'the moved bytes').to.equal(false);
    await stale.kill();
    expect((await admin.post('/v1/management/upload/large-url', { ...target, fileType: 'OTHER' })).status).to.equal(201);
  });

  it('logs a Redis outage once per process, at warn, with what it affected, and its end', async () => {
    const created = await admin.post('/v1/management/customers', { name: 'Outage', tier: 'standard' });
    const { customerId, apiKey } = created.body.data;
    const applicationId = `outage-${randomBytes(4).toString('hex')}`;
    expect((await admin.post('/v1/management/applications', { applicationId, name: 'Outage', customerIds: [customerId], defaultVersionStatus: 'published' })).status).to.equal(201);
    expect((await admin.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '1' }) })).status).to.equal(201);
    const download = () => admin.get(`/v1/downloads/url?applicationId=${applicationId}&version=1`, { key: apiKey });
    expect((await download()).status).to.equal(200);
    const webFrom = web.stdout.length;
    const workerFrom = worker.stdout.length;

    await redis.stop();
    await web.waitForOutput(/"msg":"redis is unreachable"/, 10_000);
    let refused = 0;
    // The gateway's in-process caches are off from the moment its subscription drops.
    await pollUntil(async () => ((await download()).status === 503 ? (refused += 1) : undefined), 5_000, 'a download refused');
    const outageEnds = Date.now() + 3_000;
    while (Date.now() < outageEnds) {
      const answers = await Promise.all([
        download(),
        admin.patch(`/v1/management/customers/${customerId}`, { notes: 'during the outage' }),
      ]);
      for (const answer of answers) {
        expect(answer.status, answer.raw.toString()).to.equal(503);
        refused += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await redis.restart();
    await waitReady();
    await web.waitForOutput(/"msg":"redis is reachable again"/, 20_000);
    await worker.waitForOutput(/"msg":"redis is reachable again"/, 20_000);
    expect((await download()).status).to.equal(200);

    for (const [name, child, from] of [['web', web, webFrom], ['worker', worker, workerFrom]] as const) {
      const lines = logLines(child, from);
      const byLevel = (level: number) => lines.filter((line) => line.level === level).map((line) => line.msg);
      expect(lines.filter((line) => line.level >= ERROR), `${name}: error lines`).to.deep.equal([]);
      // A gateway whose rate limits had to ask Redis meanwhile (a window ended) also says, once, that keys went uncounted.
      const warnings = byLevel(WARN);
      expect(warnings.filter((msg) => msg === KEYS_FAIL_OPEN).length, `${name}: ${KEYS_FAIL_OPEN}`).to.be.at.most(name === 'web' ? 1 : 0);
      expect(warnings.filter((msg) => msg !== KEYS_FAIL_OPEN), `${name}: warn lines`).to.deep.equal(['redis is unreachable', 'redis is reachable again']);
      const end = lines.find((line) => line.msg === 'redis is reachable again') as LogLine;
      expect(end.downForMs, `${name}: outage length`).to.be.a('number').above(0);
      if (name === 'web') expect(end.refusedRequests, 'requests answered 503').to.equal(refused);
    }
  });
});
