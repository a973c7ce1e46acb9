import type { AnyBulkWriteOperation } from 'mongoose';
import { DEFAULT_UPLOAD_STATUS } from '../../releases/lifecycle';
import { DEFAULT_ARCH, DEFAULT_PLATFORM } from '../../releases/platforms';
import { versionOrderKey } from '../../releases/version-order';
import type { StoreOptions } from '../options';
import type { MongoModels } from './models';
import { toVersion } from './records';
import type { StoredVersionDoc, VersionDoc } from './schemas/catalog';

/** Versions rewritten per round trip. */
const BACKFILL_BATCH = 500;

export interface ReleaseBackfill {
  /** Versions given their release fields and order key. */
  versions: number;
  /** Files given a platform and an arch. */
  files: number;
  /** Versions whose stored order key an earlier version order computed otherwise, given this release's. */
  orderKeys: number;
  /** Applications given the default version status they read with (published). */
  applications: number;
}

/**
 * Writes into documents of earlier releases the release-model fields they read with by default:
 * versions their order key (so listings sort in the database), channel, status, rollout and
 * publishedAt; files platform and arch `any`, which the per-platform MAIN index needs before the
 * one-MAIN-per-version index it replaces is dropped (a file without them is indexed as null, not as
 * `any`). Idempotent: only documents still lacking the fields are touched, so a repeated or
 * interrupted run finishes the job. Events, sessions and counters keep reading with defaults.
 * Then every stored order key is compared with this release's version order and rewritten where it
 * differs (SemVer versions with numbers past 2^53 were once keyed as free-form).
 */
export async function backfillReleaseFields(models: MongoModels, options: StoreOptions): Promise<ReleaseBackfill> {
  let versions = 0;
  let batch: AnyBulkWriteOperation<VersionDoc>[] = [];
  const flush = async () => {
    if (batch.length > 0) versions += (await models.versions.bulkWrite(batch, { ordered: false })).modifiedCount;
    batch = [];
  };
  for await (const doc of models.versions.find({ orderKey: { $exists: false } }).lean<StoredVersionDoc & { _id: unknown }>().cursor()) {
    const { channel, status, rolloutPercentage, publishedAt } = toVersion(doc, options);
    batch.push({
      updateOne: {
        filter: { _id: doc._id, orderKey: { $exists: false } },
        update: { $set: { channel, status, rolloutPercentage, publishedAt, orderKey: versionOrderKey(doc.version) } },
      },
    });
    if (batch.length === BACKFILL_BATCH) await flush();
  }
  await flush();
  // Every release writes both or neither.
  const files = await models.files.updateMany({ platform: { $exists: false } }, { $set: { platform: DEFAULT_PLATFORM, arch: DEFAULT_ARCH } });
  const applications = await models.applications.updateMany({ defaultVersionStatus: { $exists: false } },
    { $set: { defaultVersionStatus: DEFAULT_UPLOAD_STATUS } });
  return { versions, files: files.modifiedCount, orderKeys: await rekeyVersions(models), applications: applications.modifiedCount };
}

async function rekeyVersions(models: MongoModels): Promise<number> {
  let rekeyed = 0;
  let batch: AnyBulkWriteOperation<VersionDoc>[] = [];
  const flush = async () => {
    if (batch.length > 0) rekeyed += (await models.versions.bulkWrite(batch, { ordered: false })).modifiedCount;
    batch = [];
  };
  const stored = models.versions.find({ orderKey: { $exists: true } }, { version: 1, orderKey: 1 })
    .lean<{ _id: unknown; version: string; orderKey: string }>().cursor();
  for await (const doc of stored) {
    const orderKey = versionOrderKey(doc.version);
    if (orderKey === doc.orderKey) continue;
    batch.push({ updateOne: { filter: { _id: doc._id, orderKey: doc.orderKey }, update: { $set: { orderKey } } } });
    if (batch.length === BACKFILL_BATCH) await flush();
  }
  await flush();
  return rekeyed;
}
