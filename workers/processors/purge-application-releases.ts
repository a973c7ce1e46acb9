import type { Job } from 'bullmq';
import { DependencyUnavailableError } from '../../shared/errors';
import { newEventId } from '../../shared/ids';
import type { JobPayloads } from '../../shared/queues/jobs';
import type { WorkerDeps } from '../worker-deps';

/**
 * The purge of a soft-deleted application's releases, which an administrator started once its
 * retention (RELEASE_PURGE_AFTER_DAYS) had passed: every object its files point at is deleted (once,
 * however many of its files share it: content-addressed objects are shared only within an
 * application, and all its files go), then every version and file record
 * (Store.deletePurgedReleases), then the audit log records it under the administrator who asked.
 * Nothing else removes a published file's bytes.
 *
 * An object the store refuses to delete (S3 Object Lock's retention, a bucket policy: AccessDenied)
 * keeps every record: the purge is audited `failed` with the objects kept and how many were deleted,
 * and starting the purge again later (after the retention) finishes it. An unavailable store fails
 * the job, which is retried. Idempotent: a repeat deletes what is left (deleting bytes already gone
 * is no error); an application whose purge was never started (the store's mark) is left as it is.
 */
export async function purgeApplicationReleases(job: Job<JobPayloads['purge-application-releases']>, deps: WorkerDeps): Promise<string> {
  const { applicationId, actor, requestId } = job.data;
  if (!(await deps.store.applications.releasePurgeStartedAt(applicationId))) return 'no purge was started: nothing deleted';
  const files = (await deps.store.versions.listVersions(applicationId)).flatMap((version) => version.files);
  // Bytes first: records deleted first would leave bytes nothing names.
  const kept: { key: string; reason: string }[] = [];
  const objects = [...new Set(files.map((file) => file.storageKey))];
  for (const key of objects) {
    try {
      await deps.storage.delete(key);
    } catch (error) {
      if (error instanceof DependencyUnavailableError) throw error;
      kept.push({ key, reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    }
  }
  const timestamp = new Date();
  const audit = (outcome: 'succeeded' | 'failed') => deps.store.audit.insertAuditEntry({
    entryId: newEventId(timestamp), timestamp, actor, action: 'application.releasesPurged', target: applicationId, applicationId,
    requestId, outcome, status: null,
  });
  if (kept.length > 0) {
    await audit('failed');
    deps.logger.warn({ applicationId, actor, kept, deleted: objects.length - kept.length },
      'application releases not purged: the object store refused to delete some objects (a retention period?); every record is kept, start the purge again once it allows');
    return `${kept.length} of ${objects.length} objects kept by the object store: no record deleted, start the purge again later`;
  }
  const removed = await deps.catalogChange(applicationId, () => deps.store.versions.deletePurgedReleases(applicationId));
  await audit('succeeded');
  deps.logger.info({ applicationId, actor, files: files.length, objects: objects.length, versions: removed?.versions ?? 0 }, 'application releases purged');
  return `${files.length} files of ${removed?.versions ?? 0} versions purged`;
}
