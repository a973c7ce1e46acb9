import { mongo, type FilterQuery } from 'mongoose';
import { requireCount } from '../bounds';
import type { Arch } from '../../releases/platforms';
import type { DailyCount, DistributionEvent, DownloadBreakdown, ReleaseDownload } from '../models';
import type { StoreOptions } from '../options';
import type { ActivityQuery, DailyCountQuery, ActivityStore } from '../store';
import type { MongoModels } from './models';
import { toDailyCounts, toEvent } from './records';
import { channelFilter } from './release-field-filters';
import type { DailyCountDoc, EventDoc } from './schemas/activity';
import { rollupEvents } from './rollup';

export class MongoActivity implements ActivityStore {
  constructor(private readonly models: MongoModels, private readonly options: StoreOptions) {}

  async insertEvents(events: DistributionEvent[]): Promise<void> {
    if (events.length === 0) return;
    const docs = events.map(toEventDoc);
    try {
      // Unordered: every new event is inserted even when others in the list are already stored.
      await this.models.events.collection.insertMany(docs, { ordered: false });
    } catch (error) {
      if (!onlyAlreadyStored(error)) throw error;
    }
  }

  async getEvent(eventId: string): Promise<DistributionEvent | null> {
    const doc = await this.models.events.findOne({ eventId }).lean<EventDoc>();
    return doc ? toEvent(doc) : null;
  }

  async listEvents(query: ActivityQuery): Promise<DistributionEvent[]> {
    requireCount('limit', query.limit);
    const filter: FilterQuery<EventDoc> = {};
    if (query.type !== undefined) filter.type = query.type;
    if (query.applicationId !== undefined) filter.applicationId = query.applicationId;
    if (query.after !== undefined) {
      const { timestamp, eventId } = query.after;
      filter.$or = [{ timestamp: { $lt: timestamp } }, { timestamp, eventId: { $lt: eventId } }];
    }
    const docs = await this.models.events
      .find(filter)
      .sort({ timestamp: -1, eventId: -1 })
      .limit(query.limit)
      .lean<EventDoc[]>();
    return docs.map(toEvent);
  }

  async rollupEvents(limit: number): Promise<number> {
    requireCount('limit', limit);
    return rollupEvents(this.models, limit);
  }

  /** Through the partial index of customers' downloads by release, customer, time and event id. */
  async listReleaseDownloads(applicationId: string, version: string, range: { from: Date; to: Date }, after: ReleaseDownload | null, limit: number): Promise<ReleaseDownload[]> {
    requireCount('limit', limit);
    const filter: FilterQuery<EventDoc> = {
      applicationId, version, type: 'download', customerId: { $type: 'string' }, timestamp: { $gte: range.from, $lte: range.to },
    };
    if (after) {
      filter.$or = [
        { customerId: { $gt: after.customerId } },
        { customerId: after.customerId, timestamp: { $gt: after.at } },
        { customerId: after.customerId, timestamp: after.at, eventId: { $gt: after.eventId } },
      ];
    }
    const docs = await this.models.events
      .find(filter, { _id: 0, customerId: 1, timestamp: 1, eventId: 1 })
      .sort({ customerId: 1, timestamp: 1, eventId: 1 })
      .limit(limit)
      .lean<Pick<EventDoc, 'customerId' | 'timestamp' | 'eventId'>[]>();
    return docs.map((doc) => ({ customerId: doc.customerId as string, eventId: doc.eventId, at: doc.timestamp }));
  }

  /** The first uncounted event in the order rollups claim them, through the partial index of uncounted events. */
  async oldestUncountedEventAt(): Promise<Date | null> {
    const doc = await this.models.events
      .findOne({ counted: false }, { _id: 0, timestamp: 1 })
      .sort({ counted: 1, _id: 1 })
      .lean<Pick<EventDoc, 'timestamp'>>();
    return doc ? doc.timestamp : null;
  }

