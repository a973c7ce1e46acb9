import { satisfies, validRange } from 'semver';
import type { MaintenanceWindow, Version } from '../store/models';

/**
 * Maintenance windows: a customer (and any of its access tokens) may be entitled only to the releases
 * published before a date (`updatesUntil`) and inside a semver range (`versionRange`, e.g. `<3`). Every
 * feed, latest link and the portal then offer the newest release inside the window and never a newer
 * one; an exact version outside it is refused. A token never reaches beyond its customer: the
 * entitlement of a request made with one is both windows at once (the earlier date, both ranges).
 *
 * Ranges are matched with prereleases included (a `<3` customer on the beta channel gets 2.5.0-beta.1)
 * and semver's loose parsing; a version that is no semver at all is outside every range.
 */

/** What a caller is entitled to, in a JSON-safe form (it is cached in Redis with the customer's standing). */
export interface Entitlement {
  /** Epoch milliseconds: releases published at or after it are not offered; null: no date limit. */
  updatesUntil: number | null;
  /** Every range an offered version must satisfy (the customer's, the token's). */
  ranges: readonly string[];
}

const RANGE_OPTIONS = { includePrerelease: true, loose: true } as const;

/** Whether a text is a semver range `semver` can match versions against. */
export function isVersionRange(text: string): boolean {
  return text.trim() !== '' && validRange(text, RANGE_OPTIONS) !== null;
}

/** A window in the cached, JSON-safe form. */
export interface StoredWindow {
  updatesUntil: number | null;
  versionRange: string | null;
}

export function storedWindow(window: MaintenanceWindow): StoredWindow {
  return { updatesUntil: window.updatesUntil ? window.updatesUntil.getTime() : null, versionRange: window.versionRange };
}

/** The entitlement of a customer (and of the token it came with); undefined when nothing limits it. */
export function entitlementOf(customer: Partial<StoredWindow>, token?: MaintenanceWindow): Entitlement | undefined {
  // The common case, no window at all, allocates nothing.
  if (customer.updatesUntil == null && customer.versionRange == null && !token?.updatesUntil && token?.versionRange == null) return undefined;
  const dates = [customer.updatesUntil ?? null, token?.updatesUntil ? token.updatesUntil.getTime() : null].filter((value): value is number => value !== null);
  const ranges = [customer.versionRange ?? null, token?.versionRange ?? null].filter((value): value is string => value !== null);
  if (dates.length === 0 && ranges.length === 0) return undefined;
  return { updatesUntil: dates.length === 0 ? null : Math.min(...dates), ranges };
}

/** Whether a release falls inside the entitlement: published before its date, its version inside every range. */
export function entitles(entitlement: Entitlement, version: Pick<Version, 'version' | 'publishedAt'>): boolean {
  if (entitlement.updatesUntil !== null && (!version.publishedAt || version.publishedAt.getTime() >= entitlement.updatesUntil)) return false;
  return entitlement.ranges.every((range) => satisfies(version.version, range, RANGE_OPTIONS));
}

/** One string per distinct entitlement, for memos of what it selects. */
export function entitlementKey(entitlement: Entitlement): string {
  return `${entitlement.updatesUntil ?? ''}\0${entitlement.ranges.join('\0')}`;
}

/** Why an exact version is refused to a caller whose window it falls outside. */
export function outsideWindowMessage(entitlement: Entitlement, version: string): string {
  const limits = [
    entitlement.updatesUntil !== null ? `releases published before ${new Date(entitlement.updatesUntil).toISOString()}` : null,
    entitlement.ranges.length > 0 ? `versions in ${entitlement.ranges.join(' and ')}` : null,
  ].filter(Boolean).join(', ');
  return `version ${version} is outside your maintenance window (${limits})`;
}
