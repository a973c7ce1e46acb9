import { conflict, gone, notFound, validationError } from '../../shared/errors';
import { EventRecorder, buildEvent, EventOrigin } from '../../shared/events/event-recorder';
import { formatChecksum, type Hashing, normaliseChecksum } from '../../shared/hashing';
import { newId } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import type { JobQueues } from '../../shared/queues/job-queues';
import type { ObjectStorage } from '../../shared/storage/object-storage';
import type { FeedKeys } from '../../shared/releases/signed-files';
import type { Application, FileRecord, UploadSession, Version, VersionWithFiles } from '../../shared/store/models';
import type { Store, UploadRelease } from '../../shared/store/store';
import { expireUploadSession } from '../../shared/uploads/expire-upload-session';
import { versionMismatch } from '../../shared/releases/upload-release';
import { fileStorageKey, stagingStorageKey } from '../../shared/uploads/storage-keys';
import type { FileObjects } from '../../shared/uploads/file-objects';
import { checkUpdateSignature, recordSignedUnder } from '../../shared/uploads/update-signature-check';
import { readPackageInfo } from '../../shared/packages/package-info';
import { contentTypeField } from '../../shared/contract/fields';
import type { LargeUploadCompletion, LargeUploadRequest, SmallUploadFields } from '../../shared/contract/uploads-requests';
import type { StagedFile } from './receive-multipart';
import { firstPublishedAt, webhookData } from '../../shared/webhooks/events';
import { versionWithFiles } from '../../shared/webhooks/version-with-files';
import type { Announcement, WebhookEvents } from '../../shared/webhooks/webhook-events';
import type { ApplicationService } from '../applications/application-service';
import { checkUpdateFile, checkVersionTakes, fileTypeOf, queueVerification, releaseFile, releaseOf, reserveFile, targetOf } from './pending-files';

/** What both uploads say about their file and its version. */
type UploadFields = SmallUploadFields;

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** Small uploads (published at once) and the three-step large upload (published by the verify-upload job). */
export class UploadService {
  constructor(
    private readonly store: Store,
    private readonly storage: ObjectStorage,
    /** Where verified bytes are placed (their content-addressed object) and released. */
    private readonly fileObjects: FileObjects,
    /** Where an update signature's prehash of its MAIN file is computed: the hashing threads. */
    private readonly hashing: Hashing,
    private readonly jobs: JobQueues,
    private readonly events: EventRecorder,
    private readonly webhooks: WebhookEvents,
    private readonly applications: ApplicationService,
    private readonly uploadUrlTtlSeconds: number,
    private readonly logger: Logger,
  ) {}

  /**
   * What can be checked of a small upload before its bytes are stored, from the fields sent before
   * them: the platform and arch, the application, and the channel and status of a version that exists.
   */
  async admitSmallUpload(fields: Partial<UploadFields>): Promise<void> {
    if (fields.platform !== undefined && fields.arch !== undefined) targetOf(fields);
    if (fields.applicationId === undefined) return;
    await this.applications.require(fields.applicationId);
    if (fields.version !== undefined) await this.checkVersionTakes(fields.applicationId, fields.version, releaseOf(fields));
  }

