import { expect } from 'chai';
import { createAdminKey, createApplication, smallUploadForm } from '../support/factories';
import type { HttpResult } from '../support/http-client';
import { startTestApp, TestApp } from '../support/test-app';

const AUDIT = '/v1/management/audit';

describe('the audit log', () => {
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ workers: false });
  });
  after(() => app?.close());

  const requestIdOf = (response: HttpResult) => response.headers.get('x-request-id') as string;
  const entries = async (query = '') => {
    const response = await app.http.get(`${AUDIT}${query}`);
    expect(response.status, response.raw.toString()).to.equal(200);
    return response.body.data.entries as Array<Record<string, unknown>>;
  };
  const entryFor = async (response: HttpResult) => (await entries('?limit=100')).find((entry) => entry.requestId === requestIdOf(response));

  it('records each management write: who, what, on what, for which application, when, under which request id, and how it ended', async () => {
    const publisher = await createAdminKey(app, { scopes: ['publish', 'manage'] });
    const started = Date.now();
    const created = await app.http.post('/v1/management/applications', { applicationId: 'audited-app', name: 'Audited', defaultVersionStatus: 'published' });
    const uploaded = await app.http.request('POST', '/v1/management/upload', {
      key: publisher.apiKey, body: smallUploadForm({ applicationId: 'audited-app', version: '1.0.0' }),
    });
    const patched = await app.http.patch('/v1/management/applications/audited-app/versions/1.0.0', { releaseNotes: 'notes' }, { key: publisher.apiKey });
    const customer = await app.http.post('/v1/management/customers', { name: 'Audited customer', tier: 'standard' }, { key: publisher.apiKey });
    for (const response of [created, uploaded, patched, customer]) expect(response.status, response.raw.toString()).to.be.within(200, 201);

    const expected = [
      [customer, { actor: publisher.keyId, action: 'customer.create', target: customer.body.data.customerId, applicationId: null, status: 201 }],
      [patched, { actor: publisher.keyId, action: 'version.update', target: 'audited-app/1.0.0', applicationId: 'audited-app', status: 200 }],
      [uploaded, { actor: publisher.keyId, action: 'upload.small', target: uploaded.body.data.fileId, applicationId: 'audited-app', status: 201 }],
      [created, { actor: 'root', action: 'application.create', target: 'audited-app', applicationId: 'audited-app', status: 201 }],
    ] as const;
    const newest = (await entries()).slice(0, 4);
    expect(newest.map((entry) => entry.requestId)).to.deep.equal(expected.map(([response]) => requestIdOf(response)));
    for (const [i, [, fields]] of expected.entries()) {
      expect(newest[i]).to.deep.include({ ...fields, outcome: 'succeeded' });
      expect(Date.parse(newest[i].timestamp as string)).to.be.within(started - 1_000, Date.now());
    }
  });

  it('records a write its handler refuses with its status and what it named, and nothing for a request refused before it', async () => {
    const reader = await createAdminKey(app, { scopes: ['read'] });
    const refusedByHandler = await app.http.patch('/v1/management/applications/no-such-app', { name: 'x' });
    expect(refusedByHandler.status).to.equal(404);
    expect(await entryFor(refusedByHandler)).to.deep.include({ action: 'application.update', target: 'no-such-app', outcome: 'refused', status: 404 });

    const unknownCustomer = await app.http.post('/v1/management/customers/no-such-customer/apikeys', {});
    expect(unknownCustomer.status).to.equal(404);
    expect(await entryFor(unknownCustomer)).to.deep.include({ action: 'customerKey.create', target: 'no-such-customer', outcome: 'refused', status: 404 });
    const customerId = (await app.http.post('/v1/management/customers', { name: 'Keyed', tier: 'standard' })).body.data.customerId;
    const issued = await app.http.post(`/v1/management/customers/${customerId}/apikeys`, {});
    expect(await entryFor(issued)).to.deep.include({ action: 'customerKey.create', target: `${customerId}/${issued.body.data.keyId}`, outcome: 'succeeded', status: 201 });

    const refusedBefore = [
      await app.http.patch('/v1/management/applications/no-such-app', { name: 'x' }, { key: null }),
      await app.http.patch('/v1/management/applications/no-such-app', { name: 'x' }, { key: reader.apiKey }),
      await app.http.patch('/v1/management/applications/no-such-app', { bogus: 1 }),
      await app.http.get('/v1/management/applications'),
    ];
    expect(refusedBefore.map((response) => response.status)).to.deep.equal([401, 403, 400, 200]);
    for (const response of refusedBefore) expect(await entryFor(response), requestIdOf(response)).to.equal(undefined);
  });

  it('pages newest first with a cursor bound to its filters, and filters by action and application', async () => {
    const { applicationId } = await createApplication(app);
    const other = await createApplication(app);
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      expect((await app.http.patch(`/v1/management/applications/${applicationId}`, { name })).status).to.equal(200);
    }
    expect((await app.http.patch(`/v1/management/applications/${other.applicationId}`, { name: 'other' })).status).to.equal(200);

    const all = await entries(`?applicationId=${applicationId}&limit=100`);
    expect(all.map((entry) => entry.action)).to.deep.equal([...Array(5).fill('application.update'), 'application.create']);
    const paged: unknown[] = [];
    let cursor: string | null = null;
    do {
      const response: HttpResult = await app.http.get(`${AUDIT}?applicationId=${applicationId}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...response.body.data.entries);
      cursor = response.body.data.pagination.nextCursor;
      expect(response.body.data.pagination.hasMore).to.equal(cursor !== null);
    } while (cursor);
    expect(paged).to.deep.equal(all);

    const updates = await entries(`?action=application.update&applicationId=${applicationId}`);
    expect(updates).to.have.length(5);
    expect((await entries('?action=application.create&limit=100')).every((entry) => entry.action === 'application.create')).to.equal(true);

    const first = await app.http.get(`${AUDIT}?applicationId=${applicationId}&limit=1`);
    const foreign = await app.http.get(`${AUDIT}?applicationId=${other.applicationId}&limit=1&cursor=${first.body.data.pagination.nextCursor}`);
    expect(foreign.status).to.equal(400);
    expect(foreign.body.error.code).to.equal('INVALID_CURSOR');
  });

  it('refuses malformed filters, and keys without the admin scope', async () => {
    for (const query of ['?action=update', '?action=Application.Update', '?applicationId=Not_An_Id', '?limit=0', '?limit=101', '?cursor=%%%', '?bogus=1']) {
      expect((await app.http.get(`${AUDIT}${query}`)).status, query).to.equal(400);
    }
    const manager = await createAdminKey(app, { scopes: ['manage', 'read', 'publish'] });
    expect((await app.http.get(AUDIT, { key: manager.apiKey })).status).to.equal(403);
  });
});
