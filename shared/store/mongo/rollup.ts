import { Types } from 'mongoose';
import { DEFAULT_ARCH, DEFAULT_PLATFORM, type Arch, type Platform } from '../../releases/platforms';
import { utcDate } from '../dates';
import type { MongoModels } from './models';
import type { EventDoc, RollupBatchDoc } from './schemas/activity';
import { isDuplicateKeyError } from './unique-indexes';

/**
 * Folds download events into daily counters without transactions, safe against a crash at any step and
 * against concurrent rollups:
 * 1. open a batch: record the ids of up to `limit` uncounted events (or take over a batch left unfinished);
 * 2. claim: mark those of them still uncounted as counted by this batch;
 * 3. add the batch's totals to each counter, guarded by the counter's record of applied batches;
 * 4. delete the batch record.
 * Whoever finishes a batch runs 2 to 4 again; each is a no-op the second time, and once one claim pass has
 * completed the batch's events are final, so every finisher adds the same totals.
 */
export async function rollupEvents(models: MongoModels, limit: number): Promise<number> {
  const batch = (await unfinishedBatch(models)) ?? (await openBatch(models, limit));
  if (batch === null) return 0;
  await models.events.updateMany(
    { _id: { $in: batch.eventIds }, counted: false },
    { $set: { counted: true, batchId: batch._id } },
  );
  const totals = await dailyTotals(models, batch);
  for (const total of totals) await addOnce(models, total, batch._id);
  await models.rollupBatches.deleteOne({ _id: batch._id });
  return totals.reduce((events, total) => events + total.count, 0);
}

/** Keeps a batch record far below MongoDB's 16 MB document limit. */
const MAX_BATCH_EVENTS = 10_000;

/**
 * How many batch ids a counter remembers. A batch is added again only by a second finisher or after a crash,
 * and no new batch is opened while one is unfinished, so only a finisher stalled for this many later batches
 * could add a batch twice.
 */
const REMEMBERED_BATCHES = 50;

async function unfinishedBatch(models: MongoModels): Promise<RollupBatchDoc | null> {
  return models.rollupBatches.findOne().sort({ _id: 1 }).lean<RollupBatchDoc>();
}

async function openBatch(models: MongoModels, limit: number): Promise<RollupBatchDoc | null> {
  const candidates = await models.events
    .find({ counted: false }, { _id: 1 })
    .sort({ _id: 1 })
    .limit(Math.min(limit, MAX_BATCH_EVENTS))
    .lean();
  if (candidates.length === 0) return null;
  const batch = { _id: new Types.ObjectId().toHexString(), eventIds: candidates.map((event) => event._id) };
  await models.rollupBatches.create(batch);
  return batch;
}

/** What a batch adds to one counter: its total, and that total's parts per platform, per arch and per customer. */
interface CounterTotal {
  applicationId: string;
  version: string;
  date: string;
  count: number;
  platforms: Partial<Record<Platform, number>>;
  archs: Partial<Record<Arch, number>>;
  customers: Map<string, number>;
}

/** The batch's events counted per application, version and UTC day, and per platform; only the events this batch claimed count. */
async function dailyTotals(models: MongoModels, batch: RollupBatchDoc): Promise<CounterTotal[]> {
  const events = await models.events
    .find({ _id: { $in: batch.eventIds }, batchId: batch._id }, { _id: 0, applicationId: 1, version: 1, platform: 1, arch: 1, customerId: 1, timestamp: 1 })
    .lean<Pick<EventDoc, 'applicationId' | 'version' | 'platform' | 'arch' | 'customerId' | 'timestamp'>[]>();
  const totals = new Map<string, CounterTotal>();
  for (const { applicationId, version, platform, arch, customerId, timestamp } of events) {
    const date = utcDate(timestamp);
    const key = counterKey(applicationId, version, date);
    let total = totals.get(key);
    if (!total) {
      total = { applicationId, version, date, count: 0, platforms: {}, archs: {}, customers: new Map() };
      totals.set(key, total);
    }
    // Events stored before files had platforms count as `any`, as they read.
    const counted = platform ?? DEFAULT_PLATFORM;
    total.count += 1;
    total.platforms[counted] = (total.platforms[counted] ?? 0) + 1;
    const countedArch = arch ?? DEFAULT_ARCH;
    total.archs[countedArch] = (total.archs[countedArch] ?? 0) + 1;
    if (customerId) total.customers.set(customerId, (total.customers.get(customerId) ?? 0) + 1);
  }
  return [...totals.values()];
}

/** One key per counter: each id carries its length, so no two counters share a key whatever their ids contain. */
const counterKey = (applicationId: string, version: string, date: string): string =>
  `${applicationId.length}:${applicationId}${version.length}:${version}${date}`;

async function addOnce(models: MongoModels, total: CounterTotal, batchId: string): Promise<void> {
  const counter = { applicationId: total.applicationId, version: total.version, date: total.date };
  // The total and its parts in one update: the batch guard covers them all.
  const increments = {
    count: total.count,
    ...Object.fromEntries(Object.entries(total.platforms).map(([platform, n]) => [`platforms.${platform}`, n])),
    ...Object.fromEntries(Object.entries(total.archs).map(([arch, n]) => [`archs.${arch}`, n])),
    ...Object.fromEntries([...total.customers].map(([customerId, n]) => [`customers.${customerId}`, n])),
  };
  for (let attempt = 1; ; attempt += 1) {
    try {
      await models.dailyCounts.updateOne(
        { ...counter, appliedBatches: { $ne: batchId } },
        { $inc: increments, $push: { appliedBatches: { $each: [batchId], $slice: -REMEMBERED_BATCHES } } },
        { upsert: true },
      );
      return;
    } catch (error) {
      // The upsert found no counter without this batch and collided with an existing one: either the
      // batch is already applied there, or a concurrent rollup created the counter first, so try again.
      if (!isDuplicateKeyError(error)) throw error;
      if (await models.dailyCounts.exists({ ...counter, appliedBatches: batchId })) return;
      if (attempt === 3) throw error;
    }
  }
}
