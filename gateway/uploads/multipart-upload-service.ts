import { conflict, gone, notFound, validationError } from '../../shared/errors';
import { normaliseChecksum } from '../../shared/hashing';
import { newId } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import type { JobQueues } from '../../shared/queues/job-queues';
import { MultipartUploadNotFoundError, ObjectStorage, StoredPart } from '../../shared/storage/object-storage';
import type { UploadSession } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import { discardUploadBytes } from '../../shared/uploads/discard-upload-bytes';
import { expireUploadSession } from '../../shared/uploads/expire-upload-session';
import { choosePartSize, describeShortfall, partLayout, PartLayout, partShortfall, partSizeOf } from '../../shared/uploads/multipart-layout';
import { fileStorageKey } from '../../shared/uploads/storage-keys';
import type { PartUrl } from '../../shared/contract/uploads';
import type { MultipartUploadRequest } from '../../shared/contract/uploads-requests';
import type { ApplicationService } from '../applications/application-service';
import { checkUpdateFile, checkVersionTakes, fileTypeOf, queueVerification, releaseFile, releaseOf, reserveFile, targetOf } from './pending-files';

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** How long the URLs of one part request live, at most; never past the session's expiry. */
export interface MultipartLifetimes {
  sessionSeconds: number;
  partUrlSeconds: number;
}

/**
 * Multipart uploads: opened with the file reserved (name and MAIN slot) and the object store's
 * multipart upload created on the file's own key; parts pre-signed on demand; completed by queuing
 * verify-upload, which assembles the parts and verifies the file as it does a large upload; aborted
 * by an admin or by the expiry sweep, which discards the parts and frees the name.
 */
export class MultipartUploadService {
  constructor(
    private readonly store: Store,
    private readonly storage: ObjectStorage,
    private readonly jobs: JobQueues,
    private readonly applications: ApplicationService,
    private readonly lifetimes: MultipartLifetimes,
    private readonly logger: Logger,
  ) {}

