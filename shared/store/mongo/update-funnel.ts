import { Types } from 'mongoose';
import { requireCount } from '../bounds';
import type { FailureMessageCount, FunnelCheckBatch, InstallArrival, InstallOfferRecord, UpdateReport } from '../models';
import type { UpdateFunnelStore } from '../store';
import type { MongoModels } from './models';
import type { CheckEventDoc, InstallOfferDoc } from './schemas/adoption';
import { isDuplicateKeyError } from './unique-indexes';

/**
 * The update funnel on MongoDB, without transactions: checks carry `funneled: false` until a batch
 * that read them is finished (the batch's position is its checks' ids); offers are upserted with
 * `$min`, and an arrival is set only where none or a later one is, so a batch folded twice, or by two
 * workers at once, changes nothing.
 */
const FAILURE_EVENTS = ['download_failed', 'install_failed'];

export class MongoUpdateFunnel implements UpdateFunnelStore {
  constructor(private readonly models: MongoModels) {}

  async readFunnelChecks(limit: number): Promise<FunnelCheckBatch | null> {
    requireCount('limit', limit);
    const docs = await this.models.checkEvents.find({ funneled: false }).sort({ funneled: 1, _id: 1 }).limit(limit).lean<(CheckEventDoc & { _id: Types.ObjectId })[]>();
    if (docs.length === 0) return null;
    return {
      position: docs.map((doc) => doc._id.toHexString()).join(','),
      events: docs.map((doc) => ({
        eventId: doc.eventId, applicationId: doc.applicationId, customerId: doc.customerId, client: doc.client, platform: doc.platform, arch: doc.arch,
        channel: doc.channel, runningVersion: doc.runningVersion, offeredVersion: doc.offeredVersion ?? null, installId: doc.installId ?? null,
        installHash: doc.installHash, timestamp: doc.timestamp,
      })),
    };
  }

  async finishFunnelChecks(position: string): Promise<void> {
    const ids = position.split(',').filter((id) => Types.ObjectId.isValid(id)).map((id) => new Types.ObjectId(id));
    if (ids.length > 0) await this.models.checkEvents.updateMany({ _id: { $in: ids }, funneled: false }, { $set: { funneled: true } });
  }

  async recordOffers(offers: readonly Omit<InstallOfferRecord, 'arrivedAt'>[]): Promise<void> {
    if (offers.length === 0) return;
    const operations = offers.map((o) => ({
      updateOne: {
        filter: { applicationId: o.applicationId, version: o.version, installKey: o.installKey },
        update: {
          $min: { offeredAt: o.offeredAt },
          $setOnInsert: { customerId: o.customerId, platform: o.platform, arch: o.arch, channel: o.channel, arrivedAt: null },
        },
        upsert: true,
      },
    }));
    try {
      await this.models.installOffers.bulkWrite(operations, { ordered: false });
    } catch (error) {
      // Two folds creating the same record at once: the loser's offers are applied again, now as updates.
      if (!isDuplicateKeyError(error)) throw error;
      await this.models.installOffers.bulkWrite(operations, { ordered: false });
    }
  }

  async recordArrivals(arrivals: readonly InstallArrival[]): Promise<void> {
    if (arrivals.length === 0) return;
    await this.models.installOffers.bulkWrite(arrivals.map((a) => ({
      updateOne: {
        filter: {
          applicationId: a.applicationId, version: a.version, installKey: a.installKey, offeredAt: { $lte: a.at },
          $or: [{ arrivedAt: null }, { arrivedAt: { $gt: a.at } }],
        },
        update: { $set: { arrivedAt: a.at } },
      },
    })), { ordered: false });
  }

  async insertUpdateReport(report: UpdateReport): Promise<void> {
    await this.models.updateReports.collection.insertOne({ ...report });
  }

  async purgeUpdateReports(before: Date, limit: number): Promise<number> {
    requireCount('limit', limit);
    const old = await this.models.updateReports.find({ receivedAt: { $lt: before } }, { _id: 1 }).sort({ receivedAt: 1 }).limit(limit).lean();
    const { deletedCount } = await this.models.updateReports.deleteMany({ _id: { $in: old.map((report) => report._id) } });
    return deletedCount;
  }

  async countFailureReports(applicationId: string, version: string): Promise<number> {
    return this.models.updateReports.countDocuments({ applicationId, toVersion: version, event: { $in: FAILURE_EVENTS } });
  }

  async topFailureMessages(applicationId: string, version: string, limit: number): Promise<FailureMessageCount[]> {
    requireCount('limit', limit);
    const groups = await this.models.updateReports.aggregate<{ _id: string; reports: number }>([
      { $match: { applicationId, toVersion: version, event: { $in: FAILURE_EVENTS }, message: { $ne: null } } },
      { $group: { _id: '$message', reports: { $sum: 1 } } },
      { $sort: { reports: -1, _id: 1 } },
      { $limit: limit },
    ]);
    return groups.map((group) => ({ message: group._id, reports: group.reports }));
  }

  async listInstallOffers(applicationId: string, version: string, afterInstallKey: string | null, limit: number): Promise<InstallOfferRecord[]> {
    requireCount('limit', limit);
    const docs = await this.models.installOffers
      .find({ applicationId, version, installKey: { $gt: afterInstallKey ?? '' } })
      .sort({ applicationId: 1, version: 1, installKey: 1 })
      .limit(limit)
      .lean<InstallOfferDoc[]>();
    return docs.map((doc) => ({
      applicationId: doc.applicationId, version: doc.version, installKey: doc.installKey, customerId: doc.customerId, platform: doc.platform,
      arch: doc.arch, channel: doc.channel, offeredAt: doc.offeredAt, arrivedAt: doc.arrivedAt ?? null,
    }));
  }
}
