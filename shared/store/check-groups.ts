import type { CheckEvent, CheckGroup, CustomerVersionSeen } from './models';
import { utcDate } from './dates';
import { DAY_MS } from '../durations';


/** One check, or several of one install, as a store's claim reads them: the fields a batch's groups and reports are made of. */
export interface CheckTally {
  applicationId: string;
  /** Days since the epoch (UTC). */
  day: number;
  channel: string;
  platform: string;
  arch: string;
  runningVersion: string;
  installHash: string;
  customerId: string;
  checks: number;
  /** The latest of them (ms since the epoch). */
  lastAtMs: number;
}

/** The groups of a batch from its tallies, in the order CheckBatch gives them. */
export function checkGroups(tallies: Iterable<CheckTally>): CheckGroup[] {
  const groups = new Map<string, CheckGroup & { hashes: Set<string> }>();
  const dates = new Map<number, string>();
  for (const tally of tallies) {
    // NUL cannot occur in ids, versions, channels, platforms or archs (the validation refuses it).
    const key = `${tally.applicationId}\0${tally.day}\0${tally.channel}\0${tally.platform}\0${tally.arch}\0${tally.runningVersion}`;
    let group = groups.get(key);
    if (!group) {
      let date = dates.get(tally.day);
      if (date === undefined) dates.set(tally.day, (date = utcDate(new Date(tally.day * DAY_MS))));
      group = {
        applicationId: tally.applicationId, date, channel: tally.channel, platform: tally.platform, arch: tally.arch,
        runningVersion: tally.runningVersion, checks: 0, installHashes: [], hashes: new Set(),
      };
      groups.set(key, group);
    }
    group.checks += tally.checks;
    group.hashes.add(tally.installHash);
  }
  return [...groups.values()]
    .map(({ hashes, ...group }) => ({ ...group, installHashes: [...hashes].sort(compare) }))
    .sort((a, b) => compare(a.applicationId, b.applicationId) || compare(a.date, b.date) || compare(a.channel, b.channel)
      || compare(a.platform, b.platform) || compare(a.arch, b.arch) || compare(a.runningVersion, b.runningVersion));
}

/** The latest report of each (application, customer, running version), in the order CheckBatch gives them. */
export function latestReports(tallies: Iterable<CheckTally>): CustomerVersionSeen[] {
  const latest = new Map<string, { applicationId: string; customerId: string; version: string; lastAtMs: number }>();
  for (const tally of tallies) {
    const key = `${tally.applicationId}\0${tally.customerId}\0${tally.runningVersion}`;
    const seen = latest.get(key);
    if (!seen) latest.set(key, { applicationId: tally.applicationId, customerId: tally.customerId, version: tally.runningVersion, lastAtMs: tally.lastAtMs });
    else if (seen.lastAtMs < tally.lastAtMs) seen.lastAtMs = tally.lastAtMs;
  }
  return [...latest.values()]
    .sort((a, b) => compare(a.applicationId, b.applicationId) || compare(a.customerId, b.customerId) || compare(a.version, b.version))
    .map(({ lastAtMs, ...report }) => ({ ...report, lastReportedAt: new Date(lastAtMs) }));
}

/** A batch of check events as its groups and reports (for a store that reads a batch's checks one by one). */
export function foldCheckEvents(events: readonly CheckEvent[]): { groups: CheckGroup[]; reports: CustomerVersionSeen[] } {
  const tallies = events.map((event): CheckTally => ({
    applicationId: event.applicationId, day: Math.floor(event.timestamp.getTime() / DAY_MS), channel: event.channel, platform: event.platform,
    arch: event.arch, runningVersion: event.runningVersion, installHash: event.installHash, customerId: event.customerId, checks: 1,
    lastAtMs: event.timestamp.getTime(),
  }));
  return { groups: checkGroups(tallies), reports: latestReports(tallies) };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
