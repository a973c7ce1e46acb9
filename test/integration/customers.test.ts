import { expect } from 'chai';
import { CUSTOMER_ID_PATTERN } from '../../shared/customer-ids';
import { NAME_MAX_LENGTH, NOTES_MAX_LENGTH } from '../../shared/contract/customers-requests';
import { PAGE_SIZE_MAX } from '../../shared/policy';
import { HttpResult } from '../support/http-client';
import { startTestApp, TestApp } from '../support/test-app';
import { pollUntil } from '../support/poll';

const CUSTOMERS = '/v1/management/customers';
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CUSTOMER_FIELDS = ['customerId', 'name', 'tier', 'isActive', 'notes', 'updatesUntil', 'versionRange', 'createdAt', 'updatedAt'];
const ADMIN_ONLY = 'this endpoint requires an admin API key';
const INACTIVE = 'customer account is inactive';

let sequence = 0;
const uniqueId = (label: string) => `${label}-${Date.now().toString(36)}-${++sequence}`;

function expectSuccess(result: HttpResult, status: number): any {
  expect(result.status, JSON.stringify(result.body)).to.equal(status);
  expect(result.body.success).to.equal(true);
  return result.body.data;
}

function expectFailure(result: HttpResult, status: number, code: string): { code: string; message: string; details?: { field: string; message: string }[] } {
  expect(result.status, JSON.stringify(result.body)).to.equal(status);
  expect(result.body.success).to.equal(false);
  expect(result.body).to.not.have.property('data');
  expect(result.body.error.code).to.equal(code);
  expect(result.body.error.message).to.be.a('string').that.is.not.empty;
  return result.body.error;
}

/** The fields the validation details name, in order. */
function detailFields(result: HttpResult): string[] {
  const error = expectFailure(result, 400, 'VALIDATION_ERROR');
  expect(error.details).to.be.an('array').that.is.not.empty;
  for (const detail of error.details!) {
    expect(detail).to.have.all.keys('field', 'message');
    expect(detail.message).to.be.a('string').that.is.not.empty;
  }
  return error.details!.map((d) => d.field);
}

