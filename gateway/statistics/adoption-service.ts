import type { Adoption, AdoptionDay, ReleaseSpread } from '../../shared/contract/adoption';
import { badRequest, notFound } from '../../shared/errors';
import { ADOPTION_DEFAULT_DAYS, ADOPTION_MAX_DAYS } from '../../shared/policy';
import { compareOrderKeys, versionOrderKey } from '../../shared/releases/version-order';
import { utcDate } from '../../shared/store/dates';
import { ALL, type AdoptionCount, type CustomerAdoption, UNKNOWN_VERSION, type Version } from '../../shared/store/models';
import type { Page, Store } from '../../shared/store/store';
import { type AdoptionQuery, daysBetween } from '../../shared/contract/statistics-requests';
import { DAY_MS } from '../../shared/durations';

/** Shares a release's spread is measured to. */
const SPREAD_SHARES = [0.5, 0.9] as const;

/** A published release with its order key, as the day-by-day figures compare versions. */
interface Release {
  version: string;
  channel: string;
  /** Still offered (published, not yanked): only those are a channel's latest. */
  offered: boolean;
  orderKey: string;
  publishedAt: Date;
  publishedDay: string;
}

/**
 * Adoption from the adoption counters (cost grows with days and versions, never with checks): per day
 * the checks, the estimated active installs and installs per running version, compared with the
 * releases published by then.
 */
export class AdoptionService {
  constructor(private readonly store: Store, private readonly channels: readonly string[]) {}

  async adoption(applicationId: string, query: AdoptionQuery, now = new Date()): Promise<Adoption> {
    // Soft-deleted applications keep their figures.
    const application = await this.store.applications.getApplication(applicationId, { includeDeleted: true });
    if (!application) throw notFound(`application ${applicationId} not found`);
    const to = query.to ?? utcDate(now);
    const from = query.from ?? utcDate(new Date(Date.parse(`${to}T00:00:00Z`) - (ADOPTION_DEFAULT_DAYS - 1) * DAY_MS));
    if (from > to) throw badRequest('from must not be after to');
    if (daysBetween(from, to) >= ADOPTION_MAX_DAYS) throw badRequest(`the range must not exceed ${ADOPTION_MAX_DAYS} days`);

    // "Latest" is per channel: an install is compared with what its own channel offers. Without a
    // channel asked for, each channel's counters are read too (a handful of indexed reads).
    const perChannel = query.channel === undefined ? this.channels : [query.channel];
    const countsOf = (channel: string) => this.store.adoption.listAdoptionCounts(applicationId, { channel, platform: query.platform ?? ALL, arch: query.arch ?? ALL, from, to });
    const [counts, channelCounts, releases] = await Promise.all([
      countsOf(query.channel ?? ALL),
      query.channel === undefined ? Promise.all(perChannel.map(countsOf)) : Promise.resolve(undefined),
      this.releases(applicationId, query.channel),
    ]);
    const latestOf = latestByChannel(releases, perChannel, this.channels);
    const days = dayFigures(from, to, counts, channelCounts ? perChannel.map((channel, i) => ({ channel, counts: channelCounts[i], always: false })) : [{ channel: query.channel as string, counts, always: true }], latestOf);
    const orderKeys = new Map(releases.map((release) => [release.version, release.orderKey]));
    return { applicationId, days, releases: releases.map((release) => spread(release, days, orderKeys)) };
  }

  async customers(applicationId: string, page: number, pageSize: number): Promise<Page<CustomerAdoption>> {
    const application = await this.store.applications.getApplication(applicationId, { includeDeleted: true });
    if (!application) throw notFound(`application ${applicationId} not found`);
    return this.store.adoption.listCustomerAdoption(applicationId, page, pageSize);
  }

  /** Releases ever published (yanked ones included: installs may still run them), newest first; in a channel, those it offers. */
  private async releases(applicationId: string, channel: string | undefined): Promise<Release[]> {
    const offered = channel === undefined ? undefined : this.channels.slice(0, this.channels.indexOf(channel) + 1);
    const versions = await this.store.versions.listVersions(applicationId, { statuses: ['published', 'yanked'], channels: offered });
    return versions
      .filter((v): v is typeof v & { publishedAt: Date } => v.publishedAt !== null)
      .map((v: Version & { publishedAt: Date }) => ({
        version: v.version, channel: v.channel, offered: v.status === 'published', orderKey: versionOrderKey(v.version), publishedAt: v.publishedAt, publishedDay: utcDate(v.publishedAt),
      }));
  }
}

