import { Job, UnrecoverableError } from 'bullmq';
import { buildEvent } from '../../shared/events/event-recorder';
import { ObjectNotFoundError } from '../../shared/errors';
import { FileDigests, formatChecksum } from '../../shared/hashing';
import type { JobPayloads } from '../../shared/queues/jobs';
import type { FileRecord, PackageInfo, UploadSession } from '../../shared/store/models';
import type { FilePublicationResult } from '../../shared/store/store';
import { releaseOfSession, versionMismatch } from '../../shared/releases/upload-release';
import { assembleMultipartUpload } from '../../shared/uploads/assemble-multipart-upload';
import { discardUploadBytes } from '../../shared/uploads/discard-upload-bytes';
import { fileStorageKey } from '../../shared/uploads/storage-keys';
import { checkUpdateSignature, recordSignedUnder, SignatureVerdict } from '../../shared/uploads/update-signature-check';
import { readPackageInfo } from '../../shared/packages/package-info';
import { firstPublishedAt, webhookData } from '../../shared/webhooks/events';
import { versionWithFiles } from '../../shared/webhooks/version-with-files';
import type { WorkerDeps } from '../worker-deps';

/**
 * The failedReason BullMQ gives a job that stalled more than maxStalledCount times (set by its Lua
 * scripts, not exported as a constant).
 */
const STALLED_TOO_OFTEN = 'job stalled more than allowable limit';

/**
 * Verifies a completed large or multipart upload: moves the staged object to the file's key (a
 * multipart upload is assembled there from its parts instead), computes its SHA-256 and SHA-512 in
 * one pass, then publishes the file with the version fields the upload carried, or
 * fails the upload and deletes the bytes (the version untouched). A checksum mismatch, or a version
 * that is now in another channel or status than the upload named, is permanent (no retry); storage
 * errors are retried with backoff, and the last attempt fails the upload. Every step is safe to
 * repeat, so a retried or duplicated job changes nothing, and a verification that resumes after its
 * upload was failed (its worker stalled too often) publishes nothing.
 */
export async function verifyUpload(job: Job<JobPayloads['verify-upload']>, deps: WorkerDeps): Promise<string> {
  const pending = await pendingVerification(job.data.uploadId, deps);
  if (!pending) return 'nothing to verify';
  const { session, file } = pending;
  try {
    return await verify(session, file, deps);
  } catch (error) {
    if (error instanceof UnrecoverableError) throw error;
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (lastAttempt) await failUpload(session, file, 'the upload could not be verified: a dependency stayed unavailable', deps);
    throw error;
  }
}

/**
 * Settles the upload of a verify-upload job that has ended failed, whatever failed it: a stall beyond
 * maxStalledCount (BullMQ fails the job without running the processor again, so its last-attempt
 * handling never runs), the processor's own failure handling cut short, or something outside the
 * workers. An upload still `verifying` is failed as the processor fails one; an upload the processor
 * settled already is left as it is. Safe to run any number of times, in any process.
 */
export async function settleFailedVerification(job: Job<JobPayloads['verify-upload']>, deps: WorkerDeps): Promise<void> {
  const pending = await pendingVerification(job.data.uploadId, deps);
  if (!pending) return;
  deps.logger.warn({ uploadId: job.data.uploadId, jobFailedReason: job.failedReason }, 'verification ended failed with its upload still verifying');
  const reason = job.failedReason === STALLED_TOO_OFTEN
    ? 'the upload could not be verified: verification was interrupted repeatedly (its worker stopped each time)'
    : 'the upload could not be verified: its verification stopped without a result';
  await settleFailure(pending.session, pending.file, reason, deps);
}

/** The session and its pending file when the upload still awaits verification, else null. */
async function pendingVerification(uploadId: string, deps: WorkerDeps): Promise<{ session: UploadSession; file: FileRecord } | null> {
  const session = await deps.store.uploads.getUploadSession(uploadId);
  if (!session || session.status !== 'verifying') return null;
  const file = await deps.store.versions.getFile(session.fileId);
  if (!file) throw new UnrecoverableError(`file ${session.fileId} of upload ${session.uploadId} is missing`);
  return { session, file };
}

