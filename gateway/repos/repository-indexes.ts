import { BoundedMap } from '../../shared/cache/bounded-map';
import { REPOSITORY_INDEX_REFRESH_MS, REPOSITORY_INDEXES_PER_LIST } from '../../shared/policy';
import type { Application } from '../../shared/store/models';
import { andThen, Eventually } from '../http/eventually';
import type { OfferedRelease, ReleaseCaller, ReleaseCatalog } from '../releases/release-catalog';
import type { RepositoryKeys, SigningKeys } from './repository-keys';

/** What a repository's index is built from: the caller's offered releases and the keys that sign. */
export interface IndexSource {
  applicationId: string;
  channel: string;
  offered: readonly OfferedRelease[];
  signing: SigningKeys;
}

/**
 * The repositories' indexes, built per customer selection and kept: which releases a customer is
 * offered is the release catalogue's answer (access, tier, channel cascade, staged rollout, no
 * drafts, no yanked), so an index is kept under the catalogue's own objects (the offered releases'
 * version records, else the application record) and dropped with them on every change, as the other
 * feeds' documents are; under them, by channel and the versions offered, since a staged rollout or a
 * token gives a customer its own list. An index older than REPOSITORY_INDEX_REFRESH_MS is built again
 * (its Release's Date and Valid-Until move on; the Packages bytes are the same when nothing changed).
 */
export class RepositoryIndexes<T extends { builtAt: number; signedUntil: number }> {
  private readonly kept = new WeakMap<object, BoundedMap<string, KeptIndex<T>>>();

  constructor(
    private readonly releases: ReleaseCatalog,
    private readonly keys: RepositoryKeys,
    /** Which releases an index lists: the platform its packages are for. */
    private readonly platform: 'linux',
    private readonly build: (source: IndexSource) => Promise<T>,
  ) {}

  /** The caller's index of the channel; 404 when the caller has no access to the application. Answers now when it is kept. */
  index(caller: ReleaseCaller, applicationId: string, channel: string): Eventually<T> {
    return andThen(this.releases.application(caller, applicationId), (application: Application) =>
      andThen(this.releases.releases(caller, { applicationId, channel, platform: this.platform }), (offered) =>
        this.keptIndex(application, applicationId, channel, offered), undefined), undefined);
  }

  private keptIndex(application: Application, applicationId: string, channel: string, offered: readonly OfferedRelease[]): Eventually<T> {
    const anchor: object = offered[0]?.version ?? application;
    let byList = this.kept.get(anchor);
    if (!byList) {
      byList = new BoundedMap(REPOSITORY_INDEXES_PER_LIST);
      this.kept.set(anchor, byList);
    }
    const key = `${channel}\n${offered.map((release) => release.version.version).join('\n')}`;
    const kept = byList.get(key);
    // Built again after a day, or once a key that signed it retires.
    if (kept?.value && Date.now() - kept.value.builtAt < REPOSITORY_INDEX_REFRESH_MS && Date.now() < kept.value.signedUntil) return kept.value;
    // Being built (first request, or a refresh): every request waits for the same build.
    if (kept?.building) return kept.building;
    const entry: KeptIndex<T> = { value: kept?.value };
    const lists = byList;
    entry.building = this.keys.signingKeys(applicationId, application)
      .then((signing) => this.build({ applicationId, channel, offered, signing }))
      .then((value) => {
        entry.value = value;
        entry.building = undefined;
        return value;
      }, (error: unknown) => {
        // A failed build (the store down) is not kept: the next request tries again.
        if (lists.get(key) === entry) lists.delete(key);
        throw error;
      });
    lists.set(key, entry);
    return entry.building;
  }
}

interface KeptIndex<T> {
  value?: T;
  building?: Promise<T>;
}
