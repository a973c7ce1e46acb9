import { buildEvent, EventOrigin, EventRecorder } from '../../shared/events/event-recorder';
import { servedContentType, type ObjectStorage } from '../../shared/storage/object-storage';
import type { FileRecord } from '../../shared/store/models';
import type { SignedDownload } from '../presenters/downloads';
import type { CatalogCache } from '../cache/catalog-cache';
import { DOWNLOAD_URL_LIFETIME_SECONDS } from '../schemas/download-schemas';
import type { DownloadTarget } from '../schemas/download-schemas';
import { checkDownloadAccess, GrantedFile } from './access-check';


/** Remembered answers at most; the URLs of a second ago are no longer asked for. */
const MAX_REMEMBERED_ANSWERS = 1_000;

/**
 * Pre-signed download URLs (spec 4.12): access check, URL, and one durable download event per answer.
 * A URL is signed once per file and second (the storage adapters remember it), so during a burst
 * every request for one file in one second gets the same answer; it is built once, frozen, and
 * returned again, which also lets presenters serialize it once.
 */
export class DownloadService {
  private readonly answers = new Map<string, { file: FileRecord; info: Readonly<SignedDownload> }>();

  constructor(
    private readonly catalog: CatalogCache,
    private readonly storage: ObjectStorage,
    private readonly events: EventRecorder,
    private readonly tiers: readonly string[],
  ) {}

  async issueUrl(customer: { customerId: string; tier: string }, target: DownloadTarget, origin: EventOrigin): Promise<Readonly<SignedDownload>> {
    const checked = checkDownloadAccess(this.catalog, this.tiers, customer, target);
    return this.presign(checked instanceof Promise ? await checked : checked, DOWNLOAD_URL_LIFETIME_SECONDS, origin);
  }

  /** Signs a GET of the granted file for `lifetimeSeconds` and records the download before answering. */
  async presign(granted: GrantedFile, lifetimeSeconds: number, origin: EventOrigin): Promise<Readonly<SignedDownload>> {
    const info = await this.presignWithoutEvent(granted, lifetimeSeconds);
    await this.events.record(buildEvent('download', granted.file, origin));
    return info;
  }

  async presignWithoutEvent({ file }: GrantedFile, lifetimeSeconds: number): Promise<Readonly<SignedDownload>> {
    // URLs are signed to the second; expiresAt is the one the URL itself carries, not a moment after it.
    const signedAt = Math.floor(Date.now() / 1000);
    const downloadUrl = await this.storage.presignGet(file.storageKey, {
      expiresInSeconds: lifetimeSeconds,
      fileName: file.fileName,
      contentType: servedContentType(file.contentType),
      signedAt,
    });
    // The same URL for the same file record (the cached instance, so nothing about it has changed).
    const known = this.answers.get(downloadUrl);
    if (known && known.file === file) return known.info;
    const info = Object.freeze({ file, downloadUrl, expiresAt: new Date((signedAt + lifetimeSeconds) * 1000) });
    if (this.answers.size >= MAX_REMEMBERED_ANSWERS) this.answers.clear();
    this.answers.set(downloadUrl, { file, info });
    return info;
  }
}
