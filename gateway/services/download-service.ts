import { buildEvent, EventOrigin, EventRecorder } from '../../shared/events/event-recorder';
import type { ObjectStorage } from '../../shared/storage/object-storage';
import type { CatalogCache } from '../cache/catalog-cache';
import { DOWNLOAD_URL_LIFETIME_SECONDS } from '../schemas/download-schemas';
import { checkDownloadAccess, DownloadTarget, GrantedFile } from './access-check';

export interface DownloadInfo {
  downloadUrl: string;
  expiresAt: Date;
  fileName: string;
  fileSize: number;
  checksum: string;
  fileId: string;
}

/** Pre-signed download URLs (spec 4.12): access check, URL, and one durable download event per answer. */
export class DownloadService {
  constructor(
    private readonly catalog: CatalogCache,
    private readonly storage: ObjectStorage,
    private readonly events: EventRecorder,
    private readonly tiers: readonly string[],
  ) {}

  async issueUrl(customer: { customerId: string; tier: string }, target: DownloadTarget, origin: EventOrigin): Promise<DownloadInfo> {
    const checked = checkDownloadAccess(this.catalog, this.tiers, customer, target);
    return this.presign(checked instanceof Promise ? await checked : checked, DOWNLOAD_URL_LIFETIME_SECONDS, origin);
  }

  /** Signs a GET of the granted file for `lifetimeSeconds` and records the download before answering. */
  async presign(granted: GrantedFile, lifetimeSeconds: number, origin: EventOrigin): Promise<DownloadInfo> {
    const info = await this.presignWithoutEvent(granted, lifetimeSeconds);
    await this.events.record(buildEvent('download', granted.file, origin));
    return info;
  }

  async presignWithoutEvent({ file }: GrantedFile, lifetimeSeconds: number): Promise<DownloadInfo> {
    // URLs are signed to the second; expiresAt is the one the URL itself carries, not a moment after it.
    const signedAt = Math.floor(Date.now() / 1000);
    const downloadUrl = await this.storage.presignGet(file.storageKey, {
      expiresInSeconds: lifetimeSeconds,
      fileName: file.fileName,
      contentType: file.contentType,
      signedAt,
    });
    return {
      downloadUrl,
      expiresAt: new Date((signedAt + lifetimeSeconds) * 1000),
      fileName: file.fileName,
      fileSize: file.fileSize,
      checksum: file.checksum as string,
      fileId: file.fileId,
    };
  }
}
