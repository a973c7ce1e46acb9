import type { Job } from 'bullmq';
import { newEventId } from '../../shared/ids';
import type { JobPayloads } from '../../shared/queues/jobs';
import type { WorkerDeps } from '../worker-deps';

/**
 * The purge of a soft-deleted application's releases, which an administrator started once its
 * retention (RELEASE_PURGE_AFTER_DAYS) had passed: every file's bytes are deleted, then every
 * version and file record (Store.deletePurgedReleases), then the audit log records it under the
 * administrator who asked. Nothing else removes a published file's bytes. Idempotent: a repeat
 * deletes what is left (deleting bytes already gone is no error); an application whose purge was
 * never started (the store's mark) is left as it is.
 */
export async function purgeApplicationReleases(job: Job<JobPayloads['purge-application-releases']>, deps: WorkerDeps): Promise<string> {
  const { applicationId, actor, requestId } = job.data;
  if (!(await deps.store.applications.releasePurgeStartedAt(applicationId))) return 'no purge was started: nothing deleted';
  const files = (await deps.store.versions.listVersions(applicationId)).flatMap((version) => version.files);
  // Bytes first: records deleted first would leave bytes nothing names.
  for (const file of files) await deps.storage.delete(file.storageKey);
  const removed = await deps.catalogChange(applicationId, () => deps.store.versions.deletePurgedReleases(applicationId));
  const timestamp = new Date();
  await deps.store.audit.insertAuditEntry({
    entryId: newEventId(timestamp), timestamp, actor, action: 'application.releasesPurged', target: applicationId, applicationId,
    requestId, outcome: 'succeeded', status: null,
  });
  deps.logger.info({ applicationId, actor, files: files.length, versions: removed?.versions ?? 0 }, 'application releases purged');
  return `${files.length} files of ${removed?.versions ?? 0} versions purged`;
}
