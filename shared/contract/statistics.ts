import { z } from 'zod';
import { ARCHS, PLATFORMS, type Arch } from '../releases/platforms';
import type { DistributionEvent } from '../store/models';
import { iso, timestamp } from './common';

/** An application's downloads, from the daily counters. */
export interface Statistics {
  applicationId: string;
  totalDownloads: number;
  downloadsByVersion: Record<string, number>;
  downloadsByPlatform: Record<string, number>;
  downloadsByChannel: Record<string, number>;
  downloadsByArch: Partial<Record<Arch, number>>;
  topCustomers: { customerId: string; downloads: number }[];
  downloadsByDay: { date: string; count: number }[];
}

export const statisticsResponse = z.object({
  applicationId: z.string(),
  totalDownloads: z.number().int(),
  downloadsByVersion: z.record(z.number().int()),
  /** Per platform of the downloaded file (`any` for downloads counted before files had one). */
  downloadsByPlatform: z.record(z.number().int()),
  /** Per channel each version is in now (`deleted` for versions no longer stored). */
  downloadsByChannel: z.record(z.number().int()),
  /** Per arch of the downloaded file; downloads rolled up before archs were counted are in no arch. */
  downloadsByArch: z.record(z.number().int()),
  /** The customers with most downloads in the period (at most STATISTICS_TOP_CUSTOMERS), most first. */
  topCustomers: z.array(z.object({ customerId: z.string(), downloads: z.number().int() })),
  /** UTC days, newest first; days without downloads left out. */
  downloadsByDay: z.array(z.object({ date: z.string(), count: z.number().int() })),
});

export function presentStatistics(statistics: Statistics): z.input<typeof statisticsResponse> {
  return {
    applicationId: statistics.applicationId,
    totalDownloads: statistics.totalDownloads,
    downloadsByVersion: statistics.downloadsByVersion,
    downloadsByPlatform: statistics.downloadsByPlatform,
    downloadsByChannel: statistics.downloadsByChannel,
    downloadsByArch: statistics.downloadsByArch,
    topCustomers: statistics.topCustomers,
    downloadsByDay: statistics.downloadsByDay,
  };
}

export const activityResponse = z.object({
  eventId: z.string(),
  type: z.enum(['upload', 'download']),
  applicationId: z.string(),
  version: z.string(),
  fileId: z.string(),
  customerId: z.string().nullable(),
  clientIp: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** The file's platform and arch (`any` for events stored before files had them). */
  platform: z.enum(PLATFORMS),
  arch: z.enum(ARCHS),
  timestamp,
});

export function presentActivity(event: DistributionEvent): z.input<typeof activityResponse> {
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
    timestamp: iso(event.timestamp),
  };
}

/** One page of the activity feed, newest first, and the cursor of the next. */
export interface ActivityPage {
  events: DistributionEvent[];
  hasMore: boolean;
  nextCursor: string | null;
}

export const activityPageResponse = z.object({
  activities: z.array(activityResponse),
  pagination: z.object({ hasMore: z.boolean(), nextCursor: z.string().nullable() }),
});

export function presentActivityPage(page: ActivityPage): z.input<typeof activityPageResponse> {
  return { activities: page.events.map(presentActivity), pagination: { hasMore: page.hasMore, nextCursor: page.nextCursor } };
}