  /**
   * Publishes a file already staged (and hashed) by the multipart reader. Under one hold of the
   * application's cached records (503, nothing written, when the gateways cannot take it) the file is
   * reserved (pending), which is where a conflict refuses it with the version untouched, then
   * published with what the upload asks of its version (409, nothing written, when the version is in
   * another channel or status), and the upload event recorded. Between the two its bytes are placed
   * as its content-addressed object (kept as they are when another file holds the same bytes). The
   * bytes are removed on any failure that leaves the file unpublished (the object only when no other
   * file points at it).
   */
  async publishSmallUpload(fields: UploadFields, staged: StagedFile, origin: EventOrigin): Promise<{ file: FileRecord; version: VersionWithFiles; keys: FeedKeys }> {
    const fileId = newId('fil');
    const storageKey = fileStorageKey(fields.applicationId, fileId);
    let release = releaseOf(fields);
    let reserved: FileRecord | undefined;
    let placed: FileRecord | null = null;
    let published: { file: FileRecord; version: Version; at: Date };
    let application: Application;
    try {
      const target = targetOf(fields);
      checkUpdateFile(fields.fileType, staged.fileName, target);
      application = await this.applications.require(fields.applicationId);
      release = { ...release, createdStatus: application.defaultVersionStatus };
      await this.checkVersionTakes(fields.applicationId, fields.version, release);
      const received = new Date();
      const file: FileRecord = {
        fileId,
        applicationId: fields.applicationId,
        version: fields.version,
        fileName: staged.fileName,
        fileSize: staged.size,
        // The part's type becomes a response header of downloads: only a well-formed MIME type is kept.
        contentType: contentTypeField.safeParse(staged.mimeType).success ? staged.mimeType : DEFAULT_CONTENT_TYPE,
        checksum: null,
        fileType: fileTypeOf(fields.fileType, staged.fileName),
        ...target,
        status: 'pending',
        storageKey,
        createdAt: received,
        updatedAt: received,
      };
      const signature = await checkUpdateSignature(this.store, this.storage, this.hashing, file, staged.stagingKey);
      if (signature.problem) throw validationError([{ field: 'file', message: signature.problem }]);
      const packageReading = await readPackageInfo(this.storage, file, staged.stagingKey);
      if (packageReading.problem !== undefined) throw validationError([{ field: 'file', message: packageReading.problem }]);
      const now = new Date();
      // The version is announced only when this upload first published it (it created it published).
      const announcements: Announcement[] = [
        { type: 'upload.completed', subject: [fileId, ''], at: now },
        { type: 'version.published', subject: [fields.applicationId, fields.version, 'first'], at: now },
      ];
      published = await this.webhooks.announceChange(announcements, () => this.applications.change(fields.applicationId, async () => {
        reserved = await this.reserveFile({ ...file, createdAt: now, updatedAt: now });
        placed = await this.fileObjects.place(reserved, staged.stagingKey, staged.sha256);
        if (!placed) throw new Error(`file ${fileId} stopped being pending before its bytes were placed`);
        const result = await this.store.versions.publishFile(fileId, { checksum: formatChecksum(staged.sha256), sha512: staged.sha512, sha1: staged.sha1, packageInfo: packageReading.info, release }, now);
        if (result.outcome === 'version-differs') throw conflict(versionMismatch(result.version, release) as string);
        if (result.outcome === 'not-pending') throw new Error(`file ${fileId} was ${result.file?.status ?? 'missing'} before its upload published it`);
        await recordSignedUnder(this.store, result.file, signature);
        await this.events.record(buildEvent('upload', result.file, origin, now));
        return { file: result.file, version: result.version, at: now };
      }), async (written) => [
        webhookData.uploadCompleted(written.file, await versionWithFiles(this.store, written.version, [written.file]), null),
        firstPublishedAt(written.version, written.at) ? webhookData.version(await versionWithFiles(this.store, written.version, [written.file])) : null,
      ]);
    } catch (error) {
      const unpublished = reserved ? await this.releaseFile(reserved) : true;
      const object = placed;
      await Promise.all([this.storage.delete(staged.stagingKey), unpublished && object ? this.fileObjects.release(object) : undefined]);
      throw error;
    }
    return { file: published.file, version: await versionWithFiles(this.store, published.version, [published.file]), keys: application };
  }

  /**
   * Step 1: reserves the file (pending) and returns a pre-signed PUT URL (valid an hour by default).
   * The version's fields wait in the session until verification publishes the file.
   */
  async issueLargeUpload(request: LargeUploadRequest): Promise<{ session: UploadSession; uploadUrl: string }> {
    const target = targetOf(request);
    checkUpdateFile(request.fileType, request.fileName, target);
    await this.applications.require(request.applicationId);
    await this.checkVersionTakes(request.applicationId, request.version, releaseOf(request));
    const now = new Date();
    const uploadId = newId('upl');
    const fileId = newId('fil');
    const reserved = await this.reserveFile({
      fileId,
      applicationId: request.applicationId,
      version: request.version,
      fileName: request.fileName,
      fileSize: request.fileSize,
      contentType: request.contentType ?? DEFAULT_CONTENT_TYPE,
      checksum: null,
      fileType: fileTypeOf(request.fileType, request.fileName),
      ...target,
      status: 'pending',
      storageKey: fileStorageKey(request.applicationId, fileId),
      createdAt: now,
      updatedAt: now,
    });
    try {
      const stagingKey = stagingStorageKey(uploadId);
      const uploadUrl = await this.storage.presignPut(stagingKey, {
        expiresInSeconds: this.uploadUrlTtlSeconds,
        contentLength: request.fileSize,
      });
      const session = await this.store.uploads.createUploadSession({
        uploadId,
        applicationId: request.applicationId,
        version: request.version,
        fileName: request.fileName,
        fileSize: request.fileSize,
        contentType: request.contentType ?? DEFAULT_CONTENT_TYPE,
        fileType: fileTypeOf(request.fileType, request.fileName),
        ...target,
        releaseNotes: request.releaseNotes ?? null,
        requiredTier: request.requiredTier ?? null,
        channel: request.channel ?? null,
        versionStatus: request.status ?? null,
        fileId,
        storageKey: stagingKey,
        status: 'issued',
        expectedChecksum: null,
        failureReason: null,
        expiresAt: new Date(now.getTime() + this.uploadUrlTtlSeconds * 1000),
        createdAt: now,
        updatedAt: now,
      });
      return { session, uploadUrl };
    } catch (error) {
      // Without a session nothing would ever expire the reservation.
      await this.releaseFile(reserved);
      throw error;
    }
  }

