import type { Config } from '../../shared/config';
import { conflict, notFound } from '../../shared/errors';
import { releasePurgeableFrom } from '../../shared/policy';
import type { JobQueues } from '../../shared/queues/job-queues';
import type { Store } from '../../shared/store/store';

/** A purge started: the application's id, when it was deleted and when its purge started. */
export interface StartedPurge {
  applicationId: string;
  deletedAt: Date;
  purgeStartedAt: Date;
}

/**
 * The one way a published file's bytes leave the service: an administrator's purge of a soft-deleted
 * application, refused until RELEASE_PURGE_AFTER_DAYS have passed since its deletion (until then it
 * can be restored with every release it shipped). Starting it marks the application in the store,
 * which then never restores it, and queues the job that deletes its bytes and records
 * (purge-application-releases). A repeat keeps the first start and queues the job again.
 */
export class ReleasePurgeService {
  constructor(private readonly store: Store, private readonly config: Readonly<Config>, private readonly jobs: JobQueues) {}

  async start(applicationId: string, actor: string, requestId: string, now = new Date()): Promise<StartedPurge> {
    // Deleted at or before this instant: deleted at least RELEASE_PURGE_AFTER_DAYS ago.
    const deletedBefore = releasePurgeableFrom(now, -this.config.releasePurgeAfterDays);
    const result = await this.store.applications.startReleasePurge(applicationId, deletedBefore, now);
    switch (result.outcome) {
      case 'not-found':
        throw notFound(`application ${applicationId} not found`);
      case 'not-deleted':
        throw conflict(`application ${applicationId} is not deleted: delete it first`);
      case 'too-recent': {
        const purgeable = releasePurgeableFrom(result.application.deletedAt as Date, this.config.releasePurgeAfterDays);
        throw conflict(`application ${applicationId} was deleted less than ${this.config.releasePurgeAfterDays} days ago: its releases may be purged from ${purgeable.toISOString()}`);
      }
      case 'started':
        await this.jobs.enqueue('purge-application-releases', { applicationId, actor, requestId });
        return { applicationId, deletedAt: result.application.deletedAt as Date, purgeStartedAt: result.startedAt };
    }
  }
}
