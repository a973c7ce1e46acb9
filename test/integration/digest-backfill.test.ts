import { Queue } from 'bullmq';
import { expect } from 'chai';
import IORedis from 'ioredis';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { createLogger } from '../../shared/logger';
import { JOBS } from '../../shared/queues/jobs';
import type { FileRecord } from '../../shared/store/models';
import { fileStorageKey } from '../../shared/uploads/storage-keys';
import { launchWorkers } from '../../workers/worker-process';
import { createApplication, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { file as fileRecord } from '../support/records';
import { startTestApp, TestApp } from '../support/test-app';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');
const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

/** Files published before SHA-512 or SHA-1 was kept get theirs from a job every worker start adds. */
describe('SHA-512 and SHA-1 backfill of files stored before they were kept', function () {
  this.timeout(60_000);
  let app: TestApp;
  let connection: IORedis;
  let maintenance: Queue;
  const job = 'backfill-file-digests';

  before(async () => {
    app = await startTestApp({ workers: false });
    connection = new IORedis(app.config.redisUrl as string, { maxRetriesPerRequest: null });
    maintenance = new Queue(JOBS[job].queue, { connection, prefix: app.config.redisPrefix });
  });
  after(async () => {
    await maintenance?.close();
    connection?.disconnect();
    await app?.close();
  });

  /** An available file as the release before SHA-512 stored it: bytes (unless null) and a checksum of `checksummed`, no SHA-512. */
  async function storeOldFile(applicationId: string, fileId: string, bytes: Buffer | null, checksummed = bytes ?? Buffer.alloc(0), kept: Partial<FileRecord> = {}): Promise<FileRecord> {
    const storageKey = fileStorageKey(applicationId, fileId);
    if (bytes) await app.core.storage.put(storageKey, Readable.from([bytes]), { contentLength: bytes.length });
    await app.core.store.versions.upsertVersion(applicationId, '1.0.0', {}, new Date());
    return app.core.store.versions.insertFile(fileRecord(fileId, {
      applicationId, version: '1.0.0', fileName: `${fileId}.bin`, fileSize: checksummed.length, storageKey,
      checksum: `sha256:${sha256(checksummed)}`, fileType: 'OTHER', sha512: null, sha1: null, createdAt: new Date(), updatedAt: new Date(), ...kept,
    }));
  }

  /** Starts workers (which add the backfill) and waits for the run to end: the job is not kept once it ends. */
  async function startWorkersUntilBackfilled(): Promise<void> {
    const workers = await launchWorkers(app.config, createLogger('silent', 'test'), app.core, app.config.redisUrl as string);
    try {
      await pollUntil(async () => ((await maintenance.getJob(job)) ? undefined : true), 30_000, 'the backfill to end');
    } finally {
      await workers.close();
    }
  }

  const sha512Of = async (fileId: string) => (await app.core.store.versions.getFile(fileId))?.sha512;
  const sha1Of = async (fileId: string) => (await app.core.store.versions.getFile(fileId))?.sha1;

  it('fills in the SHA-512 of available files from their bytes, leaves the rest, and a second run changes nothing', async () => {
    const { applicationId } = await createApplication(app);
    const contents = [randomBytes(3_000_000), randomBytes(1), Buffer.alloc(0)];
    const old = await Promise.all(contents.map((bytes, i) => storeOldFile(applicationId, `fil_old_${i}`, bytes)));
    const missing = await storeOldFile(applicationId, 'fil_old_missing', null, randomBytes(10));
    const tampered = await storeOldFile(applicationId, 'fil_old_tampered', randomBytes(10), randomBytes(10));
    // Stored when SHA-512 was kept but SHA-1 was not yet.
    const sha512Only = randomBytes(5000);
    const withSha512 = await storeOldFile(applicationId, 'fil_old_sha512_only', sha512Only, sha512Only, { sha512: sha512(sha512Only) });
    const uploaded = await uploadSmallFile(app, { applicationId, version: '2.0.0' });
    const uploadedBefore = await app.core.store.versions.getFile(uploaded.fileId);
    expect(uploadedBefore?.sha512, 'an upload computes its own').to.be.a('string');
    expect(uploadedBefore?.sha1, 'an upload computes its own').to.match(/^[0-9a-f]{40}$/);
    for (const record of old) expect(await app.core.store.versions.listFilesMissingDigests(100)).to.deep.include(record);

    await startWorkersUntilBackfilled();
    for (const [i, record] of old.entries()) {
      expect(await sha512Of(record.fileId), record.fileId).to.equal(sha512(contents[i]));
      expect(await sha1Of(record.fileId), record.fileId).to.equal(sha1(contents[i]));
    }
    expect(await sha1Of(withSha512.fileId), 'SHA-1 added beside a kept SHA-512').to.equal(sha1(sha512Only));
    expect(await sha512Of(withSha512.fileId)).to.equal(sha512(sha512Only));
    expect(await sha512Of(missing.fileId), 'bytes missing').to.equal(null);
    expect(await sha1Of(missing.fileId), 'bytes missing').to.equal(null);
    expect(await sha512Of(tampered.fileId), 'bytes not matching the checksum').to.equal(null);
    expect(await sha1Of(tampered.fileId), 'bytes not matching the checksum').to.equal(null);
    expect(await app.core.store.versions.getFile(uploaded.fileId)).to.deep.equal(uploadedBefore);
    const listed = (await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions;
    const shown = listed.find((v: { version: string }) => v.version === '1.0.0').files.find((f: { fileId: string }) => f.fileId === old[0].fileId);
    expect(shown).to.include({ sha512: sha512(contents[0]), sha1: sha1(contents[0]), platform: 'any', arch: 'any' });

    const done = await app.core.store.versions.listVersions(applicationId);
    await startWorkersUntilBackfilled();
    expect(await app.core.store.versions.listVersions(applicationId)).to.deep.equal(done);
  });

  it('resumes a run from the file it had got to', async () => {
    const { applicationId } = await createApplication(app);
    const contents = [1, 2, 3, 4].map(() => randomBytes(1000));
    const ids = await Promise.all(contents.map(async (bytes, i) => (await storeOldFile(applicationId, `fil_resume_${i}`, bytes)).fileId));
    // As a run interrupted after its second file left it: the start's own add is then a no-op.
    await maintenance.add(job, { afterFileId: ids[1] }, JOBS[job].options?.({}));
    await startWorkersUntilBackfilled();
    expect(await Promise.all(ids.map(sha512Of))).to.deep.equal([null, null, sha512(contents[2]), sha512(contents[3])]);

    await startWorkersUntilBackfilled();
    expect(await Promise.all(ids.map(sha512Of))).to.deep.equal(contents.map(sha512));
  });
});
