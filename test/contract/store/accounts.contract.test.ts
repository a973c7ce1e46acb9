import { expect } from 'chai';
import type { Store } from '../../../shared/store/store';
import { accessToken, adminKey, apiKey, application, at, customer, downloadEvent as event, shareLink } from '../../support/records';
import { daily, expectDuplicate } from '../../support/store-expectations';
import { describeStoreContract } from './harness';

/** The AccountStore port: customers, their API keys, admin keys. */
describeStoreContract('accounts', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  describe('customers', () => {
    it('stores a customer and refuses a duplicate id', async () => {
      const c = customer('cust_1', { notes: 'Key account', tier: 'gold' });
      expect(await store.accounts.createCustomer(c)).to.deep.equal(c);
      expect(await store.accounts.getCustomer('cust_1')).to.deep.equal(c);
      expect(await store.accounts.getCustomer('cust_unknown')).to.equal(null);
      await expectDuplicate(store.accounts.createCustomer(customer('cust_1', { name: 'Other' })), 'customerId');
    });

    it('lists customers in creation order (ties by id), paginated, with the total', async () => {
      for (const [id, minute] of [['cust_c', 2], ['cust_b', 1], ['cust_a', 1]] as const) {
        await store.accounts.createCustomer(customer(id, { createdAt: at(minute) }));
      }
      const first = await store.accounts.listCustomers(1, 2);
      const second = await store.accounts.listCustomers(2, 2);
      expect(first.items.map((c) => c.customerId)).to.deep.equal(['cust_a', 'cust_b']);
      expect(second.items.map((c) => c.customerId)).to.deep.equal(['cust_c']);
      expect([first.total, second.total]).to.deep.equal([3, 3]);
      expect(first.items[0]).to.deep.equal(customer('cust_a', { createdAt: at(1) }));
    });

    it('finds customers by a prefix of their id or name, letters compared without case, wildcards taken literally', async () => {
      await store.accounts.createCustomer(customer('cust_acme', { name: 'Acme Corp', createdAt: at(1) }));
      await store.accounts.createCustomer(customer('cust_beta', { name: 'acme labs', createdAt: at(2) }));
      await store.accounts.createCustomer(customer('cust_gamma', { name: 'Gamma 100%_ done', createdAt: at(3) }));
      await store.accounts.createCustomer(customer('CUST_delta', { name: 'Delta (test)', createdAt: at(4) }));
      const found = async (search: string, page = 1, pageSize = 10) => {
        const result = await store.accounts.listCustomers(page, pageSize, search);
        return { ids: result.items.map((c) => c.customerId), total: result.total };
      };
      expect(await found('ACME')).to.deep.equal({ ids: ['cust_acme', 'cust_beta'], total: 2 });
      expect(await found('acme', 2, 1)).to.deep.equal({ ids: ['cust_beta'], total: 2 });
      expect(await found('cust_g')).to.deep.equal({ ids: ['cust_gamma'], total: 1 });
      expect(await found('cust_')).to.deep.equal({ ids: ['cust_acme', 'cust_beta', 'cust_gamma', 'CUST_delta'], total: 4 });
      // Not a substring, and SQL and pattern wildcards match only themselves.
      expect(await found('Corp')).to.deep.equal({ ids: [], total: 0 });
      expect(await found('Gamma 100%_')).to.deep.equal({ ids: ['cust_gamma'], total: 1 });
      expect(await found('%')).to.deep.equal({ ids: [], total: 0 });
      expect(await found('cust.')).to.deep.equal({ ids: [], total: 0 });
      expect(await found('Delta (')).to.deep.equal({ ids: ['CUST_delta'], total: 1 });
      expect(await found('.*')).to.deep.equal({ ids: [], total: 0 });
    });

    it('updates only the fields a patch sets, and always updatedAt', async () => {
      const c = customer('cust_1', { notes: 'Note' });
      await store.accounts.createCustomer(c);
      const renamed = await store.accounts.updateCustomer('cust_1', { name: 'Renamed' }, at(2));
      expect(renamed).to.deep.equal({ ...c, name: 'Renamed', updatedAt: at(2) });
      const changed = await store.accounts.updateCustomer('cust_1', { isActive: false, notes: null, tier: 'gold' }, at(3));
      expect(changed).to.deep.equal({ ...c, name: 'Renamed', isActive: false, notes: null, tier: 'gold', updatedAt: at(3) });
      expect(await store.accounts.getCustomer('cust_1')).to.deep.equal(changed);
      expect(await store.accounts.updateCustomer('cust_unknown', { name: 'x' }, at(4))).to.equal(null);
    });

    it('keeps a maintenance window (updatesUntil, versionRange), changes either alone, and clears it with null', async () => {
      const c = customer('cust_1', { updatesUntil: at(50), versionRange: '<3' });
      expect(await store.accounts.createCustomer(c)).to.deep.equal(c);
      expect(await store.accounts.getCustomer('cust_1')).to.deep.equal(c);
      const narrowed = await store.accounts.updateCustomer('cust_1', { versionRange: '>=2 <3' }, at(2));
      expect(narrowed).to.deep.equal({ ...c, versionRange: '>=2 <3', updatedAt: at(2) });
      const moved = await store.accounts.updateCustomer('cust_1', { updatesUntil: at(60) }, at(3));
      expect(moved).to.deep.equal({ ...c, versionRange: '>=2 <3', updatesUntil: at(60), updatedAt: at(3) });
      const cleared = await store.accounts.updateCustomer('cust_1', { updatesUntil: null, versionRange: null }, at(4));
      expect(cleared).to.deep.equal({ ...c, updatesUntil: null, versionRange: null, updatedAt: at(4) });
      expect((await store.accounts.listCustomers(1, 10)).items).to.deep.equal([cleared]);
    });

    it('reports which of the given customer ids do not exist, once each', async () => {
      await store.accounts.createCustomer(customer('cust_1'));
      await store.accounts.createCustomer(customer('cust_2'));
      expect(await store.accounts.findMissingCustomers(['cust_1', 'cust_x', 'cust_2', 'cust_x', 'cust_y'])).to.deep.equal(['cust_x', 'cust_y']);
      expect(await store.accounts.findMissingCustomers(['cust_2'])).to.deep.equal([]);
      expect(await store.accounts.findMissingCustomers([])).to.deep.equal([]);
    });
  });

  describe('deleting a customer', () => {
    it('deletes the record and its licence acceptances, revokes its keys, access tokens and share links, leaves applications, anonymises its activity and keeps its counts', async () => {
      await store.accounts.createCustomer(customer('cust_1'));
      await store.accounts.createCustomer(customer('cust_2'));
      await store.accounts.createApiKey(apiKey('key_1', { customerId: 'cust_1', keyHash: 'h1' }));
      await store.accounts.createApiKey(apiKey('key_2', { customerId: 'cust_1', keyHash: 'h2', revokedAt: at(1) }));
      await store.accounts.createApiKey(apiKey('key_3', { customerId: 'cust_2', keyHash: 'h3' }));
      await store.shareLinks.createShareLink(shareLink('token_1', { customerId: 'cust_1' }));
      await store.shareLinks.createShareLink(shareLink('token_2', { customerId: 'cust_2' }));
      await store.accessTokens.createAccessToken(accessToken('tok_1', { customerId: 'cust_1' }));
      await store.accessTokens.createAccessToken(accessToken('tok_2', { customerId: 'cust_2' }));
      await store.applications.createApplication(application('app_1', { customerIds: ['cust_2', 'cust_1', 'cust_3'] }));
      await store.applications.createApplication(application('app_2', { customerIds: ['cust_2'] }));
      const acceptance = (applicationId: string, customerId: string, revision: number) => ({ applicationId, customerId, revision, acceptedAt: at(1), clientIp: null });
      for (const accepted of [acceptance('app_1', 'cust_1', 1), acceptance('app_1', 'cust_1', 2), acceptance('app_2', 'cust_1', 1), acceptance('app_1', 'cust_2', 1)]) {
        await store.applications.recordLicenceAcceptance(accepted);
      }
      await store.activity.insertEvents([
        event('d_1', { customerId: 'cust_1', timestamp: at(2) }),
        event('d_2', { customerId: 'cust_2', timestamp: at(3) }),
        event('d_3', { customerId: 'cust_1', timestamp: at(4) }),
      ]);
      await store.activity.rollupEvents(10);

      const deleted = await store.accounts.deleteCustomer('cust_1', at(10));
      expect(deleted).to.deep.equal({ customer: customer('cust_1'), revokedKeys: 1, revokedShareLinks: 1, anonymisedEvents: 2 });
      expect(await store.accounts.getCustomer('cust_1')).to.equal(null);
      expect(await store.accounts.listApiKeys('cust_1')).to.deep.equal([]);
      expect(await store.accounts.findApiKeyByHash('h1')).to.deep.include({ revokedAt: at(10) });
      expect(await store.accounts.findApiKeyByHash('h2')).to.deep.include({ revokedAt: at(1) });
      expect(await store.accounts.findApiKeyByHash('h3')).to.deep.include({ revokedAt: null });
      expect(await store.shareLinks.getShareLink('token_1')).to.deep.include({ revokedAt: at(10) });
      expect(await store.shareLinks.getShareLink('token_2')).to.deep.include({ revokedAt: null });
      expect(await store.accessTokens.findAccessTokenByHash('hash-tok_1')).to.deep.include({ revokedAt: at(10) });
      expect(await store.accessTokens.findAccessTokenByHash('hash-tok_2')).to.deep.include({ revokedAt: null });
      expect(await store.applications.getApplication('app_1')).to.deep.include({ customerIds: ['cust_2', 'cust_3'], updatedAt: at(10) });
      expect(await store.applications.getApplication('app_2')).to.deep.include({ customerIds: ['cust_2'], updatedAt: at(0) });
      const events = await store.activity.listEvents({ limit: 10 });
      expect(events.map((e) => [e.eventId, e.customerId, e.clientIp, e.userAgent])).to.deep.equal([
        ['d_3', null, null, null], ['d_2', 'cust_2', '203.0.113.7', event('d_2').userAgent], ['d_1', null, null, null],
      ]);
      expect(await store.activity.listDailyCounts('app_1', {})).to.deep.equal([daily('app_1', '1.0.0', at(0).toISOString().slice(0, 10), 3)]);
      // Its licence acceptances go with it (a customer created again with its id accepts again); others' stay.
      expect(await store.applications.getLicenceAcceptance('app_1', 'cust_1', 1)).to.equal(null);
      expect(await store.applications.getLicenceAcceptance('app_1', 'cust_1', 2)).to.equal(null);
      expect(await store.applications.getLicenceAcceptance('app_2', 'cust_1', 1)).to.equal(null);
      expect(await store.applications.getLicenceAcceptance('app_1', 'cust_2', 1)).to.deep.equal(acceptance('app_1', 'cust_2', 1));
      expect(await store.accounts.deleteCustomer('cust_1', at(11))).to.equal(null);
    });
  });

  describe('API keys', () => {
    it('stores a key, finds it by hash, and refuses a duplicate hash or id', async () => {
      const key = apiKey('key_1');
      expect(await store.accounts.createApiKey(key)).to.deep.equal(key);
      expect(await store.accounts.findApiKeyByHash('hash-key_1')).to.deep.equal(key);
      expect(await store.accounts.findApiKeyByHash('hash-unknown')).to.equal(null);
      await expectDuplicate(store.accounts.createApiKey(apiKey('key_2', { keyHash: 'hash-key_1' })), 'keyHash');
      await expectDuplicate(store.accounts.createApiKey(apiKey('key_1', { keyHash: 'hash-other' })), 'keyId');
    });

    it("lists a customer's unrevoked keys, oldest first (ties by id)", async () => {
      await store.accounts.createApiKey(apiKey('key_2', { createdAt: at(2) }));
      await store.accounts.createApiKey(apiKey('key_3', { createdAt: at(1) }));
      await store.accounts.createApiKey(apiKey('key_1', { createdAt: at(1) }));
      await store.accounts.createApiKey(apiKey('key_4', { createdAt: at(0), revokedAt: at(3) }));
      await store.accounts.createApiKey(apiKey('key_5', { customerId: 'cust_2' }));
      const keys = await store.accounts.listApiKeys('cust_1');
      expect(keys.map((k) => k.keyId)).to.deep.equal(['key_1', 'key_3', 'key_2']);
      expect(keys[0]).to.deep.equal(apiKey('key_1', { createdAt: at(1) }));
      expect(await store.accounts.listApiKeys('cust_unknown')).to.deep.equal([]);
    });

    it('revokes a key only for its own customer, and only once', async () => {
      const key = apiKey('key_1');
      await store.accounts.createApiKey(key);
      expect(await store.accounts.revokeApiKey('cust_2', 'key_1', at(1))).to.equal(null);
      expect(await store.accounts.findApiKeyByHash('hash-key_1')).to.deep.equal(key);
      const revoked = await store.accounts.revokeApiKey('cust_1', 'key_1', at(3));
      expect(revoked).to.deep.equal({ ...key, revokedAt: at(3) });
      expect(await store.accounts.revokeApiKey('cust_1', 'key_1', at(4))).to.equal(null);
      expect(await store.accounts.revokeApiKey('cust_1', 'key_unknown', at(4))).to.equal(null);
      expect(await store.accounts.findApiKeyByHash('hash-key_1')).to.deep.equal(revoked);
      expect(await store.accounts.listApiKeys('cust_1')).to.deep.equal([]);
    });

    it('records when a key was last used', async () => {
      await store.accounts.createApiKey(apiKey('key_1'));
      await store.accounts.touchApiKey('key_1', at(4));
      expect((await store.accounts.findApiKeyByHash('hash-key_1'))?.lastUsedAt).to.deep.equal(at(4));
      await store.accounts.touchApiKey('key_1', at(6));
      expect(await store.accounts.findApiKeyByHash('hash-key_1')).to.deep.equal(apiKey('key_1', { lastUsedAt: at(6) }));
      await store.accounts.touchApiKey('key_unknown', at(7));
    });
  });

  describe('admin keys', () => {
    it('stores a key, finds it by hash, and refuses a duplicate hash or id', async () => {
      const limited = adminKey('adk_1', { applicationIds: ['app_1', 'app_2'], expiresAt: at(60), scopes: ['publish'] });
      const unlimited = adminKey('adk_2', { scopes: ['admin'] });
      expect(await store.accounts.createAdminKey(limited)).to.deep.equal(limited);
      await store.accounts.createAdminKey(unlimited);
      expect(await store.accounts.findAdminKeyByHash('admin-hash-adk_1')).to.deep.equal(limited);
      expect(await store.accounts.findAdminKeyByHash('admin-hash-adk_2')).to.deep.equal(unlimited);
      expect(await store.accounts.findAdminKeyByHash('admin-hash-unknown')).to.equal(null);
      await expectDuplicate(store.accounts.createAdminKey(adminKey('adk_3', { keyHash: 'admin-hash-adk_1' })), 'keyHash');
      await expectDuplicate(store.accounts.createAdminKey(adminKey('adk_1', { keyHash: 'admin-hash-other' })), 'keyId');
    });

    it('lists the keys not revoked, expired ones included, oldest first (ties by id)', async () => {
      await store.accounts.createAdminKey(adminKey('adk_2', { createdAt: at(2) }));
      await store.accounts.createAdminKey(adminKey('adk_3', { createdAt: at(1), expiresAt: at(1) }));
      await store.accounts.createAdminKey(adminKey('adk_1', { createdAt: at(1) }));
      await store.accounts.createAdminKey(adminKey('adk_4', { createdAt: at(0), revokedAt: at(3) }));
      const keys = await store.accounts.listAdminKeys();
      expect(keys.map((k) => k.keyId)).to.deep.equal(['adk_1', 'adk_3', 'adk_2']);
      expect(keys[1]).to.deep.equal(adminKey('adk_3', { createdAt: at(1), expiresAt: at(1) }));
    });

    it('revokes a key once, and finds it revoked by its hash', async () => {
      await store.accounts.createAdminKey(adminKey('adk_1'));
      const revoked = await store.accounts.revokeAdminKey('adk_1', at(3));
      expect(revoked).to.deep.equal(adminKey('adk_1', { revokedAt: at(3) }));
      expect(await store.accounts.revokeAdminKey('adk_1', at(4))).to.equal(null);
      expect(await store.accounts.revokeAdminKey('adk_unknown', at(4))).to.equal(null);
      expect(await store.accounts.findAdminKeyByHash('admin-hash-adk_1')).to.deep.equal(revoked);
      expect(await store.accounts.listAdminKeys()).to.deep.equal([]);
    });

    it('moves lastUsedAt forward only: a use recorded late never moves it back', async () => {
      await store.accounts.createAdminKey(adminKey('adk_1'));
      await store.accounts.touchAdminKey('adk_1', at(4));
      expect((await store.accounts.findAdminKeyByHash('admin-hash-adk_1'))?.lastUsedAt).to.deep.equal(at(4));
      await store.accounts.touchAdminKey('adk_1', at(2));
      expect((await store.accounts.findAdminKeyByHash('admin-hash-adk_1'))?.lastUsedAt).to.deep.equal(at(4));
      await store.accounts.touchAdminKey('adk_1', at(6));
      expect(await store.accounts.findAdminKeyByHash('admin-hash-adk_1')).to.deep.equal(adminKey('adk_1', { lastUsedAt: at(6) }));
      await store.accounts.touchAdminKey('adk_unknown', at(7));
    });
  });
});
