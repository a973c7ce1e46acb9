import { operationRoute } from '../http/operation-route';
import { inParams } from '../http/access';
import type { RouteModule } from '../gateway-deps';
import { presentReleasePurge } from '../../shared/contract/release-purges';
import type { ReleasePurgeService } from './release-purge-service';

/** The purge of a soft-deleted application's releases: the only way published bytes leave the service. */
export const releasePurgeRoutes: RouteModule<{ releasePurges: ReleasePurgeService }> = (deps, { releasePurges }) => [
  operationRoute(deps.config, 'purgeApplicationReleases', {
    guard: 'admin', scope: 'manage',
    summary: "Purge a soft-deleted application's releases (bytes, versions and files), once RELEASE_PURGE_AFTER_DAYS have passed since its deletion; it can no longer be restored",
    description: "The purge-application-releases job deletes every file's bytes, then its version and file records, and records application.releasesPurged "
      + 'in the audit log under the same actor. A live application is 409, one deleted more recently 409 naming the day it may be purged. '
      + 'A repeat keeps the first purgeStartedAt and runs the job again (what a store outage left behind).',
    application: inParams('applicationId'), audit: { action: 'application.purge', target: inParams('applicationId') },
    status: 202, failures: [409],
    handle: async ({ params }, ctx, caller) => {
      const started = await releasePurges.start(params.applicationId, caller.actor, ctx.state.requestId);
      return presentReleasePurge(started.applicationId, started.deletedAt, started.purgeStartedAt);
    },
  }),
];
