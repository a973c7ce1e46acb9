import { conflict, notFound } from '../../shared/errors';
import { RELEASE_STATUSES, ReleaseStatus, statusChange } from '../../shared/releases/lifecycle';
import type { Version, VersionWithFiles } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import type { ListVersionsQuery, UpdateVersionRequest } from '../schemas/version-schemas';
import type { ApplicationService } from './application-service';

/**
 * Versions of an application: listing with files, and what an admin may change: tier, notes, channel,
 * rollout, and the lifecycle (publish a draft, yank, un-yank). Every change goes through the
 * application's cache hold, so every gateway's next download sees it.
 */
export class VersionService {
  constructor(private readonly store: Store, private readonly applications: ApplicationService) {}

  async list(applicationId: string, filter: ListVersionsQuery = {}): Promise<VersionWithFiles[]> {
    await this.applications.require(applicationId);
    return this.store.listVersions(applicationId, {
      channels: filter.channel === undefined ? undefined : [filter.channel],
      statuses: filter.status === undefined ? undefined : [filter.status],
    });
  }

  async update(applicationId: string, version: string, request: UpdateVersionRequest): Promise<VersionWithFiles> {
    await this.applications.require(applicationId);
    const { status, ...patch } = request;
    const updated = await this.applications.change(applicationId, () => this.write(applicationId, version, status, patch));
    if (!updated) throw notFound(`version ${version} of ${applicationId} not found`);
    const withFiles = (await this.store.listVersions(applicationId)).find((v) => v.version === version);
    return withFiles ?? { ...updated, files: [] };
  }

  /** The fields alone, or with a status as one transition (409 when the lifecycle does not allow it). */
  private async write(applicationId: string, version: string, status: ReleaseStatus | undefined, patch: Omit<UpdateVersionRequest, 'status'>): Promise<Version | null> {
    const now = new Date();
    if (status === undefined) return this.store.updateVersion(applicationId, version, patch, now);
    const transition = await this.store.transitionVersion(applicationId, version, status, now, patch);
    if (transition.outcome === 'invalid-transition') {
      const allowed = RELEASE_STATUSES.filter((to) => statusChange(transition.from, to) === 'allowed');
      throw conflict(`version ${version} is ${transition.from} and cannot become ${transition.to} (from ${transition.from}: ${allowed.join(', ')})`);
    }
    return transition.outcome === 'applied' ? transition.version : null;
  }
}
