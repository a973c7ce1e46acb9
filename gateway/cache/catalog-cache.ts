import type { Application, FileRecord, Version } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import type { InvalidationBus } from '../../shared/cache/invalidation-bus';
import { LocalCache } from './local-cache';

export interface Downloadable {
  file: FileRecord;
  version: Version;
}

/**
 * The application, version and file records that every download checks, cached in process. Only
 * records that exist are cached (a new upload is visible at once); every gateway change to an
 * application, its versions or its files is written through change(), which reaches every gateway
 * process.
 */
export class CatalogCache {
  private readonly applications: LocalCache<Application>;
  private readonly downloadables: LocalCache<Downloadable>;

  constructor(private readonly store: Store, private readonly bus: InvalidationBus) {
    this.applications = new LocalCache(bus);
    this.downloadables = new LocalCache(bus);
  }

  /** A live (not soft-deleted) application. */
  async application(applicationId: string): Promise<Application | null> {
    return this.applications.getOrLoad(applicationId, () => this.store.getApplication(applicationId), [['application', applicationId]]);
  }

  /** The application when it is cached here, without waiting; undefined otherwise. */
  cachedApplication(applicationId: string): Application | undefined {
    return this.applications.get(applicationId);
  }

  /** The available file to serve (fileId, else the MAIN file) with its version. */
  async downloadable(applicationId: string, version: string, fileId?: string): Promise<Downloadable | null> {
    return this.downloadables.getOrLoad(downloadableKey(applicationId, version, fileId), async () => {
      const [file, versionRecord] = await Promise.all([
        this.store.findAvailableFile(applicationId, version, fileId),
        this.store.getVersion(applicationId, version),
      ]);
      return file && versionRecord ? { file, version: versionRecord } : null;
    }, [['application', applicationId]]);
  }

  /** The downloadable when it is cached here, without waiting; undefined otherwise. */
  cachedDownloadable(applicationId: string, version: string, fileId?: string): Downloadable | undefined {
    return this.downloadables.get(downloadableKey(applicationId, version, fileId));
  }

  /**
   * Writes a change of the application, its versions or its files so that the next download on any
   * gateway sees it; 503 and nothing written when that cannot be guaranteed (InvalidationBus.change).
   */
  change<T>(applicationId: string, write: () => Promise<T>): Promise<T> {
    return this.bus.change([['application', applicationId]], write);
  }
}

/** Neither application ids nor versions hold '/', so the first two separate the parts whatever the file id. */
function downloadableKey(applicationId: string, version: string, fileId: string | undefined): string {
  return fileId === undefined ? `${applicationId}/${version}` : `${applicationId}/${version}/${fileId}`;
}
