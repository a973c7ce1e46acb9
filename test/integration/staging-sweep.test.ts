import { expect } from 'chai';
import { Readable } from 'node:stream';
import type { UploadStatus } from '../../shared/store/models';
import type { NewUploadSession } from '../../shared/store/store';
import { stagingStorageKey } from '../../shared/uploads/storage-keys';
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
    await app.core.store.createUploadSession(session);
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
});
