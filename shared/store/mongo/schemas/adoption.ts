import { Schema, type Types } from 'mongoose';
import type { AdoptionCount, CheckEvent, CustomerVersionSeen, InstallOfferRecord, RolloutPlanRecord, UpdateReport } from '../../models';
import { uniqueIndex } from '../unique-indexes';
import { collectionOptions } from './schema-options';

/** `counted` is false until an adoption rollup claims the check; `batchId` names the batch that claimed it. */
export type CheckEventDoc = CheckEvent & { counted: boolean; batchId: string | null; funneled?: boolean };
/** `appliedBatches` holds the latest rollup batches added to this counter, so adding one again is a no-op. */
export type AdoptionCountDoc = AdoptionCount & { appliedBatches: string[] };
export type CustomerVersionDoc = CustomerVersionSeen;
/** An adoption rollup batch not yet finished: the check events it may claim. */
export interface CheckRollupBatchDoc {
  _id: string;
  eventIds: Types.ObjectId[];
}

export const checkEventSchema = new Schema<CheckEventDoc>(
  {
    eventId: String,
    applicationId: String,
    customerId: String,
    client: String,
    platform: String,
    arch: String,
    channel: String,
    runningVersion: String,
    offeredVersion: String,
    installId: String,
    installHash: String,
    timestamp: Date,
    counted: Boolean,
    batchId: String,
    /** false until the update funnel has read the check (checks stored before the funnel have none, and are not read). */
    funneled: Boolean,
  },
  collectionOptions('checkEvents'),
);
checkEventSchema.index({ eventId: 1 }, uniqueIndex('unique_checkEventId'));
// Only the checks still to be counted, in the order rollups claim them.
checkEventSchema.index({ counted: 1, _id: 1 }, { partialFilterExpression: { counted: false } });
// Only the checks the update funnel has still to read, in the order it reads them.
checkEventSchema.index({ funneled: 1, _id: 1 }, { partialFilterExpression: { funneled: false } });
// The retention purge: counted checks by age.
checkEventSchema.index({ timestamp: 1 }, { partialFilterExpression: { counted: true } });

export const adoptionCountSchema = new Schema<AdoptionCountDoc>(
  {
    applicationId: String,
    date: String,
    channel: String,
    platform: String,
    arch: String,
    version: String,
    checks: Number,
    installs: Number,
    appliedBatches: [String],
  },
  collectionOptions('adoptionCounts'),
);
// One counter per day and selection; the adoption query reads one selection's days in order through it.
adoptionCountSchema.index({ applicationId: 1, channel: 1, platform: 1, arch: 1, date: 1, version: 1 }, uniqueIndex('unique_adoptionCount'));

export const customerVersionSchema = new Schema<CustomerVersionDoc>(
  {
    applicationId: String,
    customerId: String,
    version: String,
    lastReportedAt: Date,
  },
  collectionOptions('customerVersions'),
);
customerVersionSchema.index({ applicationId: 1, customerId: 1, version: 1 }, uniqueIndex('unique_customerVersion'));

export const checkRollupBatchSchema = new Schema<CheckRollupBatchDoc>(
  {
    _id: String,
    eventIds: [Schema.Types.ObjectId],
  },
  collectionOptions('checkRollupBatches'),
);

export type InstallOfferDoc = InstallOfferRecord;

/** The update funnel: one record per (application, version, install), upserted with $min. */
export const installOfferSchema = new Schema<InstallOfferDoc>(
  {
    applicationId: String,
    version: String,
    installKey: String,
    customerId: String,
    platform: String,
    arch: String,
    channel: String,
    offeredAt: Date,
    arrivedAt: { type: Date, default: null },
  },
  collectionOptions('installOffers'),
);
installOfferSchema.index({ applicationId: 1, version: 1, installKey: 1 }, uniqueIndex('unique_installOffer'));

export type RolloutPlanDoc = RolloutPlanRecord;

/** Versions' rollout plans: one per (applicationId, version), each change a conditional update. */
export const rolloutPlanSchema = new Schema<RolloutPlanDoc>(
  {
    applicationId: String,
    version: String,
    plan: Schema.Types.Mixed,
    status: String,
    step: Number,
    startedAt: Date,
    haltedAt: { type: Date, default: null },
    haltReason: { type: String, default: null },
    updatedAt: Date,
  },
  collectionOptions('rolloutPlans'),
);
rolloutPlanSchema.index({ applicationId: 1, version: 1 }, uniqueIndex('unique_rolloutPlan'));
// The workers' sweep: running plans only, in (applicationId, version) order.
rolloutPlanSchema.index({ status: 1, applicationId: 1, version: 1 }, { partialFilterExpression: { status: 'running' } });

export type UpdateReportDoc = UpdateReport;

/** Reports apps sent about updates, counted per release. */
export const updateReportSchema = new Schema<UpdateReportDoc>(
  {
    reportId: String,
    applicationId: String,
    customerId: String,
    installId: { type: String, default: null },
    fromVersion: String,
    toVersion: String,
    event: String,
    message: { type: String, default: null },
    receivedAt: Date,
  },
  collectionOptions('updateReports'),
);
updateReportSchema.index({ reportId: 1 }, uniqueIndex('unique_reportId'));
updateReportSchema.index({ applicationId: 1, toVersion: 1, event: 1, message: 1 });
// Reports past their retention, oldest first.
updateReportSchema.index({ receivedAt: 1 });
