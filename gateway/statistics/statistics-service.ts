import type { ActivityPage, Statistics } from '../../shared/contract/statistics';
import { notFound } from '../../shared/errors';
import { STATISTICS_TOP_CUSTOMERS } from '../../shared/policy';
import type { Store } from '../../shared/store/store';
import type { ActivityQuery, StatisticsQuery } from '../../shared/contract/statistics-requests';
import { CursorFilters, decodeCursor, encodeCursor } from '../http/keyset-cursor';

/** Where downloads of versions no longer stored count in downloadsByChannel. */
export const DELETED_VERSIONS = 'deleted';

/** Statistics from the daily counters (cost grows with days and versions, not events) and the activity feed. */
export class StatisticsService {
  constructor(private readonly store: Store) {}

  async statistics(applicationId: string, query: StatisticsQuery): Promise<Statistics> {
    // Soft-deleted applications keep their statistics.
    const application = await this.store.applications.getApplication(applicationId, { includeDeleted: true });
    if (!application) throw notFound(`application ${applicationId} not found`);
    const [counts, versions, breakdown] = await Promise.all([
      this.store.activity.listDailyCounts(applicationId, query),
      this.store.versions.listVersions(applicationId),
      this.store.activity.listDownloadBreakdown(applicationId, query, STATISTICS_TOP_CUSTOMERS),
    ]);
    const channelOf = new Map(versions.map((v) => [v.version, v.channel]));
    // Maps, not plain objects: a version named like an inherited property (`constructor`) must count as any other.
    const byVersion = new Map<string, number>();
    const byPlatform = new Map<string, number>();
    const byChannel = new Map<string, number>();
    const byDay = new Map<string, number>();
    let total = 0;
    for (const { version, platform, date, count } of counts) {
      total += count;
      byVersion.set(version, (byVersion.get(version) ?? 0) + count);
      byPlatform.set(platform, (byPlatform.get(platform) ?? 0) + count);
      // The channel the version is in now, as the channel filter reads it; a version deleted since has none.
      const channel = channelOf.get(version) ?? DELETED_VERSIONS;
      byChannel.set(channel, (byChannel.get(channel) ?? 0) + count);
      byDay.set(date, (byDay.get(date) ?? 0) + count);
    }
    return {
      applicationId,
      totalDownloads: total,
      // Object.fromEntries defines own properties, so even `__proto__` becomes an ordinary key.
      downloadsByVersion: Object.fromEntries(byVersion),
      downloadsByPlatform: Object.fromEntries(byPlatform),
      downloadsByChannel: Object.fromEntries(byChannel),
      downloadsByArch: breakdown.byArch,
      topCustomers: breakdown.topCustomers,
      downloadsByDay: [...byDay.entries()]
        .filter(([, count]) => count > 0)
        .sort(([a], [b]) => (a < b ? 1 : -1))
        .map(([date, count]) => ({ date, count })),
    };
  }

  async activity(query: ActivityQuery): Promise<ActivityPage> {
    const filter = { type: query.type, applicationId: query.applicationId };
    const cursorFilters: CursorFilters = { type: query.type ?? null, app: query.applicationId ?? null };
    const position = query.cursor === undefined ? undefined : decodeCursor(query.cursor, cursorFilters);
    const after = position && { timestamp: position.timestamp, eventId: position.id };
    const events = await this.store.activity.listEvents({ ...filter, after, limit: query.limit + 1 });
    const page = events.slice(0, query.limit);
    const hasMore = events.length > query.limit;
    const last = page[page.length - 1];
    return { events: page, hasMore, nextCursor: hasMore && last ? encodeCursor({ timestamp: last.timestamp, id: last.eventId }, cursorFilters) : null };
  }
}
