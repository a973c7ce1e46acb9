import type { Application, VersionWithFiles } from '../../shared/store/models';
import { customerAnswerFor, RELEASE_STATUSES } from '../../shared/releases/lifecycle';
import type { Store } from '../../shared/store/store';
import type { InvalidationBus } from '../../shared/cache/invalidation-bus';
import { LocalCache } from '../../shared/cache/local-cache';

/** What customers may ever see of an application's versions: drafts do not exist for them. */
const CUSTOMER_VISIBLE_STATUSES = RELEASE_STATUSES.filter((status) => customerAnswerFor(status) !== 'not-found');

/**
 * The application records and the version and file records that every download checks, cached in
 * process per application. Only records that exist are cached; every change to an application, its
 * versions or its files (a file becoming available included) is written through change(), which
 * reaches every gateway process, and drops both.
 */
export class CatalogCache {
  private readonly applications: LocalCache<Application>;
  private readonly versions: LocalCache<readonly VersionWithFiles[]>;

  constructor(private readonly store: Store, private readonly bus: InvalidationBus) {
    this.applications = new LocalCache(bus);
    this.versions = new LocalCache(bus);
  }

  /** A live (not soft-deleted) application. */
  async application(applicationId: string): Promise<Application | null> {
    return this.applications.getOrLoad(applicationId, () => this.store.applications.getApplication(applicationId), [['application', applicationId]]);
  }

  /** The application when it is cached here, without waiting; undefined otherwise. */
  cachedApplication(applicationId: string): Application | undefined {
    return this.applications.get(applicationId);
  }

  /**
   * The application's published and yanked versions, newest first by the version order, each with
   * its files (every status, oldest first). One frozen array per load: derived data may be keyed by it.
   */
  async releases(applicationId: string): Promise<readonly VersionWithFiles[]> {
    const loaded = await this.versions.getOrLoad(applicationId, async () =>
      Object.freeze(await this.store.versions.listVersions(applicationId, { statuses: CUSTOMER_VISIBLE_STATUSES })),
    [['application', applicationId]]);
    return loaded ?? [];
  }

  /** The releases when they are cached here, without waiting; undefined otherwise. */
  cachedReleases(applicationId: string): readonly VersionWithFiles[] | undefined {
    return this.versions.get(applicationId);
  }

  /**
   * Writes a change of the application, its versions or its files so that the next download on any
   * gateway sees it; 503 and nothing written when that cannot be guaranteed (InvalidationBus.change).
   */
  change<T>(applicationId: string, write: () => Promise<T>): Promise<T> {
    return this.bus.change([['application', applicationId]], write);
  }
}
