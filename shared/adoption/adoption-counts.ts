import { ALL, type AdoptionCount, type CheckGroup } from '../store/models';

/** One adoption counter of a batch: what it adds in checks, and the install hashes its sketch takes. */
export interface CounterPart {
  /** The sketch's name within the counters (counterKey). */
  key: string;
  count: Omit<AdoptionCount, 'installs'>;
  hashes: Set<string>;
}

/** A counter's key: each part carries its length, so no two counters share one whatever their names contain. */
export const counterKey = (parts: readonly string[]): string => parts.map((part) => `${part.length}:${part}`).join('');

/**
 * A batch's groups as the counters they add to: checks per counter and the install hashes each
 * counts. A check counts in every selection of it: each of channel, platform, arch and running
 * version as it is or ALL (16 counters), so the answer for any filter, and for "every version", reads
 * one counter instead of merging sketches. The store gives a batch grouped by exact selection (a
 * batch holds up to thousands of checks and a few dozen selections), and only the groups are spread over the 16.
 */
export function counterParts(groups: readonly CheckGroup[]): CounterPart[] {
  const parts = new Map<string, CounterPart>();
  for (const group of groups) {
    const dimensions = [group.channel, group.platform, group.arch, group.runningVersion];
    for (let mask = 0; mask < 16; mask += 1) {
      // Bit i set: dimension i counts as ALL.
      const [channel, platform, arch, version] = dimensions.map((value, i) => ((mask >> i) & 1 ? ALL : value));
      const key = counterKey([group.applicationId, group.date, channel, platform, arch, version]);
      let part = parts.get(key);
      if (!part) {
        part = { key, count: { applicationId: group.applicationId, date: group.date, channel, platform, arch, version, checks: 0 }, hashes: new Set() };
        parts.set(key, part);
      }
      part.count.checks += group.checks;
      for (const hash of group.installHashes) part.hashes.add(hash);
    }
  }
  return [...parts.values()];
}
