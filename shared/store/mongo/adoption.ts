import { mongo, Types } from 'mongoose';
import { requireCount, requirePage } from '../bounds';
import { foldCheckEvents } from '../check-groups';
import type { AdoptionCount, CheckBatch, CheckEvent, CustomerAdoption, CustomerVersionSeen } from '../models';
import type { AdoptionCountQuery, Page, AdoptionStore, CheckWindow } from '../store';
import type { MongoModels } from './models';
import type { CheckEventDoc, CheckRollupBatchDoc } from './schemas/adoption';
import { isDuplicateKeyError } from './unique-indexes';

/** Keeps a batch record far below MongoDB's 16 MB document limit. */
const MAX_BATCH_EVENTS = 10_000;
/** How many batch ids a counter remembers (as the download counters do: see rollup.ts). */
const REMEMBERED_BATCHES = 50;

/**
 * Update checks and their adoption counters, without transactions, as the download rollup
 * (rollup.ts): a batch records the ids of the checks it may claim before claiming them, so an
 * interrupted rollup takes the same batch up again; each counter's `$inc` is guarded by its record of
 * applied batches; installs only rise (`$max`) and last reports only move forward, so repeating them
 * changes nothing; the batch record is deleted last.
 */
export class MongoAdoption implements AdoptionStore {
  constructor(private readonly models: MongoModels) {}

  openCheckWindow(capacity: number): CheckWindow {
    requireCount('capacity', capacity);
    return new EventWindow(capacity, (events) => this.insertCheckEvents(events));
  }

  async insertCheckEvents(events: CheckEvent[]): Promise<void> {
    if (events.length === 0) return;
    const docs: CheckEventDoc[] = events.map((event) => ({ ...checkFields(event), counted: false, batchId: null, funneled: false }));
    try {
      // Unordered: every new check is inserted even when others in the list are already stored.
      await this.models.checkEvents.collection.insertMany(docs, { ordered: false });
    } catch (error) {
      if (!onlyAlreadyStored(error)) throw error;
    }
  }

  async claimCheckBatch(limit: number): Promise<CheckBatch | null> {
    requireCount('limit', limit);
    const batch = (await this.models.checkRollupBatches.findOne().sort({ _id: 1 }).lean<CheckRollupBatchDoc>())
      ?? (await this.openBatch(limit));
    if (batch === null) return null;
    await this.models.checkEvents.updateMany({ _id: { $in: batch.eventIds }, counted: false }, { $set: { counted: true, batchId: batch._id } });
    const docs = await this.models.checkEvents
      .find({ _id: { $in: batch.eventIds }, batchId: batch._id })
      .sort({ _id: 1 })
      .lean<CheckEventDoc[]>();
    return { batchId: batch._id, checks: docs.length, ...foldCheckEvents(docs.map(checkFields)) };
  }

  async finishCheckBatch(batchId: string, counts: AdoptionCount[], seen: CustomerVersionSeen[]): Promise<boolean> {
    if (!(await this.models.checkRollupBatches.exists({ _id: batchId }))) return false;
    for (const count of counts) await this.addOnce(count, batchId);
    for (const report of seen) {
      await this.models.customerVersions.updateOne(
        { applicationId: report.applicationId, customerId: report.customerId, version: report.version },
        { $max: { lastReportedAt: report.lastReportedAt } },
        { upsert: true },
      ).catch((error) => {
        // Two finishers creating the same record: the other's write holds the same report or a later one.
        if (!isDuplicateKeyError(error)) throw error;
      });
    }
    await this.models.checkRollupBatches.deleteOne({ _id: batchId });
    return true;
  }

  async purgeCheckEvents(before: Date, limit: number): Promise<number> {
    requireCount('limit', limit);
    const old = await this.models.checkEvents
      // Not a check the update funnel has still to read (checks stored before it have no flag).
      .find({ counted: true, funneled: { $ne: false }, timestamp: { $lt: before } }, { _id: 1 })
      .sort({ timestamp: 1 })
      .limit(limit)
      .lean();
    if (old.length === 0) return 0;
    return (await this.models.checkEvents.deleteMany({ _id: { $in: old.map((doc) => doc._id) } })).deletedCount;
  }

