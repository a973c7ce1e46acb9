import { type CheckEvent, type InstallArrival, type InstallOfferRecord, UNKNOWN_VERSION } from '../store/models';
import type { Store } from '../store/store';

/**
 * An install's key in the funnel: the identity the client sent (electron-updater's
 * `x-user-staging-id`) when it sent one, which links its checks across days; else the check's install
 * hash, which changes every UTC day (install-hash.ts), so such an offer and its arrival link only
 * within one UTC day.
 */
export function installKeyOf(event: Pick<CheckEvent, 'installId' | 'installHash'>): string {
  return event.installId ? `id:${event.installId}` : `h:${event.installHash}`;
}

/**
 * What a batch of checks tells the funnel. Only checks whose client said what it runs count: a check
 * answered with another release is an offer of it, a check running a release is an arrival at it (if
 * the install had been offered it). A check without a running version (electron-updater without
 * `X-App-Version`) cannot tell an offer from an install already up to date, so it counts in neither.
 * The earliest of an install's offers and arrivals in the batch is kept.
 */
export function funnelFacts(events: readonly CheckEvent[]): { offers: Omit<InstallOfferRecord, 'arrivedAt'>[]; arrivals: InstallArrival[] } {
  const offers = new Map<string, Omit<InstallOfferRecord, 'arrivedAt'>>();
  const arrivals = new Map<string, InstallArrival>();
  for (const event of events) {
    if (event.runningVersion === UNKNOWN_VERSION) continue;
    const installKey = installKeyOf(event);
    // NUL cannot occur in ids or versions (the validation refuses it).
    const arrivalKey = `${event.applicationId}\0${event.runningVersion}\0${installKey}`;
    const arrival = arrivals.get(arrivalKey);
    if (!arrival || event.timestamp < arrival.at) {
      arrivals.set(arrivalKey, { applicationId: event.applicationId, version: event.runningVersion, installKey, at: event.timestamp });
    }
    if (event.offeredVersion === null || event.offeredVersion === event.runningVersion) continue;
    const offerKey = `${event.applicationId}\0${event.offeredVersion}\0${installKey}`;
    const offer = offers.get(offerKey);
    if (!offer || event.timestamp < offer.offeredAt) {
      offers.set(offerKey, {
        applicationId: event.applicationId, version: event.offeredVersion, installKey, customerId: event.customerId,
        platform: event.platform, arch: event.arch, channel: event.channel, offeredAt: event.timestamp,
      });
    }
  }
  return { offers: [...offers.values()], arrivals: [...arrivals.values()] };
}

/**
 * Folds one batch of checks into the funnel: offers first, then arrivals (an install offered and
 * arrived within one batch is both), then the position. A worker stopped anywhere reads the same
 * batch again, and folding it again changes nothing. Returns how many checks the batch held.
 */
export async function foldFunnelChecks(store: Store, limit: number): Promise<number> {
  const batch = await store.funnel.readFunnelChecks(limit);
  if (!batch) return 0;
  const { offers, arrivals } = funnelFacts(batch.events);
  await store.funnel.recordOffers(offers);
  await store.funnel.recordArrivals(arrivals);
  await store.funnel.finishFunnelChecks(batch.position);
  return batch.events.length;
}
