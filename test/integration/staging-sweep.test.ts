import { expect } from 'chai';
import { Readable } from 'node:stream';
import type { UploadStatus } from '../../shared/store/models';
import type { NewUploadSession } from '../../shared/store/store';
import { SMALL_UPLOAD_STAGING_RETENTION_MS } from '../../shared/policy';
import { formStagingKey, stagingStorageKey } from '../../shared/uploads/storage-keys';
import { sweepStagingObjects } from '../../shared/uploads/sweep-staging-objects';
import { startTestApp, TestApp } from '../support/test-app';

/** Staging objects written through an upload URL after its upload finished are deleted once the URL has expired. */
describe('staging object sweep', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ workers: false });
  });
  after(() => app.close());

  async function sessionWithStagedBytes(uploadId: string, status: UploadStatus, urlExpired: boolean): Promise<string> {
    const now = Date.now();
    const session: NewUploadSession = {
      uploadId,
      applicationId: 'sweep-app',
      version: '1.0',
      fileName: `${uploadId}.bin`,
      fileSize: 3,
      contentType: 'application/octet-stream',
      fileType: 'MAIN',
      releaseNotes: null,
      requiredTier: null,
      fileId: `fil_${uploadId}`,
      storageKey: stagingStorageKey(uploadId),
      status,
      expectedChecksum: null,
      failureReason: null,
      expiresAt: new Date(urlExpired ? now - 1_000 : now + 3_600_000),
      createdAt: new Date(now - 7_200_000),
      updatedAt: new Date(now),
    };
    await app.core.store.uploads.createUploadSession(session);
    await app.core.storage.put(session.storageKey, Readable.from([Buffer.from('abc')]));
    return session.storageKey;
  }

  it('deletes what finished uploads left behind and keeps what is still in use', async () => {
    const gone = [
      await sessionWithStagedBytes('upl_sweep_completed', 'completed', true),
      await sessionWithStagedBytes('upl_sweep_failed', 'failed', true),
    ];
    const kept = [
      await sessionWithStagedBytes('upl_sweep_completed_url_valid', 'completed', false),
      await sessionWithStagedBytes('upl_sweep_issued', 'issued', false),
      await sessionWithStagedBytes('upl_sweep_verifying', 'verifying', true),
    ];
    const orphan = stagingStorageKey('upl_sweep_no_session');
    await app.core.storage.put(orphan, Readable.from([Buffer.from('abc')]));

    expect(await sweepStagingObjects(app.core.store, app.core.storage, 100)).to.equal(3);
    for (const key of [...gone, orphan]) expect(await app.core.storage.head(key), key).to.equal(null);
    for (const key of kept) expect(await app.core.storage.head(key), key).to.deep.include({ size: 3 });
    expect(await sweepStagingObjects(app.core.store, app.core.storage, 100)).to.equal(0);
  });

  it("keeps a small upload's staged file while its request may still run, and sweeps one left behind past the retention", async () => {
    const now = Date.now();
    const running = formStagingKey(now);
    const leftBehind = formStagingKey(now - SMALL_UPLOAD_STAGING_RETENTION_MS - 1_000);
    for (const key of [running, leftBehind]) await app.core.storage.put(key, Readable.from([Buffer.from('abc')]));

    expect(await sweepStagingObjects(app.core.store, app.core.storage, 100, new Date(now))).to.equal(1);
    expect(await app.core.storage.head(running), 'a small upload in progress').to.deep.include({ size: 3 });
    expect(await app.core.storage.head(leftBehind)).to.equal(null);
    await app.core.storage.delete(running);
  });
});
