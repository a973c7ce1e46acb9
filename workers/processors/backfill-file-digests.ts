import type { Job } from 'bullmq';
import { ObjectNotFoundError } from '../../shared/errors';
import { formatChecksum } from '../../shared/hashing';
import type { JobPayloads } from '../../shared/queues/jobs';
import type { FileRecord } from '../../shared/store/models';
import type { WorkerDeps } from '../worker-deps';

/** Files taken from the store at a time; the job records its position after each page. */
const PAGE_SIZE = 100;
/** Files hashed at once: enough to overlap one file's reads with another's hashing, few enough to leave the disk and cores to the service. */
const CONCURRENCY = 2;

type Outcome = { fileId: string; applicationId: string; sha512: string; sha1: string } | 'missing' | 'mismatch';

/**
 * Gives the available files stored before SHA-512 or SHA-1 was kept their SHA-512 and SHA-1, read
 * from their bytes.
 * Added by every worker start (one run at a time): a run pages through the files that lack it by
 * fileId (Store.listFilesMissingDigests) and records its position in the job after each page, so a
 * run resumed after a stall or a retry goes on from there; a file done drops out of the listing, so
 * a later run has nothing left to do. A file whose bytes are missing, or whose bytes no longer match
 * its SHA-256, is left without one and logged. Digests are written through the gateways'
 * invalidation bus, which cache the file records.
 */
export async function backfillFileDigests(job: Job<JobPayloads['backfill-file-digests']>, deps: WorkerDeps): Promise<string> {
  let after = job.data.afterFileId;
  const totals = { filled: 0, missing: 0, mismatch: 0 };
  for (;;) {
    const files = await deps.store.versions.listFilesMissingDigests(PAGE_SIZE, after);
    if (files.length === 0) break;
    const outcomes = await mapWithConcurrency(files, CONCURRENCY, (file) => digestOf(file, deps));
    const digests = outcomes.filter((outcome): outcome is Exclude<Outcome, string> => typeof outcome !== 'string');
    for (const applicationId of new Set(digests.map((digest) => digest.applicationId))) {
      await deps.catalogChange(applicationId, async () => {
        for (const digest of digests.filter((d) => d.applicationId === applicationId)) {
          await deps.store.versions.setFileDigests(digest.fileId, { sha512: digest.sha512, sha1: digest.sha1 });
        }
      });
    }
    totals.filled += digests.length;
    totals.missing += outcomes.filter((outcome) => outcome === 'missing').length;
    totals.mismatch += outcomes.filter((outcome) => outcome === 'mismatch').length;
    after = files[files.length - 1].fileId;
    await job.updateData({ afterFileId: after });
    deps.logger.info({ ...totals, afterFileId: after }, 'file digest backfill: progress');
  }
  if (Object.values(totals).some((count) => count > 0)) deps.logger.info(totals, 'file digest backfill: done');
  return `${totals.filled} filled, ${totals.missing} missing, ${totals.mismatch} not matching their checksum`;
}

async function digestOf(file: FileRecord, deps: WorkerDeps): Promise<Outcome> {
  let digests;
  try {
    digests = await deps.storage.digests(file.storageKey, deps.hashing);
  } catch (error) {
    if (!(error instanceof ObjectNotFoundError)) throw error;
    deps.logger.warn({ fileId: file.fileId, applicationId: file.applicationId, version: file.version }, 'file digest backfill: the file\'s bytes are missing');
    return 'missing';
  }
  if (formatChecksum(digests.sha256) !== file.checksum) {
    // A SHA-512 or SHA-1 of other bytes would vouch for them to update clients: the file is left as it is.
    deps.logger.error({ fileId: file.fileId, applicationId: file.applicationId, version: file.version, checksum: file.checksum },
      'file digest backfill: the file\'s bytes do not match its checksum');
    return 'mismatch';
  }
  return { fileId: file.fileId, applicationId: file.applicationId, sha512: digests.sha512, sha1: digests.sha1 };
}

/** `task` over `items`, at most `limit` at a time, results in the items' order. */
async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
