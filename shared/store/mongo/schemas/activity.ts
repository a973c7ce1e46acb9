import { Schema, type Types } from 'mongoose';
import { ARCHS, PLATFORMS, type Arch, type Platform } from '../../../releases/platforms';
import type { DailyCount, DistributionEvent } from '../../models';
import { uniqueIndex } from '../unique-indexes';
import { collectionOptions } from './schema-options';

/**
 * `counted` is false for downloads until a rollup claims them (uploads are stored counted);
 * `batchId` names the rollup batch that claimed the event. Events stored before files had
 * platforms lack platform and arch.
 */
export type EventDoc = Omit<DistributionEvent, 'platform' | 'arch'> & Partial<Pick<DistributionEvent, 'platform' | 'arch'>>
  & { counted: boolean; batchId: string | null };
/**
 * One counter per application, version and UTC day: `count` is its total, `platforms` the part of it
 * per platform. Downloads counted before platforms were (and those a rollup of that release still
 * adds) are in `count` only: the rest of the total is `any`'s. Keyed as before platforms, so the
 * unique index and the rollup's guard are the same for both releases during a rolling deploy.
 * `archs` and `customers` split the same downloads per arch and per customer id (customer ids are letters,
 * digits, `_` and `-`, so safe as field names); downloads counted before they were are in neither.
 * `appliedBatches` holds the latest rollup batches added to this counter, so re-applying one is a no-op.
 */
export type DailyCountDoc = Omit<DailyCount, 'platform'> & {
  platforms?: Partial<Record<Platform, number>>;
  archs?: Partial<Record<Arch, number>>;
  customers?: Record<string, number>;
  appliedBatches: string[];
};
/** A rollup batch not yet finished: the events it may claim, recorded before any of them is claimed. */
export interface RollupBatchDoc {
  _id: string;
  eventIds: Types.ObjectId[];
}

export const eventSchema = new Schema<EventDoc>(
  {
    eventId: String,
    type: { type: String },
    applicationId: String,
    version: String,
    fileId: String,
    customerId: String,
    clientIp: String,
    userAgent: String,
    platform: String,
    arch: String,
    timestamp: Date,
    counted: Boolean,
    batchId: String,
  },
  collectionOptions('events'),
);
eventSchema.index({ eventId: 1 }, uniqueIndex('unique_eventId'));
// The activity feed: one index per filter combination, each in feed order.
eventSchema.index({ timestamp: -1, eventId: -1 });
eventSchema.index({ type: 1, timestamp: -1, eventId: -1 });
eventSchema.index({ applicationId: 1, timestamp: -1, eventId: -1 });
eventSchema.index({ applicationId: 1, type: 1, timestamp: -1, eventId: -1 });
// A release's downloads by customer and time (the update funnel links them to offers).
eventSchema.index(
  { applicationId: 1, version: 1, customerId: 1, timestamp: 1, eventId: 1 },
  { partialFilterExpression: { type: 'download', customerId: { $type: 'string' } } },
);
// Only the events still to be counted, in the order rollups claim them.
eventSchema.index({ counted: 1, _id: 1 }, { partialFilterExpression: { counted: false } });

export const dailyCountSchema = new Schema<DailyCountDoc>(
  {
    applicationId: String,
    version: String,
    date: String,
    count: Number,
    platforms: Object.fromEntries(PLATFORMS.map((platform) => [platform, Number])),
    archs: Object.fromEntries(ARCHS.map((arch) => [arch, Number])),
    customers: Schema.Types.Mixed,
    appliedBatches: [String],
  },
  collectionOptions('dailyCounts'),
);
dailyCountSchema.index({ applicationId: 1, version: 1, date: 1 }, uniqueIndex('unique_dailyCount'));
dailyCountSchema.index({ applicationId: 1, date: -1, version: 1 });

export const rollupBatchSchema = new Schema<RollupBatchDoc>(
  {
    _id: String,
    eventIds: [Schema.Types.ObjectId],
  },
  collectionOptions('rollupBatches'),
);
