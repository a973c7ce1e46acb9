import { UnrecoverableError, Worker } from 'bullmq';
import { expect } from 'chai';
import IORedis from 'ioredis';
import { Readable } from 'node:stream';
import { createLogger } from '../../shared/logger';
import { stagingStorageKey } from '../../shared/uploads/storage-keys';
import { launchWorkers } from '../../workers/worker-process';
import { createApplication } from '../support/factories';
import { pollUntil } from '../support/poll';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * A verification job can end failed where no worker of ours sees it (an operator's tool, a worker
 * that died before settling it): the upload sweep settles its upload.
 */
describe('upload sweep and failed verification jobs', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ workers: false });
  });
  after(() => app.close());

  it('fails an upload left verifying by a job failed outside the workers, deletes its bytes and releases its file name', async function () {
    this.timeout(30_000);
    const { applicationId } = await createApplication(app);
    const target = { applicationId, version: '1.0', fileName: 'lost.bin', fileSize: 3 };
    const issued = await app.http.post('/v1/management/upload/large-url', target);
    expect(issued.status, issued.raw.toString()).to.equal(201);
    const { uploadId } = issued.body.data;
    await app.core.storage.put(stagingStorageKey(uploadId), Readable.from([Buffer.from('abc')]));
    expect((await app.http.post('/v1/management/upload/large-complete', { uploadId, ...target })).status).to.equal(202);

    // Taken and failed by hand, as an operator's tool would: no worker of ours sees it fail.
    const connection = new IORedis(app.config.redisUrl as string, { maxRetriesPerRequest: null });
    const outsider = new Worker('uploads', null, { connection, prefix: app.config.redisPrefix, autorun: false });
    try {
      const token = 'outsider';
      const job = await outsider.getNextJob(token);
      expect(job?.id).to.equal(uploadId);
      await job!.moveToFailed(new UnrecoverableError('failed by hand'), token);
    } finally {
      await outsider.close();
      connection.disconnect();
    }
    const upload = () => app.http.get(`/v1/management/uploads/${uploadId}`).then((res) => res.body.data);
    expect((await upload()).status).to.equal('verifying');

    // The recurring sweep runs as soon as workers start.
    const workers = await launchWorkers(app.config, createLogger('silent', 'test'), app.core, app.config.redisUrl as string);
    try {
      const failed = await pollUntil(async () => {
        const current = await upload();
        return current.status === 'failed' ? current : undefined;
      }, 20_000, 'the sweep to fail the upload');
      expect(failed.failureReason).to.contain('verification stopped without a result');
    } finally {
      await workers.close();
    }
    expect(await app.core.storage.head(stagingStorageKey(uploadId))).to.equal(null);
    const again = await app.http.post('/v1/management/upload/large-url', target);
    expect(again.status, again.raw.toString()).to.equal(201);
  });
});
