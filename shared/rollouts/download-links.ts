import { RELEASE_HEALTH_PAGE } from '../policy';
import type { InstallOfferRecord, ReleaseDownload } from '../store/models';
import type { Store } from '../store/store';

export type LinkedOffer = InstallOfferRecord & { downloadedAt: Date | null };

/** Every offer of a release, read a page at a time by install key. */
export async function readInstallOffers(store: Store, applicationId: string, version: string): Promise<InstallOfferRecord[]> {
  const offers: InstallOfferRecord[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await store.funnel.listInstallOffers(applicationId, version, after, RELEASE_HEALTH_PAGE);
    offers.push(...page);
    if (page.length < RELEASE_HEALTH_PAGE) return offers;
    after = page[page.length - 1].installKey;
  }
}

/**
 * Links a release's downloads to the installs it was offered to. A download and an install are
 * linked only through the credential both used, the customer: an install's offer is downloaded
 * when a download of one of the release's files by the same customer happened within the window
 * after the offer. Each download is given to at most one offer, so per customer the downloaded
 * installs are at most min(offers, downloads). Per customer the downloads, in time order, go to the
 * earliest offer still open (all windows are equally long, so that matches as many as can be).
 */
export function linkDownloads(offers: readonly InstallOfferRecord[], downloads: Iterable<ReleaseDownload>, windowMs: number): LinkedOffer[] {
  const linked: LinkedOffer[] = offers.map((offer) => ({ ...offer, downloadedAt: null }));
  const byCustomer = new Map<string, LinkedOffer[]>();
  for (const offer of linked) {
    const list = byCustomer.get(offer.customerId);
    if (list) list.push(offer);
    else byCustomer.set(offer.customerId, [offer]);
  }
  for (const list of byCustomer.values()) list.sort((a, b) => a.offeredAt.getTime() - b.offeredAt.getTime());
  const next = new Map<string, number>();
  for (const download of downloads) {
    const list = byCustomer.get(download.customerId);
    if (!list) continue;
    const at = download.at.getTime();
    let index = next.get(download.customerId) ?? 0;
    // Offers whose window closed before this download can take no later one either.
    while (index < list.length && list[index].offeredAt.getTime() + windowMs < at) index += 1;
    if (index < list.length && list[index].offeredAt.getTime() <= at) {
      list[index].downloadedAt = download.at;
      index += 1;
    }
    next.set(download.customerId, index);
  }
  return linked;
}

/** A release's downloads by customer and time that can fall in an offer's window, read a page at a time. */
async function* releaseDownloads(store: Store, applicationId: string, version: string, range: { from: Date; to: Date }): AsyncGenerator<ReleaseDownload> {
  let after: ReleaseDownload | null = null;
  for (;;) {
    const page = await store.activity.listReleaseDownloads(applicationId, version, range, after, RELEASE_HEALTH_PAGE);
    yield* page;
    if (page.length < RELEASE_HEALTH_PAGE) return;
    after = page[page.length - 1];
  }
}

/** A release's offers with the downloads linked to them (linkDownloads). */
export async function linkedInstallOffers(store: Store, applicationId: string, version: string, windowMs: number): Promise<LinkedOffer[]> {
  const offers = await readInstallOffers(store, applicationId, version);
  if (offers.length === 0) return [];
  let from = Infinity;
  let to = -Infinity;
  for (const offer of offers) {
    from = Math.min(from, offer.offeredAt.getTime());
    to = Math.max(to, offer.offeredAt.getTime() + windowMs);
  }
  const downloads: ReleaseDownload[] = [];
  for await (const download of releaseDownloads(store, applicationId, version, { from: new Date(from), to: new Date(to) })) downloads.push(download);
  return linkDownloads(offers, downloads, windowMs);
}
