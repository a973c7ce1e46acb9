import { Schema, type Types } from 'mongoose';
import type { DailyCount, DistributionEvent } from '../../models';
import { uniqueIndex } from '../unique-indexes';
import { collectionOptions } from './schema-options';

/**
 * `counted` is false for downloads until a rollup claims them (uploads are stored counted);
 * `batchId` names the rollup batch that claimed the event.
 */
export type EventDoc = DistributionEvent & { counted: boolean; batchId: string | null };
/** `appliedBatches` holds the latest rollup batches added to this counter, so re-applying one is a no-op. */
export type DailyCountDoc = DailyCount & { appliedBatches: string[] };
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
// Only the events still to be counted, in the order rollups claim them.
eventSchema.index({ counted: 1, _id: 1 }, { partialFilterExpression: { counted: false } });

export const dailyCountSchema = new Schema<DailyCountDoc>(
  {
    applicationId: String,
    version: String,
    date: String,
    count: Number,
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