/** For each channel, the releases it offers (its own and those of the more stable channels), not yanked, newest first. */
function latestByChannel(releases: Release[], channels: readonly string[], allChannels: readonly string[]): Map<string, Release[]> {
  const rank = new Map(allChannels.map((channel, i) => [channel, i]));
  return new Map(channels.map((channel) => {
    const limit = rank.get(channel) ?? -1;
    return [channel, releases.filter((release) => release.offered && (rank.get(release.channel) ?? Infinity) <= limit)];
  }));
}

/** Counters of one channel, compared with that channel's latest release. */
interface ChannelCounts {
  channel: string;
  counts: AdoptionCount[];
  /** Name its latest release on days without checks too (the channel asked for). */
  always: boolean;
}

/** Counters by date. */
function byDate(counts: AdoptionCount[]): Map<string, AdoptionCount[]> {
  const dates = new Map<string, AdoptionCount[]>();
  for (const count of counts) {
    const list = dates.get(count.date);
    if (list) list.push(count);
    else dates.set(count.date, [count]);
  }
  return dates;
}

/**
 * Every day of the range, oldest first, from its counters (version ALL is the day's total). Installs
 * are on the latest release or behind it by their channel's latest offered release published by the
 * end of that day.
 */
function dayFigures(from: string, to: string, counts: AdoptionCount[], channels: ChannelCounts[], latestOf: Map<string, Release[]>): AdoptionDay[] {
  const orderKeys = new Map<string, string>();
  const orderKey = (version: string): string => {
    let key = orderKeys.get(version);
    if (key === undefined) {
      key = versionOrderKey(version);
      orderKeys.set(version, key);
    }
    return key;
  };
  const totals = byDate(counts);
  const perChannel = channels.map((c) => ({ channel: c.channel, always: c.always, dates: byDate(c.counts), releases: latestOf.get(c.channel) ?? [] }));
  const days: AdoptionDay[] = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`), end = Date.parse(`${to}T00:00:00Z`); ms <= end; ms += DAY_MS) {
    const date = utcDate(new Date(ms));
    // Maps, then Object.fromEntries: a version named like an inherited property counts as any other.
    const byVersion = new Map<string, number>();
    let checks = 0;
    let activeInstalls = 0;
    for (const count of totals.get(date) ?? []) {
      if (count.version === ALL) {
        checks = count.checks;
        activeInstalls = count.installs;
      } else {
        byVersion.set(count.version, count.installs);
      }
    }
    let onLatest = 0;
    let outdated = 0;
    const latest = new Map<string, string>();
    for (const channel of perChannel) {
      // The newest offered release published by the end of the day (releases are newest first).
      const release = channel.releases.find((r) => r.publishedDay <= date);
      const dayCounts = channel.dates.get(date);
      if (!release || (!dayCounts && !channel.always)) continue;
      latest.set(channel.channel, release.version);
      for (const count of dayCounts ?? []) {
        if (count.version === ALL || count.version === UNKNOWN_VERSION) continue;
        const order = compareOrderKeys(orderKey(count.version), release.orderKey);
        if (order === 0) onLatest += count.installs;
        else if (order < 0) outdated += count.installs;
      }
    }
    days.push({ date, checks, activeInstalls, byVersion: Object.fromEntries(byVersion), onLatest, outdated, latest: Object.fromEntries(latest) });
  }
  return days;
}

/** Days from a release's publication to the first day the installs on it or a newer version reach each share. */
function spread(release: Release, days: AdoptionDay[], orderKeys: Map<string, string>): ReleaseSpread {
  const reached: (number | null)[] = SPREAD_SHARES.map(() => null);
  for (const day of days) {
    if (day.date < release.publishedDay || day.activeInstalls === 0) continue;
    let atOrAbove = 0;
    for (const [version, installs] of Object.entries(day.byVersion)) {
      if (version === UNKNOWN_VERSION) continue;
      let key = orderKeys.get(version);
      if (key === undefined) {
        key = versionOrderKey(version);
        orderKeys.set(version, key);
      }
      if (compareOrderKeys(key, release.orderKey) >= 0) atOrAbove += installs;
    }
    // The per-version estimates can add up past the day's total (an install that updated that day runs two): capped at 1.
    const share = Math.min(1, atOrAbove / day.activeInstalls);
    SPREAD_SHARES.forEach((target, i) => {
      if (reached[i] === null && share >= target) reached[i] = daysBetween(release.publishedDay, day.date);
    });
  }
  return { version: release.version, publishedAt: release.publishedAt, daysTo50: reached[0], daysTo90: reached[1] };
}
