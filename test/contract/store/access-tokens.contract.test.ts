import { expect } from 'chai';
import type { TokenUse } from '../../../shared/store/models';
import type { Store } from '../../../shared/store/store';
import { accessToken, at } from '../../support/records';
import { expectDuplicate } from '../../support/store-expectations';
import { describeStoreContract } from './harness';

/** The AccessTokenStore port: access tokens and their counted use. */
describeStoreContract('access tokens', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  const use = (overrides: Partial<TokenUse> = {}): TokenUse => ({
    tokenId: 'tok_1', periodStart: at(0), clientHash: 'client-a', downloads: 1, bytes: 10, maxDownloads: null, maxClients: null, maxBytes: null, ...overrides,
  });

  it('stores a token with its limits, finds it by hash, and refuses a duplicate hash or id', async () => {
    const token = accessToken('tok_1', {
      name: 'CI', maxDownloads: 10, maxClients: 3, maxBytes: 5_000_000_000, validFrom: at(1), validUntil: at(100),
      applications: ['app_1'], channels: ['stable', 'beta'], platforms: ['linux'], resetEvery: 'week',
    });
    expect(await store.accessTokens.createAccessToken(token)).to.deep.equal(token);
    expect(await store.accessTokens.findAccessTokenByHash('hash-tok_1')).to.deep.equal(token);
    expect(await store.accessTokens.findAccessTokenByHash('hash-unknown')).to.equal(null);
    expect(await store.accessTokens.getAccessToken('cust_1', 'tok_1')).to.deep.equal(token);
    expect(await store.accessTokens.getAccessToken('cust_2', 'tok_1')).to.equal(null);
    await expectDuplicate(store.accessTokens.createAccessToken(accessToken('tok_2', { tokenHash: 'hash-tok_1' })), 'tokenHash');
    await expectDuplicate(store.accessTokens.createAccessToken(accessToken('tok_1', { tokenHash: 'hash-other' })), 'tokenId');
  });

  it("lists a customer's unrevoked tokens, oldest first, and changes or revokes one only for its own customer", async () => {
    await store.accessTokens.createAccessToken(accessToken('tok_2', { createdAt: at(2) }));
    await store.accessTokens.createAccessToken(accessToken('tok_1', { createdAt: at(1) }));
    await store.accessTokens.createAccessToken(accessToken('tok_3', { customerId: 'cust_2' }));
    expect((await store.accessTokens.listAccessTokens('cust_1')).map((t) => t.tokenId)).to.deep.equal(['tok_1', 'tok_2']);

    expect(await store.accessTokens.updateAccessToken('cust_2', 'tok_1', { maxDownloads: 5 }, at(3))).to.equal(null);
    const changed = await store.accessTokens.updateAccessToken('cust_1', 'tok_1', { maxDownloads: 5, channels: ['beta'], validUntil: at(9) }, at(3));
    expect(changed).to.deep.equal(accessToken('tok_1', { createdAt: at(1), updatedAt: at(3), maxDownloads: 5, channels: ['beta'], validUntil: at(9) }));
    const cleared = await store.accessTokens.updateAccessToken('cust_1', 'tok_1', { maxDownloads: null, channels: null }, at(4));
    expect(cleared).to.deep.equal(accessToken('tok_1', { createdAt: at(1), updatedAt: at(4), validUntil: at(9) }));

    expect(await store.accessTokens.revokeAccessToken('cust_2', 'tok_1', at(5))).to.equal(null);
    const revoked = await store.accessTokens.revokeAccessToken('cust_1', 'tok_1', at(5));
    expect(revoked?.revokedAt).to.deep.equal(at(5));
    expect(await store.accessTokens.revokeAccessToken('cust_1', 'tok_1', at(6))).to.equal(null);
    expect(await store.accessTokens.updateAccessToken('cust_1', 'tok_1', { maxDownloads: 1 }, at(6))).to.equal(null);
    expect(await store.accessTokens.findAccessTokenByHash('hash-tok_1')).to.deep.equal(revoked);
    expect((await store.accessTokens.listAccessTokens('cust_1')).map((t) => t.tokenId)).to.deep.equal(['tok_2']);
  });

  it("keeps a token's maintenance window, changes either field alone and clears it with null", async () => {
    const token = accessToken('tok_1', { updatesUntil: at(40), versionRange: '1.x' });
    expect(await store.accessTokens.createAccessToken(token)).to.deep.equal(token);
    expect(await store.accessTokens.findAccessTokenByHash('hash-tok_1')).to.deep.equal(token);
    const ranged = await store.accessTokens.updateAccessToken('cust_1', 'tok_1', { versionRange: '<1.5' }, at(2));
    expect(ranged).to.deep.equal({ ...token, versionRange: '<1.5', updatedAt: at(2) });
    const cleared = await store.accessTokens.updateAccessToken('cust_1', 'tok_1', { updatesUntil: null, versionRange: null }, at(3));
    expect(cleared).to.deep.equal({ ...token, updatesUntil: null, versionRange: null, updatedAt: at(3) });
    expect(await store.accessTokens.listAccessTokens('cust_1')).to.deep.equal([cleared]);
  });

  it('records when a token was last used, never moving it back', async () => {
    await store.accessTokens.createAccessToken(accessToken('tok_1'));
    await store.accessTokens.touchAccessToken('tok_1', at(6));
    await store.accessTokens.touchAccessToken('tok_1', at(4));
    expect((await store.accessTokens.findAccessTokenByHash('hash-tok_1'))?.lastUsedAt).to.deep.equal(at(6));
    await store.accessTokens.touchAccessToken('tok_unknown', at(7));
  });

  it('counts downloads, distinct clients and bytes per period, and names the limit a refused use would pass', async () => {
    expect(await store.accessTokens.getAccessTokenUsage('tok_1', at(0))).to.deep.equal({ downloads: 0, clients: 0, bytes: 0 });
    const limits = { maxDownloads: 3, maxClients: 2, maxBytes: 100 };
    expect(await store.accessTokens.countAccessTokenUse(use({ ...limits }))).to.deep.equal({ outcome: 'counted', usage: { downloads: 1, clients: 1, bytes: 10 } });
    expect(await store.accessTokens.countAccessTokenUse(use({ ...limits, clientHash: 'client-b' }))).to.deep.equal({ outcome: 'counted', usage: { downloads: 2, clients: 2, bytes: 20 } });
    // A third client is refused; a known one is not a new client.
    expect(await store.accessTokens.countAccessTokenUse(use({ ...limits, clientHash: 'client-c' }))).to.deep.equal({ outcome: 'refused', limit: 'clients', usage: { downloads: 2, clients: 2, bytes: 20 } });
    expect(await store.accessTokens.countAccessTokenUse(use({ ...limits, bytes: 81 }))).to.deep.equal({ outcome: 'refused', limit: 'bytes', usage: { downloads: 2, clients: 2, bytes: 20 } });
    expect(await store.accessTokens.countAccessTokenUse(use({ ...limits, bytes: 80 }))).to.deep.equal({ outcome: 'counted', usage: { downloads: 3, clients: 2, bytes: 100 } });
    expect(await store.accessTokens.countAccessTokenUse(use({ ...limits, bytes: 0 }))).to.deep.equal({ outcome: 'refused', limit: 'downloads', usage: { downloads: 3, clients: 2, bytes: 100 } });
    expect(await store.accessTokens.getAccessTokenUsage('tok_1', at(0))).to.deep.equal({ downloads: 3, clients: 2, bytes: 100 });
    await store.accessTokens.uncountAccessTokenUse('tok_1', at(0), 80, 1);
    expect(await store.accessTokens.getAccessTokenUsage('tok_1', at(0))).to.deep.equal({ downloads: 2, clients: 2, bytes: 20 });

    // A new period starts from nothing; the earlier one is no longer kept.
    expect(await store.accessTokens.countAccessTokenUse(use({ ...limits, periodStart: at(60), clientHash: 'client-c' }))).to.deep.equal({ outcome: 'counted', usage: { downloads: 1, clients: 1, bytes: 10 } });
    expect(await store.accessTokens.getAccessTokenUsage('tok_1', at(0))).to.deep.equal({ downloads: 0, clients: 0, bytes: 0 });
    expect(await store.accessTokens.getAccessTokenUsage('tok_2', at(60))).to.deep.equal({ downloads: 0, clients: 0, bytes: 0 });
  });

  it('counts a byte range as its bytes and client only, and refuses ranges once the downloads or bytes are spent', async () => {
    const limits = { maxDownloads: 1, maxClients: 1, maxBytes: 100 };
    expect(await store.accessTokens.countAccessTokenUse(use({ ...limits, downloads: 0, bytes: 30 }))).to.deep.equal({ outcome: 'counted', usage: { downloads: 0, clients: 1, bytes: 30 } });
    expect(await store.accessTokens.countAccessTokenUse(use({ ...limits, downloads: 0, bytes: 30, clientHash: 'client-b' }))).to.deep.equal({ outcome: 'refused', limit: 'clients', usage: { downloads: 0, clients: 1, bytes: 30 } });
    expect(await store.accessTokens.countAccessTokenUse(use({ ...limits, downloads: 0, bytes: 71 }))).to.deep.equal({ outcome: 'refused', limit: 'bytes', usage: { downloads: 0, clients: 1, bytes: 30 } });
    expect(await store.accessTokens.countAccessTokenUse(use({ ...limits, downloads: 1, bytes: 10 }))).to.deep.equal({ outcome: 'counted', usage: { downloads: 1, clients: 1, bytes: 40 } });
    // The downloads are spent: a range of one is refused, however small.
    expect(await store.accessTokens.countAccessTokenUse(use({ ...limits, downloads: 0, bytes: 1 }))).to.deep.equal({ outcome: 'refused', limit: 'downloads', usage: { downloads: 1, clients: 1, bytes: 40 } });
    await store.accessTokens.uncountAccessTokenUse('tok_1', at(0), 30, 0);
    expect(await store.accessTokens.getAccessTokenUsage('tok_1', at(0))).to.deep.equal({ downloads: 1, clients: 1, bytes: 10 });
  });

  it('never counts past a limit however many uses are counted at once', async () => {
    const downloads = await Promise.all(Array.from({ length: 20 }, (_, i) => store.accessTokens.countAccessTokenUse(use({ maxDownloads: 7, clientHash: `c${i % 3}` }))));
    expect(downloads.filter((outcome) => outcome.outcome === 'counted')).to.have.length(7);
    const clients = await Promise.all(Array.from({ length: 20 }, (_, i) => store.accessTokens.countAccessTokenUse(use({ tokenId: 'tok_2', maxClients: 4, clientHash: `c${i}` }))));
    expect(clients.filter((outcome) => outcome.outcome === 'counted')).to.have.length(4);
    expect(await store.accessTokens.getAccessTokenUsage('tok_2', at(0))).to.deep.equal({ downloads: 4, clients: 4, bytes: 40 });
  });
});
