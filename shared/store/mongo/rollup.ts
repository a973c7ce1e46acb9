import { Types } from 'mongoose';
import type { DailyCount } from '../models';
import { utcDate } from '../dates';
import type { MongoModels } from './models';
import type { EventDoc } from './schemas/activity';
import { isDuplicateKeyError } from './unique-indexes';

/**
 * Folds download events into daily counters without transactions, safe against a crash at any step:
 * 1. claim: stamp up to `limit` uncounted events with a fresh batchId (or resume a batch claimed earlier
 *    and never finished);
 * 2. add the batch's totals to each counter, guarded by the counter's record of applied batches;
 * 3. mark the batch's events counted.
 * Repeating 2 or 3 for the same batch changes nothing, so resuming a batch never counts an event twice.
 */
export async function rollupEvents(models: MongoModels, limit: number): Promise<number> {
  const batchId = (await unfinishedBatch(models)) ?? (await claimBatch(models, limit));
  if (batchId === null) return 0;
  const events = await models.events
    .find({ counted: false, batchId }, { _id: 0, applicationId: 1, version: 1, timestamp: 1 })
    .lean<Pick<EventDoc, 'applicationId' | 'version' | 'timestamp'>[]>();
  for (const total of dailyTotals(events)) await addOnce(models, total, batchId);
  await models.events.updateMany({ counted: false, batchId }, { $set: { counted: true } });
  return events.length;
}

/**
 * How many batch ids a counter remembers. A batch is applied again only when resumed after a crash, and resuming
 * comes before any newer claim, so only batches in flight at that moment can have been applied since.
 */
const REMEMBERED_BATCHES = 50;

async function unfinishedBatch(models: MongoModels): Promise<string | null> {
  const event = await models.events
    .findOne({ counted: false, batchId: { $ne: null } }, { _id: 0, batchId: 1 })
    .lean<Pick<EventDoc, 'batchId'>>();
  return event?.batchId ?? null;
}

async function claimBatch(models: MongoModels, limit: number): Promise<string | null> {
  if (limit < 1) return null;
  const candidates = await models.events
    .find({ counted: false, batchId: null }, { _id: 1 })
    .sort({ _id: 1 })
    .limit(limit)
    .lean();
  if (candidates.length === 0) return null;
  const batchId = new Types.ObjectId().toHexString();
  // `batchId: null` keeps an event claimed by a concurrent rollup in that rollup's batch only.
  await models.events.updateMany(
    { _id: { $in: candidates.map((event) => event._id) }, counted: false, batchId: null },
    { $set: { batchId } },
  );
  return batchId;
}

function dailyTotals(events: Pick<EventDoc, 'applicationId' | 'version' | 'timestamp'>[]): DailyCount[] {
  const totals = new Map<string, DailyCount>();
  for (const event of events) {
    const date = utcDate(event.timestamp);
    const key = JSON.stringify([event.applicationId, event.version, date]);
    const total = totals.get(key) ?? { applicationId: event.applicationId, version: event.version, date, count: 0 };
    total.count += 1;
    totals.set(key, total);
  }
  return [...totals.values()];
}

async function addOnce(models: MongoModels, total: DailyCount, batchId: string): Promise<void> {
  const counter = { applicationId: total.applicationId, version: total.version, date: total.date };
  for (let attempt = 1; ; attempt += 1) {
    try {
      await models.dailyCounts.updateOne(
        { ...counter, appliedBatches: { $ne: batchId } },
        { $inc: { count: total.count }, $push: { appliedBatches: { $each: [batchId], $slice: -REMEMBERED_BATCHES } } },
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
