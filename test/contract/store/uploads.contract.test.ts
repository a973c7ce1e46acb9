import { expect } from 'chai';
import type { Store } from '../../../shared/store/store';
import { at, uploadSession } from '../../support/records';
import { expectDuplicate } from '../../support/store-expectations';
import { describeStoreContract } from './harness';

/** The UploadStore port: upload sessions. */
describeStoreContract('upload sessions', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  it('stores a session and refuses a duplicate id', async () => {
    const session = uploadSession('up_1');
    expect(await store.uploads.createUploadSession(session)).to.deep.equal(session);
    expect(await store.uploads.getUploadSession('up_1')).to.deep.equal(session);
    expect(await store.uploads.getUploadSession('up_unknown')).to.equal(null);
    await expectDuplicate(store.uploads.createUploadSession(uploadSession('up_1', { fileName: 'other.exe' })), 'uploadId');
  });

  it("keeps an upload's release fields until verification, and the defaults for a session given without them", async () => {
    const asked = uploadSession('up_1', { platform: 'linux', arch: 'armv7l', channel: 'beta', versionStatus: 'draft' });
    expect(await store.uploads.createUploadSession(asked)).to.deep.equal(asked);
    expect(await store.uploads.getUploadSession('up_1')).to.deep.equal(asked);
    const { platform: _platform, arch: _arch, channel: _channel, versionStatus: _versionStatus, ...given } = uploadSession('up_2');
    expect(await store.uploads.createUploadSession(given)).to.deep.equal(uploadSession('up_2'));
    expect(await store.uploads.getUploadSession('up_2')).to.deep.include({ platform: 'any', arch: 'any', channel: null, versionStatus: null });
    const verifying = await store.uploads.updateUploadSession('up_1', ['issued'], { status: 'verifying' }, at(1));
    expect(verifying).to.deep.equal({ ...asked, status: 'verifying', updatedAt: at(1) });
  });

  it("keeps a multipart session's store upload id and part size, and reads a session given without them as a single PUT", async () => {
    const multipart = uploadSession('up_1', {
      fileSize: 5 * 1024 ** 4,
      storageKey: 'files/app_1/file_up_1',
      multipart: { storageUploadId: 'VXBsb2FkIElEIGZvciA2aWWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA.-_~', partSize: 550_502_400 },
      expiresAt: at(5),
    });
    expect(await store.uploads.createUploadSession(multipart)).to.deep.equal(multipart);
    expect(await store.uploads.getUploadSession('up_1')).to.deep.equal(multipart);
    const { multipart: _multipart, ...given } = uploadSession('up_2');
    expect(await store.uploads.createUploadSession(given)).to.deep.equal(uploadSession('up_2'));
    expect((await store.uploads.getUploadSession('up_2'))?.multipart).to.equal(null);
    expect(await store.uploads.listExpiredUploadSessions(at(5), 10)).to.deep.equal([multipart]);
    const aborted = await store.uploads.updateUploadSession('up_1', ['issued'], { status: 'aborted' }, at(6));
    expect(aborted).to.deep.equal({ ...multipart, status: 'aborted', updatedAt: at(6) });
    expect(await store.uploads.listExpiredUploadSessions(at(10), 10)).to.deep.equal([]);
  });

  it('updates a session only from the expected statuses, leaving omitted fields unchanged', async () => {
    const session = uploadSession('up_1');
    await store.uploads.createUploadSession(session);
    expect(await store.uploads.updateUploadSession('up_1', ['verifying'], { status: 'completed' }, at(1))).to.equal(null);
    expect(await store.uploads.updateUploadSession('up_1', [], { status: 'completed' }, at(1))).to.equal(null);
    expect(await store.uploads.getUploadSession('up_1')).to.deep.equal(session);
    const verifying = await store.uploads.updateUploadSession('up_1', ['issued', 'verifying'], { status: 'verifying', expectedChecksum: 'abc' }, at(2));
    expect(verifying).to.deep.equal({ ...session, status: 'verifying', expectedChecksum: 'abc', updatedAt: at(2) });
    expect(await store.uploads.updateUploadSession('up_1', ['issued'], { status: 'expired' }, at(3))).to.equal(null);
    const failed = await store.uploads.updateUploadSession('up_1', ['verifying'],
      { status: 'failed', failureReason: 'checksum mismatch', releaseNotes: null }, at(4));
    expect(failed).to.deep.equal({
      ...session, status: 'failed', expectedChecksum: 'abc', failureReason: 'checksum mismatch', releaseNotes: null, updatedAt: at(4),
    });
    expect(await store.uploads.getUploadSession('up_1')).to.deep.equal(failed);
    expect(await store.uploads.updateUploadSession('up_unknown', ['issued'], { status: 'expired' }, at(5))).to.equal(null);
  });

  it('lists issued sessions expired at or before now, soonest first, up to the limit', async () => {
    await store.uploads.createUploadSession(uploadSession('up_1', { expiresAt: at(10) }));
    await store.uploads.createUploadSession(uploadSession('up_2', { expiresAt: at(5) }));
    await store.uploads.createUploadSession(uploadSession('up_3', { expiresAt: at(20) }));
    await store.uploads.createUploadSession(uploadSession('up_4', { expiresAt: at(1), status: 'verifying' }));
    await store.uploads.createUploadSession(uploadSession('up_5', { expiresAt: at(8) }));
    const expired = await store.uploads.listExpiredUploadSessions(at(10), 10);
    expect(expired.map((s) => s.uploadId)).to.deep.equal(['up_2', 'up_5', 'up_1']);
    expect(expired[0]).to.deep.equal(uploadSession('up_2', { expiresAt: at(5) }));
    expect((await store.uploads.listExpiredUploadSessions(at(10), 2)).map((s) => s.uploadId)).to.deep.equal(['up_2', 'up_5']);
    expect(await store.uploads.listExpiredUploadSessions(at(4), 10)).to.deep.equal([]);
  });
});
