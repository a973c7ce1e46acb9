import type { Store } from '../store/store';
import { linkedInstallOffers } from './download-links';
import { funnelFigures, type ReleaseHealth } from './funnel';

/**
 * A release's health now: its offers read from the store a page at a time (by the release's key,
 * an index range, never the other releases'), linked to its customers' downloads
 * (download-links.ts) and added up, with the failure reports its installs sent (download_failed,
 * install_failed).
 */
export async function releaseHealth(store: Store, applicationId: string, version: string, now: Date, windowMs: number): Promise<ReleaseHealth> {
  const offers = await linkedInstallOffers(store, applicationId, version, windowMs);
  return { ...funnelFigures(offers, now, windowMs), failureReports: await store.funnel.countFailureReports(applicationId, version) };
}
