import { expect } from 'chai';
import type { Store } from '../../../shared/store/store';
import { at, shareLink } from '../../support/records';
import { expectDuplicate } from '../../support/store-expectations';
import { describeStoreContract } from './harness';

/** The ShareLinkStore port: share links and their counted use. */
describeStoreContract('share links', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  it('stores a link and refuses a duplicate token hash', async () => {
    const link = shareLink('token_1');
    expect(await store.shareLinks.createShareLink(link)).to.deep.equal(link);
    expect(await store.shareLinks.getShareLink('token_1')).to.deep.equal(link);
    expect(await store.shareLinks.getShareLink('token_unknown')).to.equal(null);
    await expectDuplicate(store.shareLinks.createShareLink(shareLink('token_1', { customerId: 'cust_2' })), 'tokenHash');
  });

  it("lists a customer's links newest first, at most the limit, revoked ones included", async () => {
    await store.shareLinks.createShareLink(shareLink('token_old', { createdAt: at(1) }));
    await store.shareLinks.createShareLink(shareLink('token_new', { createdAt: at(3) }));
    await store.shareLinks.createShareLink(shareLink('token_mid', { createdAt: at(2), maxDownloads: 5 }));
    await store.shareLinks.createShareLink(shareLink('token_other', { customerId: 'cust_2', createdAt: at(4) }));
    await store.shareLinks.revokeShareLink('token_mid', 'cust_1', at(5));
    const listed = await store.shareLinks.listShareLinks('cust_1', 10);
    expect(listed.map((link) => link.tokenHash)).to.deep.equal(['token_new', 'token_mid', 'token_old']);
    expect(listed[1]).to.deep.equal(shareLink('token_mid', { createdAt: at(2), maxDownloads: 5, revokedAt: at(5) }));
    expect((await store.shareLinks.listShareLinks('cust_1', 2)).map((link) => link.tokenHash)).to.deep.equal(['token_new', 'token_mid']);
    expect(await store.shareLinks.listShareLinks('cust_unknown', 10)).to.deep.equal([]);
  });

  it('revokes a link only for the customer who created it, and only once', async () => {
    const link = shareLink('token_1');
    await store.shareLinks.createShareLink(link);
    expect(await store.shareLinks.revokeShareLink('token_1', 'cust_2', at(1))).to.equal(null);
    expect(await store.shareLinks.getShareLink('token_1')).to.deep.equal(link);
    const revoked = await store.shareLinks.revokeShareLink('token_1', 'cust_1', at(3));
    expect(revoked).to.deep.equal({ ...link, revokedAt: at(3) });
    expect(await store.shareLinks.revokeShareLink('token_1', 'cust_1', at(4))).to.equal(null);
    expect(await store.shareLinks.revokeShareLink('token_unknown', 'cust_1', at(4))).to.equal(null);
    expect(await store.shareLinks.getShareLink('token_1')).to.deep.equal(revoked);
  });

  it('marks a link expired only once its expiry has come, and only the first time', async () => {
    await store.shareLinks.createShareLink(shareLink('token_1', { expiresAt: at(10) }));
    await store.shareLinks.markShareLinkExpired('token_1', at(5));
    expect((await store.shareLinks.getShareLink('token_1'))?.expiredAt).to.equal(null);
    await store.shareLinks.markShareLinkExpired('token_1', at(10));
    expect((await store.shareLinks.getShareLink('token_1'))?.expiredAt).to.deep.equal(at(10));
    await store.shareLinks.markShareLinkExpired('token_1', at(12));
    expect(await store.shareLinks.getShareLink('token_1')).to.deep.equal(shareLink('token_1', { expiresAt: at(10), expiredAt: at(10) }));
  });

  it('counts uses of a capped link up to its cap, every concurrent use counted once, and gives a use back', async () => {
    await store.shareLinks.createShareLink(shareLink('token_capped', { maxDownloads: 3 }));
    const uses = await Promise.all(Array.from({ length: 8 }, () => store.shareLinks.countShareLinkUse('token_capped')));
    const counted = uses.filter((link) => link !== null).map((link) => link?.downloadCount).sort();
    expect(counted).to.deep.equal([1, 2, 3]);
    expect(await store.shareLinks.getShareLink('token_capped')).to.deep.equal(shareLink('token_capped', { maxDownloads: 3, downloadCount: 3 }));
    expect(await store.shareLinks.countShareLinkUse('token_capped')).to.equal(null);

    await store.shareLinks.uncountShareLinkUse('token_capped');
    expect((await store.shareLinks.countShareLinkUse('token_capped'))?.downloadCount).to.equal(3);
    expect(await store.shareLinks.countShareLinkUse('token_capped')).to.equal(null);
  });

  it('counts nothing for a link without a cap or an unknown one, and never gives back below zero', async () => {
    await store.shareLinks.createShareLink(shareLink('token_open'));
    expect(await store.shareLinks.countShareLinkUse('token_open')).to.equal(null);
    expect(await store.shareLinks.countShareLinkUse('token_unknown')).to.equal(null);
    await store.shareLinks.uncountShareLinkUse('token_open');
    await store.shareLinks.uncountShareLinkUse('token_unknown');
    expect(await store.shareLinks.getShareLink('token_open')).to.deep.equal(shareLink('token_open'));
    await store.shareLinks.createShareLink(shareLink('token_one', { maxDownloads: 1 }));
    await store.shareLinks.uncountShareLinkUse('token_one');
    expect((await store.shareLinks.getShareLink('token_one'))?.downloadCount).to.equal(0);
    expect((await store.shareLinks.countShareLinkUse('token_one'))?.downloadCount).to.equal(1);
  });

  it('purges links that expired before the cutoff, up to the limit', async () => {
    for (const [hash, minute] of [['token_1', 1], ['token_2', 2], ['token_3', 3], ['token_4', 10]] as const) {
      await store.shareLinks.createShareLink(shareLink(hash, { expiresAt: at(minute) }));
    }
    expect(await store.shareLinks.purgeShareLinks(at(3), 10)).to.equal(2);
    expect(await store.shareLinks.getShareLink('token_1')).to.equal(null);
    expect(await store.shareLinks.getShareLink('token_2')).to.equal(null);
    expect(await store.shareLinks.getShareLink('token_3')).to.deep.equal(shareLink('token_3', { expiresAt: at(3) }));
    expect(await store.shareLinks.purgeShareLinks(at(11), 1)).to.equal(1);
    expect(await store.shareLinks.purgeShareLinks(at(11), 10)).to.equal(1);
    expect(await store.shareLinks.purgeShareLinks(at(11), 10)).to.equal(0);
    expect(await store.shareLinks.getShareLink('token_4')).to.equal(null);
  });
});
