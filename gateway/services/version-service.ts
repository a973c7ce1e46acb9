import { conflict, notFound } from '../../shared/errors';
import { RELEASE_STATUSES, ReleaseStatus, statusChange } from '../../shared/releases/lifecycle';
import type { Version, VersionWithFiles } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import { webhookData } from '../../shared/webhooks/events';
import type { WebhookEvents } from '../../shared/webhooks/webhook-events';
import { versionWithFiles } from '../../shared/webhooks/version-with-files';
import type { ListVersionsQuery, UpdateVersionRequest } from '../schemas/version-schemas';
import type { ApplicationService } from './application-service';

/** The event a version's move to each status announces; the others announce nothing. */
const ANNOUNCED_STATUSES: Partial<Record<ReleaseStatus, 'version.published' | 'version.yanked'>> = {
  published: 'version.published',
  yanked: 'version.yanked',
};

/** What a change wrote: the version as it is now, and the status it had before. */
interface Written {
  version: Version;
  from: ReleaseStatus;
}

/**
 * Versions of an application: listing with files, and what an admin may change: tier, notes, channel,
 * rollout, and the lifecycle (publish a draft, yank, un-yank). Every change goes through the
 * application's cache hold, so every gateway's next download sees it; a change of status is
 * announced to webhooks (version.published, version.yanked) once written.
 */
export class VersionService {
  constructor(private readonly store: Store, private readonly applications: ApplicationService, private readonly webhooks: WebhookEvents) {}

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
    const at = new Date();
    const announced = status && ANNOUNCED_STATUSES[status];
    const written = await this.webhooks.announceChange(
      announced ? [{ type: announced, subject: [applicationId, version], at }] : [],
      () => this.applications.change(applicationId, () => this.write(applicationId, version, status, patch, at)),
      // Announced when the status changed; a version already there is not announced again.
      async (change) => [change && change.from !== change.version.status ? webhookData.version(await versionWithFiles(this.store, change.version, [])) : null],
    );
    if (!written) throw notFound(`version ${version} of ${applicationId} not found`);
    const withFiles = (await this.store.listVersions(applicationId)).find((v) => v.version === version);
    return withFiles ?? { ...written.version, files: [] };
  }

  /** The fields alone, or with a status as one transition (409 when the lifecycle does not allow it); null for an unknown version. */
  private async write(
    applicationId: string, version: string, status: ReleaseStatus | undefined, patch: Omit<UpdateVersionRequest, 'status'>, now: Date,
  ): Promise<Written | null> {
    if (status === undefined) {
      const updated = await this.store.updateVersion(applicationId, version, patch, now);
      return updated && { version: updated, from: updated.status };
    }
    const transition = await this.store.transitionVersion(applicationId, version, status, now, patch);
    if (transition.outcome === 'invalid-transition') {
      const allowed = RELEASE_STATUSES.filter((to) => statusChange(transition.from, to) === 'allowed');
      throw conflict(`version ${version} is ${transition.from} and cannot become ${transition.to} (from ${transition.from}: ${allowed.join(', ')})`);
    }
    return transition.outcome === 'applied' ? { version: transition.version, from: transition.from } : null;
  }
}
