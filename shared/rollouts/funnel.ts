import { utcDate } from '../store/dates';

/**
 * The update funnel of one release: what became of the installs it was offered to. One install's
 * offer is what the store keeps per (release, install): when a check was first answered with the
 * release, when the same credential first fetched one of its files after that, and when the same
 * install first checked in running it. The figures, at a moment `now`, with the arrival window W:
 * - offered: installs offered the release;
 * - downloaded: of them, those whose credential fetched a file of it within W of the offer;
 * - arrived: those that checked in running it;
 * - matured: those offered at least W ago (the ones that can be judged);
 * - stuck: matured installs that did not arrive within W of their offer;
 * - successRate: (matured - stuck) / matured, null while none is matured.
 */
export interface InstallOffer {
  offeredAt: Date;
  /** The first download linked to the offer (download-links.ts); null or undefined: none. */
  downloadedAt?: Date | null;
  arrivedAt: Date | null;
}

export interface FunnelFigures {
  offered: number;
  downloaded: number;
  arrived: number;
  matured: number;
  stuck: number;
  successRate: number | null;
}

export interface ReleaseHealth extends FunnelFigures {
  /** Failure reports the installs sent about this release (download_failed and install_failed). */
  failureReports: number;
}

/** The figures of the installs offered on one UTC day. */
export interface FunnelDay extends FunnelFigures {
  date: string;
}

/** An empty funnel, added to offer by offer. */
export function emptyFigures(): FunnelFigures {
  return { offered: 0, downloaded: 0, arrived: 0, matured: 0, stuck: 0, successRate: null };
}

/** Adds one install's offer to the figures (successRate is set by `settle`). */
export function addOffer(figures: FunnelFigures, offer: InstallOffer, now: Date, windowMs: number): void {
  const offeredMs = offer.offeredAt.getTime();
  const windowEnd = offeredMs + windowMs;
  figures.offered += 1;
  if (offer.downloadedAt && offer.downloadedAt.getTime() >= offeredMs && offer.downloadedAt.getTime() <= windowEnd) figures.downloaded += 1;
  if (offer.arrivedAt) figures.arrived += 1;
  if (windowEnd <= now.getTime()) {
    figures.matured += 1;
    if (!offer.arrivedAt || offer.arrivedAt.getTime() > windowEnd) figures.stuck += 1;
  }
}

/** Sets the success rate from the matured and stuck counts. */
export function settle<T extends FunnelFigures>(figures: T): T {
  figures.successRate = figures.matured === 0 ? null : (figures.matured - figures.stuck) / figures.matured;
  return figures;
}

export function funnelFigures(offers: Iterable<InstallOffer>, now: Date, windowMs: number): FunnelFigures {
  const figures = emptyFigures();
  for (const offer of offers) addOffer(figures, offer, now, windowMs);
  return settle(figures);
}

/** The funnel per UTC day of offer, oldest first: the chart over time. */
export function funnelDays(offers: Iterable<InstallOffer>, now: Date, windowMs: number): FunnelDay[] {
  const days = new Map<string, FunnelDay>();
  for (const offer of offers) {
    const date = utcDate(offer.offeredAt);
    let day = days.get(date);
    if (!day) days.set(date, (day = { date, ...emptyFigures() }));
    addOffer(day, offer, now, windowMs);
  }
  return [...days.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)).map(settle);
}
