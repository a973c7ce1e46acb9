import { ALL, type AdoptionCount, type CheckEvent, type CustomerVersionSeen } from '../store/models';
import { utcDate } from '../store/dates';

/** One adoption counter of a batch: what it adds in checks, and the install hashes its sketch takes. */
export interface CounterPart {
  /** The sketch's name within the counters (counterKey). */
  key: string;
  count: Omit<AdoptionCount, 'installs'>;
  hashes: Set<string>;
}

/**
 * Every selection a check counts in: each of channel, platform, arch and running version as it is or
 * ALL, so the answer for any filter (and "every version") reads one counter instead of merging sketches.
 */
function selections(event: CheckEvent): [string, string, string, string][] {
  const out: [string, string, string, string][] = [];
  for (const channel of [event.channel, ALL]) {
    for (const platform of [event.platform, ALL]) {
      for (const arch of [event.arch, ALL]) {
        for (const version of [event.runningVersion, ALL]) out.push([channel, platform, arch, version]);
      }
    }
  }
  return out;
}

/** A counter's key: each part carries its length, so no two counters share one whatever their names contain. */
export const counterKey = (parts: readonly string[]): string => parts.map((part) => `${part.length}:${part}`).join('');

/** A batch of checks as the counters it adds to: checks per counter and the install hashes each counts. */
export function counterParts(events: readonly CheckEvent[]): CounterPart[] {
  const parts = new Map<string, CounterPart>();
  for (const event of events) {
    const date = utcDate(event.timestamp);
    for (const [channel, platform, arch, version] of selections(event)) {
      const key = counterKey([event.applicationId, date, channel, platform, arch, version]);
      let part = parts.get(key);
      if (!part) {
        part = { key, count: { applicationId: event.applicationId, date, channel, platform, arch, version, checks: 0 }, hashes: new Set() };
        parts.set(key, part);
      }
      part.count.checks += 1;
      part.hashes.add(event.installHash);
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