async function verify(session: UploadSession, file: FileRecord, deps: WorkerDeps): Promise<string> {
  const ownKey = uploadKey(session, file);
  // Fed the bytes while the parts are assembled, when the store copies them itself: no second pass.
  let assembledDigests: FileDigests | undefined;
  if (session.multipart) {
    const digester = deps.hashing.digester();
    const assembly = await assembleMultipartUpload(deps.storage, session, digester).catch((error: unknown) => {
      digester.abort();
      throw error;
    });
    if (assembly.problem !== null || !assembly.observed) digester.abort();
    if (assembly.problem !== null) return failUpload(session, file, assembly.problem, deps);
    if (assembly.observed) assembledDigests = await digester.digest();
  } else {
    try {
      await deps.storage.move(session.storageKey, ownKey);
    } catch (error) {
      // Already moved by an earlier attempt of this job.
      if (!(error instanceof ObjectNotFoundError)) throw error;
    }
  }
  // The bytes are under the upload's own key, or, for an attempt that follows one which placed them,
  // already the file's object.
  const source = file.storageKey !== ownKey && (await deps.storage.head(ownKey)) === null ? file.storageKey : ownKey;
  const info = await deps.storage.head(source);
  if (!info) return failUpload(session, file, 'the uploaded object is missing', deps);
  if (info.size !== session.fileSize) {
    return failUpload(session, file, `the uploaded object has ${info.size} bytes, ${session.fileSize} were declared`, deps);
  }
  const digests = assembledDigests ?? await deps.storage.digests(source, deps.hashing);
  if (session.expectedChecksum !== null && digests.sha256 !== session.expectedChecksum) {
    return failUpload(session, file, `checksum mismatch: expected sha256:${session.expectedChecksum}, computed sha256:${digests.sha256}`, deps);
  }
  const signature = await checkUpdateSignature(deps.store, deps.storage, deps.hashing, file, source);
  if (signature.problem) return failUpload(session, file, signature.problem, deps);
  const packageReading = await readPackageInfo(deps.storage, file, source);
  if (packageReading.problem !== undefined) return failUpload(session, file, packageReading.problem, deps);
  // Checked: the bytes become the file's content-addressed object (kept as they are when another file
  // of the application holds the same bytes).
  const placed = await deps.fileObjects.place(file, source, digests.sha256);
  if (!placed) {
    deps.logger.warn({ uploadId: session.uploadId, fileId: file.fileId }, 'a verification ended after its upload had been failed: nothing placed');
    return failUpload(session, file, 'the upload was failed while its verification was running', deps);
  }
  const result = await publish(session, placed,
    { checksum: formatChecksum(digests.sha256), sha512: digests.sha512, sha1: digests.sha1, packageInfo: packageReading.info }, deps, signature);
  if (result.outcome === 'version-differs') {
    return failUpload(session, file, `${versionMismatch(result.version, releaseOfSession(session))} (it changed after the upload was requested)`, deps);
  }
  if (result.outcome === 'not-pending') {
    // Failed while this attempt hashed (it had stalled, and the upload was settled without it): nothing
    // is published, and a settlement cut short is finished.
    deps.logger.warn({ uploadId: session.uploadId, fileId: file.fileId }, 'a verification ended after its upload had been failed: nothing published');
    return failUpload(session, file, 'the upload was failed while its verification was running', deps);
  }
  deps.logger.info({ uploadId: session.uploadId, fileId: file.fileId, bytes: info.size }, 'upload verified');
  return 'completed';
}

/**
 * Publishes the file with what the upload asks of its version (Store.publishFile, written through the
 * gateways' invalidation bus), then records the upload event, emits the webhook events and completes
 * the upload. Each step is safe to repeat: the events' ids are fixed by the file, and a repeated
 * publication of an available file completes what an interrupted one left undone.
 */
