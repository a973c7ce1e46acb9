import { z } from 'zod';
import type { CustomerAdoption } from '../store/models';
import { iso, pagination, paginationResponse, timestamp } from './common';

/** One UTC day of an application's update checks. */
export interface AdoptionDay {
  date: string;
  checks: number;
  activeInstalls: number;
  byVersion: Record<string, number>;
  onLatest: number;
  outdated: number;
  /** Per channel, its latest release by the end of the day. */
  latest: Record<string, string>;
}

/** How fast one release spread: days from its publication to half and to nine tenths of the day's active installs. */
export interface ReleaseSpread {
  version: string;
  publishedAt: Date;
  daysTo50: number | null;
  daysTo90: number | null;
}

export interface Adoption {
  applicationId: string;
  days: AdoptionDay[];
  releases: ReleaseSpread[];
}

export const adoptionResponse = z.object({
  applicationId: z.string(),
  /** Every UTC day of the range, oldest first (days without checks hold zeros). */
  days: z.array(z.object({
    date: z.string(),
    /** Update checks answered that day. */
    checks: z.number().int(),
    /** Distinct installs that checked that day (a HyperLogLog estimate, about 1% off). */
    activeInstalls: z.number().int(),
    /** Distinct installs per running version they reported (`unknown`: the client does not say). */
    byVersion: z.record(z.number().int()),
    /** Installs running their channel's latest release that day: the newest one the channel offers (published and not yanked, in the channel or a more stable one) published by the end of the day. */
    onLatest: z.number().int(),
    /** Installs running a known version older than their channel's latest release. */
    outdated: z.number().int(),
    /** Per channel (the one asked for, or each with a release), its latest release that day, as `onLatest` compares. */
    latest: z.record(z.string()),
  })),
  /** Published releases, newest first. */
  releases: z.array(z.object({
    version: z.string(),
    publishedAt: timestamp,
    /** Days from publication to the first day half of the active installs ran it or a newer release; null until then (or outside the range). */
    daysTo50: z.number().int().nullable(),
    daysTo90: z.number().int().nullable(),
  })),
});

export function presentAdoption(adoption: Adoption): z.input<typeof adoptionResponse> {
  return {
    applicationId: adoption.applicationId,
    days: adoption.days.map((day) => ({
      date: day.date, checks: day.checks, activeInstalls: day.activeInstalls, byVersion: day.byVersion, onLatest: day.onLatest, outdated: day.outdated, latest: day.latest,
    })),
    releases: adoption.releases.map((release) => ({
      version: release.version, publishedAt: iso(release.publishedAt), daysTo50: release.daysTo50, daysTo90: release.daysTo90,
    })),
  };
}

export const customerAdoptionResponse = z.object({
  customerId: z.string(),
  /** The versions its installs reported running, latest report first. */
  versions: z.array(z.object({ version: z.string(), lastReportedAt: timestamp })),
});

export const customerAdoptionListResponse = z.object({ customers: z.array(customerAdoptionResponse), pagination: paginationResponse });

export function presentCustomerAdoptionList(items: CustomerAdoption[], page: number, pageSize: number, total: number): z.input<typeof customerAdoptionListResponse> {
  return {
    customers: items.map((item) => ({
      customerId: item.customerId,
      versions: item.versions.map((v) => ({ version: v.version, lastReportedAt: iso(v.lastReportedAt) })),
    })),
    pagination: pagination(page, pageSize, total),
  };
}