  async listAdoptionCounts(applicationId: string, query: AdoptionCountQuery): Promise<AdoptionCount[]> {
    const docs = await this.models.adoptionCounts
      .find(
        { applicationId, channel: query.channel, platform: query.platform, arch: query.arch, date: { $gte: query.from, $lte: query.to } },
        { _id: 0, appliedBatches: 0 },
      )
      .sort({ applicationId: 1, channel: 1, platform: 1, arch: 1, date: 1, version: 1 })
      .lean<AdoptionCount[]>();
    return docs.map((doc) => ({
      applicationId: doc.applicationId, date: doc.date, channel: doc.channel, platform: doc.platform, arch: doc.arch,
      version: doc.version, checks: doc.checks, installs: doc.installs,
    }));
  }

  async listCustomerAdoption(applicationId: string, page: number, pageSize: number): Promise<Page<CustomerAdoption>> {
    requirePage(page, pageSize);
    // Answered from the unique index's prefix: one key per customer and version of this application.
    const customers = ((await this.models.customerVersions.distinct('customerId', { applicationId })) as string[]).sort();
    const onPage = customers.slice((page - 1) * pageSize, page * pageSize);
    const docs = await this.models.customerVersions
      .find({ applicationId, customerId: { $in: onPage } }, { _id: 0, customerId: 1, version: 1, lastReportedAt: 1 })
      .lean<CustomerVersionSeen[]>();
    const items = onPage.map((customerId) => ({
      customerId,
      versions: docs
        .filter((doc) => doc.customerId === customerId)
        .sort((a, b) => b.lastReportedAt.getTime() - a.lastReportedAt.getTime() || (a.version < b.version ? -1 : 1))
        .map((doc) => ({ version: doc.version, lastReportedAt: doc.lastReportedAt })),
    }));
    return { items, total: customers.length };
  }

  private async openBatch(limit: number): Promise<CheckRollupBatchDoc | null> {
    const candidates = await this.models.checkEvents
      .find({ counted: false }, { _id: 1 })
      .sort({ counted: 1, _id: 1 })
      .limit(Math.min(limit, MAX_BATCH_EVENTS))
      .lean();
    if (candidates.length === 0) return null;
    const batch = { _id: new Types.ObjectId().toHexString(), eventIds: candidates.map((event) => event._id) };
    await this.models.checkRollupBatches.create(batch);
    return batch;
  }

  private async addOnce(count: AdoptionCount, batchId: string): Promise<void> {
    const counter = {
      applicationId: count.applicationId, channel: count.channel, platform: count.platform, arch: count.arch, date: count.date, version: count.version,
    };
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.models.adoptionCounts.updateOne(
          { ...counter, appliedBatches: { $ne: batchId } },
          {
            $inc: { checks: count.checks },
            $max: { installs: count.installs },
            $push: { appliedBatches: { $each: [batchId], $slice: -REMEMBERED_BATCHES } },
          },
          { upsert: true },
        );
        return;
      } catch (error) {
        // No counter without this batch, and the upsert collided: applied already, or created by a concurrent finisher.
        if (!isDuplicateKeyError(error)) throw error;
        if (await this.models.adoptionCounts.exists({ ...counter, appliedBatches: batchId })) return;
        if (attempt === 3) throw error;
      }
    }
  }
}

/** A window's checks as the events inserted, a document each. */
class EventWindow implements CheckWindow {
  private readonly events: CheckEvent[] = [];

  constructor(private readonly capacity: number, private readonly insert: (events: CheckEvent[]) => Promise<void>) {}

  get length(): number {
    return this.events.length;
  }

  push(check: CheckEvent): void {
    if (this.events.length === this.capacity) throw new RangeError(`a check window holds at most ${this.capacity} checks`);
    this.events.push(check);
  }

  write(): Promise<void> {
    return this.insert(this.events);
  }
}

/** The record's fields only: what is inserted (bypassing schema casting) and what is read back. */
function checkFields(event: CheckEvent): CheckEvent {
  return {
    eventId: event.eventId,
    applicationId: event.applicationId,
    customerId: event.customerId,
    client: event.client,
    platform: event.platform,
    arch: event.arch,
    channel: event.channel,
    runningVersion: event.runningVersion,
    offeredVersion: event.offeredVersion ?? null,
    installId: event.installId ?? null,
    installHash: event.installHash,
    timestamp: event.timestamp,
  };
}

/** True when an unordered insert failed only on eventIds already stored. */
function onlyAlreadyStored(error: unknown): boolean {
  if (!(error instanceof mongo.MongoBulkWriteError) || error.result?.getWriteConcernError()) return false;
  const writeErrors = [error.writeErrors].flat();
  return writeErrors.length > 0 && writeErrors.every((writeError) => writeError.code === 11000);
}