  /**
   * Step 3: checks the session and the uploaded object, then queues verification (job id = upload id,
   * so a repeated call queues nothing new). A repeated call answers with the session as it stands
   * (completed or failed); an expired upload is 410 and an aborted one 409.
   */
  async completeLargeUpload(completion: LargeUploadCompletion): Promise<UploadSession> {
    const session = await this.store.uploads.getUploadSession(completion.uploadId);
    if (!session) throw notFound(`upload ${completion.uploadId} not found`);
    checkMatches(session, completion);
    if (session.status === 'expired') throw gone(`upload ${session.uploadId} has expired; request a new upload URL`);
    // Its bytes are gone and its name freed: nothing is left to complete.
    if (session.status === 'aborted') throw conflict(`upload ${session.uploadId} is aborted; request a new upload URL`);
    if (session.status === 'verifying') {
      await this.queueVerification(session.uploadId);
      return session;
    }
    if (session.status !== 'issued') return session;

    const now = new Date();
    if (session.expiresAt.getTime() <= now.getTime()) {
      await expireUploadSession(this.store, this.storage, session, now);
      throw gone(`upload ${session.uploadId} has expired; request a new upload URL`);
    }
    const object = await this.storage.head(session.storageKey);
    if (!object) throw conflict(`no bytes have been uploaded for ${session.uploadId}: PUT the file to the uploadUrl first`);
    if (object.size !== session.fileSize) {
      throw conflict(`the uploaded object has ${object.size} bytes but fileSize is ${session.fileSize}; upload the file again`);
    }
    // Release notes given now replace those of step 1; verification applies them with the file.
    const verifying = await this.store.uploads.updateUploadSession(session.uploadId, ['issued'], {
      status: 'verifying',
      expectedChecksum: completion.checksum === undefined ? null : normaliseChecksum(completion.checksum),
      releaseNotes: completion.releaseNotes,
    }, now);
    if (!verifying) return this.completeLargeUpload(completion);
    await this.queueVerification(session.uploadId);
    return verifying;
  }

  /** An upload with, once it has completed, its file, its version with every file, and the application's keys (for the version's updateFeedProblems). */
  async getUpload(uploadId: string): Promise<{ session: UploadSession; file: FileRecord | null; version: VersionWithFiles | null; keys: FeedKeys | null }> {
    const session = await this.store.uploads.getUploadSession(uploadId);
    if (!session) throw notFound(`upload ${uploadId} not found`);
    // Past its expiry an issued session is expired, whether or not the sweep has run yet.
    const current: UploadSession = session.status === 'issued' && session.expiresAt.getTime() <= Date.now()
      ? { ...session, status: 'expired' }
      : session;
    const file = current.status === 'completed' ? await this.store.versions.getFile(session.fileId) : null;
    const version = file ? await this.store.versions.getVersion(session.applicationId, session.version) : null;
    if (!file || !version) return { session: current, file, version: null, keys: null };
    const application = await this.store.applications.getApplication(session.applicationId, { includeDeleted: true });
    return { session: current, file, version: await versionWithFiles(this.store, version, [file]), keys: application };
  }

  private checkVersionTakes(applicationId: string, version: string, release: UploadRelease): Promise<void> {
    return checkVersionTakes(this.store, applicationId, version, release);
  }

  private reserveFile(file: FileRecord): Promise<FileRecord> {
    return reserveFile(this.store, file);
  }

  private releaseFile(file: FileRecord): Promise<boolean> {
    return releaseFile(this.store, this.logger, file);
  }

  private queueVerification(uploadId: string): Promise<void> {
    return queueVerification(this.jobs, uploadId, 'call large-complete');
  }
}

/** The completion must name the same upload as step 1. */
function checkMatches(session: UploadSession, completion: LargeUploadCompletion): void {
  const fields = ['applicationId', 'version', 'fileName', 'fileSize'] as const;
  const mismatched = fields.filter((field) => session[field] !== completion[field]);
  if (mismatched.length > 0) {
    throw validationError(mismatched.map((field) => ({ field, message: `does not match the upload (${String(session[field])})` })));
  }
}
