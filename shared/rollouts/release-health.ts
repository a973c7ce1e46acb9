import { RELEASE_HEALTH_PAGE } from '../policy';
import type { Store } from '../store/store';
import { addOffer, emptyFigures, settle, type ReleaseHealth } from './funnel';

/**
 * A release's health now: its offers read from the store a page at a time (by the release's key,
 * an index range, never the other releases') and added up, with the failure reports its installs
 * sent (download_failed, install_failed).
 */
export async function releaseHealth(store: Store, applicationId: string, version: string, now: Date, windowMs: number): Promise<ReleaseHealth> {
  const figures = emptyFigures();
  let after: string | null = null;
  for (;;) {
    const offers = await store.funnel.listInstallOffers(applicationId, version, after, RELEASE_HEALTH_PAGE);
    for (const offer of offers) addOffer(figures, offer, now, windowMs);
    if (offers.length < RELEASE_HEALTH_PAGE) break;
    after = offers[offers.length - 1].installKey;
  }
  return { ...settle(figures), failureReports: await store.funnel.countFailureReports(applicationId, version) };
}
