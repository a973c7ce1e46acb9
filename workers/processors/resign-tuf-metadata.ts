import { TUF_RESIGN_PAGE } from '../../shared/policy';
import type { WorkerDeps } from '../worker-deps';

/**
 * Walks every application's TUF repository and signs what is due: a timestamp (or other online role)
 * with less than TUF_RESIGN_WHEN_LEFT of its lifetime left, and whatever the published files changed.
 * A repository that fails is logged and the walk goes on; the job fails at the end, so it is retried.
 */
export async function resignTufMetadata(_job: unknown, deps: WorkerDeps): Promise<number> {
  let signed = 0;
  const failed: string[] = [];
  let after: string | undefined;
  for (;;) {
    const ids = await deps.store.tuf.listTufRepositoryIds(TUF_RESIGN_PAGE, after);
    for (const applicationId of ids) {
      try {
        if (await deps.tufRepositories.resign(applicationId)) signed += 1;
      } catch (error) {
        failed.push(applicationId);
        deps.logger.error({ err: error, applicationId }, 'TUF metadata not signed again');
      }
    }
    if (ids.length < TUF_RESIGN_PAGE) break;
    after = ids[ids.length - 1];
  }
  if (failed.length > 0) throw new Error(`TUF metadata of ${failed.length} application(s) not signed again`);
  return signed;
}