async function publish(
  session: UploadSession, file: FileRecord, digests: { checksum: string; sha512: string; sha1: string; packageInfo: PackageInfo | null }, deps: WorkerDeps,
  /** The signature's verification (a SIGNATURE file's): the key it verified under is recorded on its version. */
  signature?: SignatureVerdict,
): Promise<FilePublicationResult> {
  // A version the upload creates without naming a status takes its application's default at publication.
  const application = await deps.store.applications.getApplication(file.applicationId, { includeDeleted: true });
  const release = { ...releaseOfSession(session), createdStatus: application?.defaultVersionStatus };
  const now = new Date();
  const result = await deps.catalogChange(file.applicationId, async () => {
    const published = await deps.store.versions.publishFile(file.fileId, { ...digests, release }, now);
    if (published.outcome === 'published' && signature) await recordSignedUnder(deps.store, published.file, signature);
    return published;
  });
  if (result.outcome !== 'published') return result;
  await deps.store.activity.insertEvents([buildEvent('upload', result.file, { customerId: null, clientIp: null, userAgent: null }, now, `upload-${file.fileId}`)]);
  // Before the session completes: when Redis refuses them, or the worker dies before they are queued,
  // the job is retried and emits them again (under the same event ids, so they are dispatched once).
  // This job is their outbox. A repeat finds the version as the first publication left it: published
  // when the file was (its updatedAt), or now when the version's write is what the repeat completes.
  const version = await versionWithFiles(deps.store, result.version, [result.file]);
  await deps.webhooks.emit('upload.completed', webhookData.uploadCompleted(result.file, version, session.uploadId), { eventId: `evt_upload_completed_${file.fileId}`, at: now });
  if (firstPublishedAt(result.version, result.file.updatedAt) || firstPublishedAt(result.version, now)) {
    await deps.webhooks.emit('version.published', webhookData.version(version), { eventId: `evt_version_published_${file.fileId}`, at: now });
  }
  await deps.store.uploads.updateUploadSession(session.uploadId, ['verifying'], { status: 'completed' }, now);
  return result;
}

/** Fails the upload (see settleFailure) and stops retries. */
async function failUpload(session: UploadSession, file: FileRecord, reason: string, deps: WorkerDeps): Promise<never> {
  await settleFailure(session, file, reason, deps);
  throw new UnrecoverableError(reason);
}

/**
 * Marks the upload and its file failed (releasing the file name and MAIN slot) and deletes the bytes.
 * A file already published stays so. Every write is conditional, so repeating it, or running it
 * alongside another settlement of the same upload, changes nothing more.
 */
async function settleFailure(session: UploadSession, file: FileRecord, reason: string, deps: WorkerDeps): Promise<void> {
  const now = new Date();
  const current = await deps.store.versions.setFileStatus(file.fileId, 'pending', 'failed', null, now) ?? await deps.store.versions.getFile(file.fileId);
  if (current?.status === 'available') {
    // The verification published it and stopped before the end: its bytes are the file's now, and
    // what it left undone (on MongoDB possibly the version's fields) is finished.
    // (An available file's digests are not written again: publishFile writes them only on a pending one.)
    if (current.checksum && current.sha512) await publish(session, current, { checksum: current.checksum, sha512: current.sha512, sha1: current.sha1 ?? '', packageInfo: current.packageInfo ?? null }, deps);
    await deps.store.uploads.updateUploadSession(session.uploadId, ['verifying'], { status: 'completed' }, now);
    return;
  }
  // Bytes go before the session says failed: whoever sees `failed` sees the bytes gone. The file's
  // object, when it was placed, goes only if no other file points at it.
  const settled = current ?? file;
  const ownKey = uploadKey(session, file);
  await Promise.all([
    deps.fileObjects.release(settled),
    settled.storageKey === ownKey ? undefined : deps.storage.delete(ownKey),
    discardUploadBytes(deps.storage, session),
  ]);
  const failed = await deps.webhooks.announceChange(
    [{ type: 'upload.failed', subject: [session.uploadId], at: now, eventId: `evt_upload_failed_${session.uploadId}` }],
    () => deps.store.uploads.updateUploadSession(session.uploadId, ['verifying'], { status: 'failed', failureReason: reason }, now),
    (settled) => [settled && webhookData.uploadFailed(settled)],
  );
  if (failed) deps.logger.info({ uploadId: session.uploadId, reason }, 'upload failed verification');
}

/** Where an upload's bytes are until they are placed: a multipart upload's assembled object, or a PUT's moved from its staging key. */
function uploadKey(session: UploadSession, file: FileRecord): string {
  return session.multipart ? session.storageKey : fileStorageKey(file.applicationId, file.fileId);
}
