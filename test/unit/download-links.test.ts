import { expect } from 'chai';
import { linkDownloads } from '../../shared/rollouts/download-links';
import { funnelFigures } from '../../shared/rollouts/funnel';
import type { InstallOfferRecord, ReleaseDownload } from '../../shared/store/models';
import { at } from '../support/records';

const WINDOW = 60 * 60_000;

function offer(installKey: string, customerId: string, minute: number): InstallOfferRecord {
  return { applicationId: 'app_1', version: '2.0.0', installKey, customerId, platform: 'linux', arch: 'x64', channel: 'latest', offeredAt: at(minute), arrivedAt: null };
}
const download = (eventId: string, customerId: string, minute: number): ReleaseDownload => ({ customerId, eventId, at: at(minute) });
const downloadedAt = (offers: ReturnType<typeof linkDownloads>) => Object.fromEntries(offers.map((o) => [o.installKey, o.downloadedAt && o.downloadedAt.getTime()]));

describe('Update funnel: downloads linked to offers', () => {
  it('gives each download of a customer to its earliest offer still open, never to another customer', () => {
    const offers = [offer('id:a', 'cust_1', 0), offer('id:b', 'cust_1', 30), offer('id:c', 'cust_2', 0)];
    const linked = linkDownloads(offers, [download('ev_1', 'cust_1', 40), download('ev_2', 'cust_1', 45), download('ev_3', 'cust_3', 1)], WINDOW);
    expect(downloadedAt(linked)).to.deep.equal({ 'id:a': at(40).getTime(), 'id:b': at(45).getTime(), 'id:c': null });
  });

  it('counts per customer at most min(offers, downloads): repeated downloads do not make more installs downloaded', () => {
    const offers = [offer('id:a', 'cust_1', 0), offer('id:b', 'cust_1', 0), offer('id:c', 'cust_1', 0)];
    const many = Array.from({ length: 10 }, (_, i) => download(`ev_${i}`, 'cust_1', 5 + i));
    expect(funnelFigures(linkDownloads(offers, many, WINDOW), at(0), WINDOW).downloaded).to.equal(3);
    expect(funnelFigures(linkDownloads(offers, many.slice(0, 2), WINDOW), at(0), WINDOW).downloaded).to.equal(2);
  });

  it('links only downloads within the window after an offer', () => {
    const offers = [offer('id:a', 'cust_1', 100), offer('id:b', 'cust_1', 300)];
    // Before the first offer; past the first's window (it takes the second); past the second's window.
    const linked = linkDownloads(offers, [download('ev_1', 'cust_1', 99), download('ev_2', 'cust_1', 161), download('ev_3', 'cust_1', 361)], WINDOW);
    expect(downloadedAt(linked)).to.deep.equal({ 'id:a': null, 'id:b': null });
    const edge = linkDownloads(offers, [download('ev_1', 'cust_1', 160), download('ev_2', 'cust_1', 300)], WINDOW);
    expect(downloadedAt(edge)).to.deep.equal({ 'id:a': at(160).getTime(), 'id:b': at(300).getTime() });
  });
});