describe('customers and API keys (/v1/management/customers)', () => {
  let app: TestApp;
  const tiers = () => app.config.tiers;

  before(async () => {
    app = await startTestApp({ workers: false });
  });

  after(async () => {
    await app?.close();
  });

  async function provision(body: Record<string, unknown> = {}) {
    return expectSuccess(await app.http.post(CUSTOMERS, { name: 'Acme Corp', tier: tiers()[0], ...body }), 201);
  }

  /** How the gateway treats a customer key: an admin endpoint tells apart a valid, an inactive and an unknown key. */
  async function probeKey(apiKey: string): Promise<{ status: number; message: string }> {
    const result = await app.http.get(CUSTOMERS, { key: apiKey });
    expect(result.body.success).to.equal(false);
    return { status: result.status, message: result.body.error.message };
  }

  describe('authentication', () => {
    let customerId: string;
    let customerKey: string;

    before(async () => {
      ({ customerId, apiKey: customerKey } = await provision());
    });

    const endpoints = () => [
      { method: 'POST', path: CUSTOMERS, json: { name: 'x', tier: tiers()[0] } },
      { method: 'GET', path: CUSTOMERS },
      { method: 'GET', path: `${CUSTOMERS}/${customerId}` },
      { method: 'PATCH', path: `${CUSTOMERS}/${customerId}`, json: { name: 'x' } },
      { method: 'POST', path: `${CUSTOMERS}/${customerId}/apikeys` },
      { method: 'GET', path: `${CUSTOMERS}/${customerId}/apikeys` },
      { method: 'DELETE', path: `${CUSTOMERS}/${customerId}/apikeys/key_unknown` },
    ];

    it('refuses requests without a key with 401', async () => {
      for (const { method, path, json } of endpoints()) {
        expectFailure(await app.http.request(method, path, { key: null, json }), 401, 'UNAUTHORIZED');
      }
    });

    it('refuses garbage, unknown and malformed keys with 401', async () => {
      const unknownButWellFormed = `${customerId}.${'A'.repeat(43)}`;
      for (const key of ['garbage', `${app.adminKey}x`, unknownButWellFormed, `nobody.${'A'.repeat(43)}`, `${customerId}.short`]) {
        for (const { method, path, json } of endpoints()) {
          expectFailure(await app.http.request(method, path, { key, json }), 401, 'UNAUTHORIZED');
        }
      }
    });

    it('refuses a customer key with 403 on every endpoint and changes nothing', async () => {
      for (const { method, path, json } of endpoints()) {
        const error = expectFailure(await app.http.request(method, path, { key: customerKey, json }), 403, 'FORBIDDEN');
        expect(error.message).to.equal(ADMIN_ONLY);
      }
      const customer = expectSuccess(await app.http.get(`${CUSTOMERS}/${customerId}`), 200);
      expect(customer.name).to.equal('Acme Corp');
      const { apiKeys } = expectSuccess(await app.http.get(`${CUSTOMERS}/${customerId}/apikeys`), 200);
      expect(apiKeys).to.have.length(1);
    });
  });

  describe('POST /customers (provisioning)', () => {
    it('creates an active customer with a generated id and issues its first key', async () => {
      const before = Date.now();
      const created = await provision({ name: 'Generated Id Ltd', tier: tiers()[1] });

      expect(created).to.have.all.keys(...CUSTOMER_FIELDS, 'apiKey', 'keyId');
      expect(created.customerId).to.match(/^cus_/).and.to.match(CUSTOMER_ID_PATTERN);
      expect(created).to.include({ name: 'Generated Id Ltd', tier: tiers()[1], isActive: true, notes: null });
      expect(created.createdAt).to.match(ISO_TIMESTAMP);
      expect(Date.parse(created.createdAt)).to.be.at.least(before - 1000);
      expect(created.updatedAt).to.equal(created.createdAt);
      expect(created.apiKey).to.match(new RegExp(`^${created.customerId}\\.[A-Za-z0-9_-]{43}$`));
      expect(created.keyId).to.be.a('string').that.is.not.empty;

      const stored = expectSuccess(await app.http.get(`${CUSTOMERS}/${created.customerId}`), 200);
      const { apiKey: _apiKey, keyId: _keyId, ...record } = created;
      expect(stored).to.deep.equal(record);
    });

    it('keeps a given customerId and notes, and trims the name', async () => {
      const customerId = uniqueId('Given_ID');
      const created = await provision({ customerId, name: '  Named Inc  ', notes: 'signed in March' });
      expect(created).to.include({ customerId, name: 'Named Inc', notes: 'signed in March' });
      expect(created.apiKey.startsWith(`${customerId}.`)).to.equal(true);
    });

    it('issues a key that authenticates at once', async () => {
      const { apiKey } = await provision();
      expect(await probeKey(apiKey)).to.deep.equal({ status: 403, message: ADMIN_ONLY });
    });

    it('refuses a duplicate customerId with 409 and leaves the first customer intact', async () => {
      const customerId = uniqueId('dup');
      await provision({ customerId, name: 'First' });
      const error = expectFailure(await app.http.post(CUSTOMERS, { customerId, name: 'Second', tier: tiers()[0] }), 409, 'CONFLICT');
      expect(error.message).to.contain(customerId);
      const stored = expectSuccess(await app.http.get(`${CUSTOMERS}/${customerId}`), 200);
      expect(stored.name).to.equal('First');
      const { apiKeys } = expectSuccess(await app.http.get(`${CUSTOMERS}/${customerId}/apikeys`), 200);
      expect(apiKeys).to.have.length(1);
    });

    it('requires name and tier, naming each missing field', async () => {
      const result = await app.http.post(CUSTOMERS, {});
      expect(detailFields(result)).to.have.members(['name', 'tier']);
      expect(result.body.error.details).to.deep.include({ field: 'name', message: 'is required' });
      expect(result.body.error.details).to.deep.include({ field: 'tier', message: 'is required' });
      expect(detailFields(await app.http.post(CUSTOMERS, undefined))).to.have.members(['name', 'tier']);
    });

    it('refuses a tier that is not configured and lists the allowed ones', async () => {
      const result = await app.http.post(CUSTOMERS, { name: 'x', tier: 'platinum' });
      expect(detailFields(result)).to.deep.equal(['tier']);
      expect(result.body.error.details[0].message).to.equal(`must be one of: ${tiers().join(', ')}`);
      expect(detailFields(await app.http.post(CUSTOMERS, { name: 'x', tier: 3 }))).to.deep.equal(['tier']);
    });

    it('bounds the name and notes', async () => {
      await provision({ name: 'n'.repeat(NAME_MAX_LENGTH), notes: 'n'.repeat(NOTES_MAX_LENGTH) });
      expect(detailFields(await app.http.post(CUSTOMERS, { name: 'n'.repeat(NAME_MAX_LENGTH + 1), tier: tiers()[0] }))).to.deep.equal(['name']);
      expect(detailFields(await app.http.post(CUSTOMERS, { name: '   ', tier: tiers()[0] }))).to.deep.equal(['name']);
      expect(detailFields(await app.http.post(CUSTOMERS, { name: 42, tier: tiers()[0] }))).to.deep.equal(['name']);
      const longNotes = await app.http.post(CUSTOMERS, { name: 'x', tier: tiers()[0], notes: 'n'.repeat(NOTES_MAX_LENGTH + 1) });
      expect(detailFields(longNotes)).to.deep.equal(['notes']);
    });

    it('refuses customerIds outside the pattern (a "." would break the key format)', async () => {
      for (const customerId of ['a.b', '', 'x'.repeat(65), 'spa ce', 'ü', 7]) {
        const result = await app.http.post(CUSTOMERS, { customerId, name: 'x', tier: tiers()[0] });
        expect(detailFields(result), String(customerId)).to.deep.equal(['customerId']);
      }
      await provision({ customerId: uniqueId('x').padEnd(64, 'x') });
    });

    it('refuses unknown fields and bodies that are not objects', async () => {
      const result = await app.http.post(CUSTOMERS, { name: 'x', tier: tiers()[0], isActive: false, apiKey: 'mine' });
      expect(detailFields(result)).to.have.members(['isActive', 'apiKey']);
      expect(result.body.error.details[0].message).to.equal('is not a known field');
      expect(detailFields(await app.http.post(CUSTOMERS, [{ name: 'x', tier: tiers()[0] }]))).to.deep.equal(['(body)']);
    });
  });

  describe('GET /customers/:customerId', () => {
    it('answers 404 NOT_FOUND for an unknown customer', async () => {
      expectFailure(await app.http.get(`${CUSTOMERS}/${uniqueId('nobody')}`), 404, 'NOT_FOUND');
    });
  });

  describe('PATCH /customers/:customerId', () => {
    let customer: any;

    beforeEach(async () => {
      const { apiKey: _apiKey, keyId: _keyId, ...record } = await provision({ name: 'Before', notes: 'old notes' });
      customer = record;
    });

    const patch = (body: unknown) => app.http.patch(`${CUSTOMERS}/${customer.customerId}`, body);

    it('changes only the fields sent and returns the updated record', async () => {
      const updated = expectSuccess(await patch({ name: 'After' }), 200);
      expect(updated).to.have.all.keys(...CUSTOMER_FIELDS);
      expect(updated).to.deep.include({ ...customer, name: 'After', updatedAt: updated.updatedAt });
      expect(Date.parse(updated.updatedAt)).to.be.at.least(Date.parse(customer.updatedAt));
      expect(expectSuccess(await app.http.get(`${CUSTOMERS}/${customer.customerId}`), 200)).to.deep.equal(updated);
    });

    it('sets tier, isActive and notes, and clears notes with null', async () => {
      const tier = tiers()[tiers().length - 1];
      const updated = expectSuccess(await patch({ tier, isActive: false, notes: 'new notes' }), 200);
      expect(updated).to.include({ name: 'Before', tier, isActive: false, notes: 'new notes' });
      const cleared = expectSuccess(await patch({ notes: null }), 200);
      expect(cleared).to.include({ tier, isActive: false, notes: null });
    });

    it('refuses an empty body', async () => {
      const result = await patch({});
      expect(detailFields(result)).to.deep.equal(['(body)']);
      expect(result.body.error.details[0].message).to.contain('at least one of');
      expect(detailFields(await patch(undefined))).to.deep.equal(['(body)']);
    });

    it('refuses unknown fields and wrong types, naming each field, and changes nothing', async () => {
      const unknown = await patch({ name: 'After', customerId: 'renamed', createdAt: '2020-01-01T00:00:00Z' });
      expect(detailFields(unknown)).to.include.members(['customerId', 'createdAt']);

      const wrong = await patch({ name: '', isActive: 'false', notes: 5, tier: 'platinum' });
      expect(detailFields(wrong)).to.have.members(['name', 'isActive', 'notes', 'tier']);
      expect(wrong.body.error.details).to.deep.include({ field: 'isActive', message: 'must be true or false' });

      expect(detailFields(await patch({ notes: 'n'.repeat(NOTES_MAX_LENGTH + 1) }))).to.deep.equal(['notes']);
      expect(expectSuccess(await app.http.get(`${CUSTOMERS}/${customer.customerId}`), 200)).to.deep.equal(customer);
    });

    it('answers 404 for an unknown customer', async () => {
      expectFailure(await app.http.patch(`${CUSTOMERS}/${uniqueId('nobody')}`, { name: 'x' }), 404, 'NOT_FOUND');
    });

    it('makes deactivation and reactivation take effect on the very next request', async () => {
      const { apiKey } = expectSuccess(await app.http.post(`${CUSTOMERS}/${customer.customerId}/apikeys`), 201);
      // The first use puts the customer's standing in the auth cache.
      expect(await probeKey(apiKey)).to.deep.equal({ status: 403, message: ADMIN_ONLY });

      expectSuccess(await patch({ isActive: false }), 200);
      expect(await probeKey(apiKey)).to.deep.equal({ status: 403, message: INACTIVE });
      expect(await probeKey(apiKey)).to.deep.equal({ status: 403, message: INACTIVE });

      expectSuccess(await patch({ isActive: true }), 200);
      expect(await probeKey(apiKey)).to.deep.equal({ status: 403, message: ADMIN_ONLY });
    });
  });

  describe('GET /customers (list)', () => {
    let listApp: TestApp;
    const names = ['c1', 'c2', 'c3', 'c4', 'c5'];
    const secrets: string[] = [];

    before(async () => {
      listApp = await startTestApp({ workers: false });
      for (const name of names) {
        const result = await listApp.http.post(CUSTOMERS, { name, tier: listApp.config.tiers[0] });
        secrets.push(expectSuccess(result, 201).apiKey.split('.')[1]);
      }
    });

    after(async () => {
      await listApp?.close();
    });

    const list = (query = '') => listApp.http.get(`${CUSTOMERS}${query}`);

    it('defaults to page 1 of 20, oldest first, with totals', async () => {
      const data = expectSuccess(await list(), 200);
      expect(data).to.have.all.keys('customers', 'pagination');
      expect(data.pagination).to.deep.equal({ page: 1, pageSize: 20, total: 5, totalPages: 1 });
      expect(data.customers.map((c: any) => c.name)).to.deep.equal(names);
      for (const customer of data.customers) expect(customer).to.have.all.keys(...CUSTOMER_FIELDS);
    });

    it('pages through the customers', async () => {
      const pages = [];
      for (const page of [1, 2, 3, 4]) pages.push(expectSuccess(await list(`?page=${page}&pageSize=2`), 200));
      expect(pages.map((p) => p.customers.map((c: any) => c.name))).to.deep.equal([['c1', 'c2'], ['c3', 'c4'], ['c5'], []]);
      for (const [index, data] of pages.entries()) {
        expect(data.pagination).to.deep.equal({ page: index + 1, pageSize: 2, total: 5, totalPages: 3 });
      }
      expect(expectSuccess(await list(`?pageSize=${PAGE_SIZE_MAX}`), 200).pagination.totalPages).to.equal(1);
    });

    it('never shows a key or its hash', async () => {
      const result = await list();
      const text = result.raw.toString();
      for (const secret of secrets) expect(text).to.not.contain(secret);
      expect(text).to.not.match(/apiKey|keyHash|keyId/);
    });

    it('refuses page and pageSize outside their bounds, naming the parameter', async () => {
      const cases: [string, string][] = [
        ['?page=0', 'page'],
        ['?page=-1', 'page'],
        ['?page=1.5', 'page'],
        ['?page=abc', 'page'],
        ['?page=', 'page'],
        ['?pageSize=0', 'pageSize'],
        [`?pageSize=${PAGE_SIZE_MAX + 1}`, 'pageSize'],
        ['?pageSize=ten', 'pageSize'],
        ['?pageSize=2&pageSize=3', 'pageSize'],
      ];
      for (const [query, field] of cases) {
        const result = await list(query);
        expect(detailFields(result), query).to.deep.equal([field]);
      }
      expect(detailFields(await list('?page=0&pageSize=0'))).to.have.members(['page', 'pageSize']);
    });
  });

  describe('API keys', () => {
    let customerId: string;
    let firstKey: { apiKey: string; keyId: string };

    beforeEach(async () => {
      const created = await provision({ customerId: uniqueId('keys') });
      customerId = created.customerId;
      firstKey = { apiKey: created.apiKey, keyId: created.keyId };
    });

    const keysPath = () => `${CUSTOMERS}/${customerId}/apikeys`;
    const issue = async () => expectSuccess(await app.http.post(keysPath()), 201);
    const listKeys = async () => expectSuccess(await app.http.get(keysPath()), 200).apiKeys as any[];

    it('issues further keys, each shown once and each working', async () => {
      const second = await issue();
      const third = await issue();
      for (const key of [second, third]) {
        expect(key).to.have.all.keys('customerId', 'keyId', 'apiKey', 'createdAt');
        expect(key.customerId).to.equal(customerId);
        expect(key.apiKey).to.match(new RegExp(`^${customerId}\\.[A-Za-z0-9_-]{43}$`));
        expect(key.createdAt).to.match(ISO_TIMESTAMP);
        expect(await probeKey(key.apiKey)).to.deep.equal({ status: 403, message: ADMIN_ONLY });
      }
      expect(new Set([firstKey.apiKey, second.apiKey, third.apiKey]).size).to.equal(3);
      expect(new Set([firstKey.keyId, second.keyId, third.keyId]).size).to.equal(3);
    });

    it('takes an empty object as the body and refuses one with fields', async () => {
      expectSuccess(await app.http.post(keysPath(), {}), 201);
      expect(detailFields(await app.http.post(keysPath(), { name: 'ci key' }))).to.deep.equal(['name']);
      expect(await listKeys()).to.have.length(2);
    });

    it('lists the active keys oldest first, never with the key or its hash', async () => {
      const second = await issue();
      const result = await app.http.get(keysPath());
      const { apiKeys } = expectSuccess(result, 200);
      expect(apiKeys.map((k: any) => k.keyId)).to.deep.equal([firstKey.keyId, second.keyId]);
      for (const key of apiKeys) {
        expect(key).to.have.all.keys('keyId', 'customerId', 'prefix', 'createdAt', 'lastUsedAt', 'revokedAt');
        expect(key.revokedAt).to.equal(null);
        expect(key.customerId).to.equal(customerId);
        expect(key.createdAt).to.match(ISO_TIMESTAMP);
      }
      // The prefix lets a person recognise a key: the customer id and a few characters of the secret.
      expect(apiKeys[1].prefix.startsWith(`${customerId}.`)).to.equal(true);
      expect(second.apiKey.startsWith(apiKeys[1].prefix)).to.equal(true);
      expect(apiKeys[1].prefix.length - customerId.length - 1).to.be.at.most(8);
      const text = result.raw.toString();
      for (const { apiKey } of [firstKey, second]) expect(text).to.not.contain(apiKey.split('.')[1]);
    });

    it('records when a key was last used', async () => {
      expect((await listKeys())[0].lastUsedAt).to.equal(null);
      await probeKey(firstKey.apiKey);
      const lastUsedAt = await pollUntil(async () => (await listKeys())[0].lastUsedAt ?? undefined, 5_000, 'lastUsedAt recorded', 20);
      expect(lastUsedAt).to.match(ISO_TIMESTAMP);
    });

    it('answers 404 for the keys of an unknown customer', async () => {
      const path = `${CUSTOMERS}/${uniqueId('nobody')}/apikeys`;
      expectFailure(await app.http.post(path), 404, 'NOT_FOUND');
      expectFailure(await app.http.get(path), 404, 'NOT_FOUND');
      expectFailure(await app.http.delete(`${path}/${firstKey.keyId}`), 404, 'NOT_FOUND');
    });

    it('revokes a key: the very next request with it is 401, the other keys keep working', async () => {
      const second = await issue();
      // Used once, so the key sits in the auth cache when it is revoked.
      expect(await probeKey(firstKey.apiKey)).to.deep.equal({ status: 403, message: ADMIN_ONLY });

      const revoked = expectSuccess(await app.http.delete(`${keysPath()}/${firstKey.keyId}`), 200);
      expect(revoked).to.have.all.keys('customerId', 'keyId', 'revokedAt');
      expect(revoked).to.include({ customerId, keyId: firstKey.keyId });
      expect(revoked.revokedAt).to.match(ISO_TIMESTAMP);

      expect((await probeKey(firstKey.apiKey)).status).to.equal(401);
      expect((await probeKey(firstKey.apiKey)).status).to.equal(401);
      expect(await probeKey(second.apiKey)).to.deep.equal({ status: 403, message: ADMIN_ONLY });
      expect((await listKeys()).map((k) => k.keyId)).to.deep.equal([second.keyId]);
    });

    it('answers 404 for a key already revoked, unknown, or of another customer', async () => {
      expectSuccess(await app.http.delete(`${keysPath()}/${firstKey.keyId}`), 200);
      expectFailure(await app.http.delete(`${keysPath()}/${firstKey.keyId}`), 404, 'NOT_FOUND');
      expectFailure(await app.http.delete(`${keysPath()}/key_unknown`), 404, 'NOT_FOUND');

      const other = await provision();
      expectFailure(await app.http.delete(`${keysPath()}/${other.keyId}`), 404, 'NOT_FOUND');
      expect(await probeKey(other.apiKey)).to.deep.equal({ status: 403, message: ADMIN_ONLY });
    });
  });
});
