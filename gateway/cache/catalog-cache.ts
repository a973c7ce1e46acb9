import type { Application, FileRecord, Version } from '../../shared/store/models';
import type { Logger } from '../../shared/logger';
import type { Store } from '../../shared/store/store';
import type { InvalidationBus } from './invalidation-bus';
import { LocalCache } from './local-cache';

export interface Downloadable {
  file: FileRecord;
  version: Version;
}

const TTL_MS = 30_000;

/**
 * The application, version and file records that every download checks, cached in process. Only
 * records that exist are cached (a new upload is visible at once); every gateway change to an
 * application, its versions or its files calls invalidate(), which reaches every gateway process.
 */
export class CatalogCache {
  private readonly applications: LocalCache<Application>;
  private readonly downloadables: LocalCache<Downloadable>;

  constructor(private readonly store: Store, private readonly bus: InvalidationBus, private readonly logger: Logger) {
    this.applications = new LocalCache(bus, TTL_MS);
    this.downloadables = new LocalCache(bus, TTL_MS);
  }

  /** A live (not soft-deleted) application. */
  async application(applicationId: string): Promise<Application | null> {
    const cached = this.applications.get(applicationId);
    if (cached) return cached;
    const generation = this.bus.generation;
    const application = await this.store.getApplication(applicationId);
    if (application) this.applications.set(applicationId, application, generation, [['application', applicationId]]);
    return application;
  }

  /** The available file to serve (fileId, else the MAIN file) with its version. */
  async downloadable(applicationId: string, version: string, fileId?: string): Promise<Downloadable | null> {
    const key = JSON.stringify([applicationId, version, fileId ?? null]);
    const cached = this.downloadables.get(key);
    if (cached) return cached;
    const generation = this.bus.generation;
    const [file, versionRecord] = await Promise.all([
      this.store.findAvailableFile(applicationId, version, fileId),
      this.store.getVersion(applicationId, version),
    ]);
    if (!file || !versionRecord) return null;
    const found = { file, version: versionRecord };
    this.downloadables.set(key, found, generation, [['application', applicationId]]);
    return found;
  }

  /**
   * Drops the application's records here and in every gateway process. A publish can only fail when
   * Redis is unreachable, which has already turned the other processes' caches off.
   */
  async invalidate(applicationId: string): Promise<void> {
    try {
      await this.bus.publish('application', applicationId);
    } catch (error) {
      this.logger.warn({ err: error, applicationId }, 'could not broadcast an application change');
    }
  }
}
