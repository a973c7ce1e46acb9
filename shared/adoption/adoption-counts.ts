import { ALL, type AdoptionCount, type CheckEvent, type CustomerVersionSeen } from '../store/models';
import { utcDate } from '../store/dates';

/** One adoption counter of a batch: what it adds in checks, and the install hashes its sketch takes. */
export interface CounterPart {
  /** The sketch's name within the counters (counterKey). */
  key: string;
  count: Omit<AdoptionCount, 'installs'>;
  hashes: Set<string>;
}

/** A counter's key: each part carries its length, so no two counters share one whatever their names contain. */
export const counterKey = (parts: readonly string[]): string => parts.map((part) => `${part.length}:${part}`).join('');

/** The checks of one exact (application, day, channel, platform, arch, running version). */
interface Group {
  applicationId: string;
  date: string;
  dimensions: [channel: string, platform: string, arch: string, version: string];
  checks: number;
  hashes: Set<string>;
}

const DAY_MS = 86_400_000;

/**
 * A batch of checks as the counters it adds to: checks per counter and the install hashes each
 * counts. A check counts in every selection of it: each of channel, platform, arch and running
 * version as it is or ALL (16 counters), so the answer for any filter, and for "every version", reads
 * one counter instead of merging sketches. Checks are grouped by their exact selection first (a batch
 * holds a few hundred checks and a few dozen selections), and only the groups are spread over the 16.
 */
export function counterParts(events: readonly CheckEvent[]): CounterPart[] {
  const groups = new Map<string, Group>();
  let dayStart = -1;
  let date = '';
  for (const event of events) {
    const ms = event.timestamp.getTime();
    if (ms < dayStart || ms >= dayStart + DAY_MS) {
      dayStart = ms - (ms % DAY_MS);
      date = utcDate(event.timestamp);
    }
    // NUL cannot occur in ids, versions, channels, platforms or archs (the validation refuses it).
    const key = `${event.applicationId}\0${date}\0${event.channel}\0${event.platform}\0${event.arch}\0${event.runningVersion}`;
    let group = groups.get(key);
    if (!group) {
      group = { applicationId: event.applicationId, date, dimensions: [event.channel, event.platform, event.arch, event.runningVersion], checks: 0, hashes: new Set() };
      groups.set(key, group);
    }
    group.checks += 1;
    group.hashes.add(event.installHash);
  }
  const parts = new Map<string, CounterPart>();
  for (const group of groups.values()) {
    for (let mask = 0; mask < 16; mask += 1) {
      // Bit i set: dimension i counts as ALL.
      const [channel, platform, arch, version] = group.dimensions.map((value, i) => ((mask >> i) & 1 ? ALL : value));
      const key = counterKey([group.applicationId, group.date, channel, platform, arch, version]);
      let part = parts.get(key);
      if (!part) {
        part = { key, count: { applicationId: group.applicationId, date: group.date, channel, platform, arch, version, checks: 0 }, hashes: new Set() };
        parts.set(key, part);
      }
      part.count.checks += group.checks;
      for (const hash of group.hashes) part.hashes.add(hash);
    }
  }
  return [...parts.values()];
}

/** The latest report of each (application, customer, running version) in a batch. */
export function customerReports(events: readonly CheckEvent[]): CustomerVersionSeen[] {
  const latest = new Map<string, CustomerVersionSeen>();
  for (const event of events) {
    const key = counterKey([event.applicationId, event.customerId, event.runningVersion]);
    const seen = latest.get(key);
    if (!seen || seen.lastReportedAt < event.timestamp) {
      latest.set(key, { applicationId: event.applicationId, customerId: event.customerId, version: event.runningVersion, lastReportedAt: event.timestamp });
    }
  }
  return [...latest.values()];
}