  async listDailyCounts(applicationId: string, query: DailyCountQuery): Promise<DailyCount[]> {
    const filter = await this.dailySelection(applicationId, query);
    const docs = await this.models.dailyCounts
      .find(filter, { _id: 0, applicationId: 1, version: 1, date: 1, count: 1, platforms: 1 })
      .sort({ date: -1, version: 1 })
      .lean<DailyCountDoc[]>();
    return docs.flatMap(toDailyCounts);
  }

  /** Sums the selected counters' parts in memory: the period's counters are read through { applicationId, date }, a handful per day. */
  async listDownloadBreakdown(applicationId: string, query: DailyCountQuery, topCustomers: number): Promise<DownloadBreakdown> {
    requireCount('limit', topCustomers);
    const docs = await this.models.dailyCounts
      .find(await this.dailySelection(applicationId, query), { _id: 0, archs: 1, customers: 1 })
      .lean<Pick<DailyCountDoc, 'archs' | 'customers'>[]>();
    const byArch = new Map<Arch, number>();
    const byCustomer = new Map<string, number>();
    for (const doc of docs) {
      for (const [arch, n] of Object.entries(doc.archs ?? {}) as [Arch, number][]) byArch.set(arch, (byArch.get(arch) ?? 0) + n);
      for (const [customerId, n] of Object.entries(doc.customers ?? {})) byCustomer.set(customerId, (byCustomer.get(customerId) ?? 0) + n);
    }
    return {
      byArch: Object.fromEntries([...byArch].filter(([, n]) => n > 0)),
      topCustomers: [...byCustomer]
        .map(([customerId, downloads]) => ({ customerId, downloads }))
        .sort((a, b) => b.downloads - a.downloads || (a.customerId < b.customerId ? -1 : 1))
        .slice(0, topCustomers),
    };
  }

  /** One application's daily counters by version, channel and period. */
  private async dailySelection(applicationId: string, query: DailyCountQuery): Promise<FilterQuery<DailyCountDoc>> {
    const filter: FilterQuery<DailyCountDoc> = { applicationId };
    const versions: FilterQuery<DailyCountDoc>[] = [];
    if (query.version !== undefined) versions.push({ version: query.version });
    if (query.channel !== undefined) {
      // A version's channel is read now: its downloads count in the channel it is in, wherever it was before.
      const inChannel = await this.models.versions
        .find({ applicationId, channel: channelFilter([query.channel], this.options) }, { _id: 0, version: 1 })
        .lean<{ version: string }[]>();
      versions.push({ version: { $in: inChannel.map((v) => v.version) } });
    }
    if (versions.length > 0) filter.$and = versions;
    if (query.from !== undefined || query.to !== undefined) {
      filter.date = {
        ...(query.from === undefined ? {} : { $gte: query.from }),
        ...(query.to === undefined ? {} : { $lte: query.to }),
      };
    }
    return filter;
  }
}

/** The stored event: the record's fields only (this insert bypasses schema casting), and not yet claimed by a rollup. */
function toEventDoc(event: DistributionEvent): EventDoc {
  return {
    eventId: event.eventId,
    type: event.type,
    applicationId: event.applicationId,
    version: event.version,
    fileId: event.fileId,
    customerId: event.customerId,
    clientIp: event.clientIp,
    userAgent: event.userAgent,
    platform: event.platform,
    arch: event.arch,
    timestamp: event.timestamp,
    counted: event.type !== 'download',
    batchId: null,
  };
}

/** True when an unordered insert failed only on eventIds already stored (the one unique index events have). */
function onlyAlreadyStored(error: unknown): boolean {
  if (!(error instanceof mongo.MongoBulkWriteError) || error.result?.getWriteConcernError()) return false;
  const writeErrors = [error.writeErrors].flat();
  return writeErrors.length > 0 && writeErrors.every((writeError) => writeError.code === 11000);
}