  async open(request: MultipartUploadRequest): Promise<UploadSession> {
    const target = targetOf(request);
    checkUpdateFile(request.fileType, request.fileName, target);
    await this.applications.require(request.applicationId);
    await checkVersionTakes(this.store, request.applicationId, request.version, releaseOf(request));
    const now = new Date();
    const uploadId = newId('upl');
    const fileId = newId('fil');
    const storageKey = fileStorageKey(request.applicationId, fileId);
    const contentType = request.contentType ?? DEFAULT_CONTENT_TYPE;
    const fileType = fileTypeOf(request.fileType, request.fileName);
    const reserved = await reserveFile(this.store, {
      fileId,
      applicationId: request.applicationId,
      version: request.version,
      fileName: request.fileName,
      fileSize: request.fileSize,
      contentType,
      checksum: null,
      fileType,
      status: 'pending',
      storageKey,
      ...target,
      createdAt: now,
      updatedAt: now,
    });
    let storageUploadId: string | undefined;
    try {
      storageUploadId = await this.storage.createMultipartUpload(storageKey, { contentType });
      return await this.store.uploads.createUploadSession({
        uploadId,
        applicationId: request.applicationId,
        version: request.version,
        fileName: request.fileName,
        fileSize: request.fileSize,
        contentType,
        fileType,
        releaseNotes: request.releaseNotes ?? null,
        requiredTier: request.requiredTier ?? null,
        ...target,
        channel: request.channel ?? null,
        versionStatus: request.status ?? null,
        fileId,
        storageKey,
        multipart: { storageUploadId, partSize: choosePartSize(request.fileSize) },
        status: 'issued',
        expectedChecksum: request.checksum === undefined ? null : normaliseChecksum(request.checksum),
        failureReason: null,
        expiresAt: new Date(now.getTime() + this.lifetimes.sessionSeconds * 1000),
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      // Without a session nothing would ever expire the reservation or the store's upload.
      if (storageUploadId !== undefined) await this.storage.abortMultipartUpload(storageKey, storageUploadId).catch(() => undefined);
      await releaseFile(this.store, this.logger, reserved);
      throw error;
    }
  }

  /** PUT URLs for the parts named, each holding its part to its exact size. */
  async presignParts(uploadId: string, partNumbers: readonly number[]): Promise<{ expiresAt: Date; parts: PartUrl[] }> {
    const { session, layout, storageUploadId } = await this.openSession(uploadId);
    const beyond = partNumbers.filter((partNumber) => partNumber > layout.partCount);
    if (beyond.length > 0) {
      throw validationError([{ field: 'partNumbers', message: `this upload has parts 1 to ${layout.partCount}; there is no part ${beyond.join(', ')}` }]);
    }
    const now = Date.now();
    const expiresInSeconds = Math.min(this.lifetimes.partUrlSeconds, Math.floor((session.expiresAt.getTime() - now) / 1000));
    if (expiresInSeconds < 1) throw gone(`upload ${uploadId} is about to expire; open a new multipart upload`);
    const parts = await Promise.all(partNumbers.map(async (partNumber) => {
      const size = partSizeOf(layout, partNumber);
      const uploadUrl = await this.storage.presignUploadPart(session.storageKey, storageUploadId, partNumber, { expiresInSeconds, contentLength: size });
      return { partNumber, size, uploadUrl };
    }));
    return { expiresAt: new Date((Math.floor(now / 1000) + expiresInSeconds) * 1000), parts };
  }

  /** The parts stored so far while the upload takes parts; null once it takes no more (or for a single-PUT upload). */
  async storedParts(session: UploadSession): Promise<StoredPart[] | null> {
    if (!session.multipart || session.status !== 'issued') return null;
    try {
      return await this.storage.listParts(session.storageKey, session.multipart.storageUploadId);
    } catch (error) {
      if (error instanceof MultipartUploadNotFoundError) return null;
      throw error;
    }
  }

  /**
   * Queues verification once every part is stored with its size. A repeated call answers with the
   * session as it stands (and queues the verification again while it is verifying: job id = upload id).
   */
  async complete(uploadId: string): Promise<UploadSession> {
    const session = await this.multipartSession(uploadId);
    if (session.status === 'verifying') {
      await queueVerification(this.jobs, uploadId, 'call complete');
      return session;
    }
    if (session.status === 'completed' || session.status === 'failed') return session;
    const { layout, storageUploadId } = await this.openSession(uploadId, session);
    const parts = await this.storage.listParts(session.storageKey, storageUploadId).catch((error: unknown) => {
      if (error instanceof MultipartUploadNotFoundError) throw conflict(`upload ${uploadId} takes no more parts`);
      throw error;
    });
    const shortfall = describeShortfall(partShortfall(layout, parts));
    if (shortfall !== null) throw conflict(`upload ${uploadId} cannot be completed yet: ${shortfall}; send them, then complete again`);
    const verifying = await this.store.uploads.updateUploadSession(uploadId, ['issued'], { status: 'verifying' }, new Date());
    if (!verifying) return this.complete(uploadId);
    await queueVerification(this.jobs, uploadId, 'call complete');
    return verifying;
  }

  /**
   * Aborts an upload that has not been completed (multipart or single PUT): the session becomes
   * `aborted`, its bytes are discarded and its file name and MAIN slot are freed. Repeating it on an
   * aborted upload discards again whatever a failed attempt left.
   */
  async abort(uploadId: string): Promise<UploadSession> {
    const session = await this.store.uploads.getUploadSession(uploadId);
    if (!session) throw notFound(`upload ${uploadId} not found`);
    let aborted: UploadSession | null = session.status === 'aborted' ? session : null;
    if (session.status === 'issued') {
      if (session.expiresAt.getTime() <= Date.now()) await this.expire(session);
      aborted = await this.store.uploads.updateUploadSession(uploadId, ['issued'], { status: 'aborted' }, new Date());
      if (!aborted) return this.abort(uploadId);
    }
    if (!aborted) throw this.notOpen(session);
    await discardUploadBytes(this.storage, aborted);
    await releaseFile(this.store, this.logger, aborted);
    return aborted;
  }

  /** A multipart session that still takes parts, with its layout: 404, 409 or 410 otherwise. */
  private async openSession(uploadId: string, known?: UploadSession): Promise<{ session: UploadSession; layout: PartLayout; storageUploadId: string }> {
    const session = known ?? await this.multipartSession(uploadId);
    if (session.status !== 'issued' || !session.multipart) throw this.notOpen(session);
    if (session.expiresAt.getTime() <= Date.now()) await this.expire(session);
    return { session, layout: partLayout(session.fileSize, session.multipart.partSize), storageUploadId: session.multipart.storageUploadId };
  }

  private async multipartSession(uploadId: string): Promise<UploadSession> {
    const session = await this.store.uploads.getUploadSession(uploadId);
    if (!session) throw notFound(`upload ${uploadId} not found`);
    if (!session.multipart) throw conflict(`upload ${uploadId} is a single-PUT large upload: complete it with POST /v1/management/upload/large-complete`);
    return session;
  }

  /** Expires a session found past its expiry before the sweep got to it; always throws 410. */
  private async expire(session: UploadSession): Promise<never> {
    await expireUploadSession(this.store, this.storage, session);
    throw gone(`upload ${session.uploadId} has expired; open a new upload`);
  }

  private notOpen(session: UploadSession) {
    if (session.status === 'expired') return gone(`upload ${session.uploadId} has expired; open a new upload`);
    return conflict(`upload ${session.uploadId} is ${session.status} and takes no more changes`);
  }
}
