import { expect } from 'chai';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

type Customer = { customerId: string; apiKey: string };

const LICENCE = '# Licence\n\nYou may use this **software**. <script>alert(1)</script> [Terms](https://example.com/terms)';

/**
 * The licence gate: an application with a licence is downloaded by a customer only once it has
 * accepted the current revision, on every customer download route; reading and accepting the
 * licence; a new revision asks again.
 */
describe('licence gate', () => {
  let app: TestApp;
  let alice: Customer;
  let bob: Customer;
  let applicationId: string;

  before(async () => {
    app = await startTestApp({ workers: false });
    alice = await createCustomer(app);
    bob = await createCustomer(app);
    ({ applicationId } = await createApplication(app, { customerIds: [alice.customerId, bob.customerId], licenceText: LICENCE }));
    await uploadSmallFile(app, { applicationId, version: '1.0.0', platform: 'linux', arch: 'x64', fileName: 'app-1.0.0.AppImage' });
  });
  after(() => app.close());

  const key = (customer: Customer) => ({ key: customer.apiKey });
  const downloadUrl = (customer: Customer) => app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=latest&platform=linux`, key(customer));
  const latestLink = (customer: Customer) => app.http.get(`/v1/downloads/latest/${applicationId}/linux/x64`, key(customer));
  const share = (customer: Customer) => app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0' }, key(customer));
  const electronFile = (customer: Customer) => app.http.get(`/v1/updates/${applicationId}/electron/1.0.0/app-1.0.0.AppImage`, key(customer));
  const licence = (customer: Customer) => app.http.get(`/v1/downloads/licence/${applicationId}`, key(customer));
  const accept = (customer: Customer, revision: unknown) => app.http.post(`/v1/downloads/licence/${applicationId}/accept`, { revision }, key(customer));
  const statuses = async (customer: Customer) => [
    (await downloadUrl(customer)).status, (await latestLink(customer)).status, (await share(customer)).status, (await electronFile(customer)).status,
  ];

  it('refuses every customer download until the licence is accepted, saying where and which revision, and lists releases meanwhile', async () => {
    const refused = await downloadUrl(alice);
    expect(refused.status).to.equal(403);
    expect(refused.body.error.code).to.equal('LICENCE_ACCEPTANCE_REQUIRED');
    expect(refused.body.error.message).to.include(`POST /v1/downloads/licence/${applicationId}/accept {"revision": 1}`);
    expect(refused.body.error.details).to.deep.equal([
      { field: 'revision', message: '1' },
      { field: 'licence', message: `GET /v1/downloads/licence/${applicationId}` },
      { field: 'accept', message: `POST /v1/downloads/licence/${applicationId}/accept` },
    ]);
    expect(await statuses(alice)).to.deep.equal([403, 403, 403, 403]);
    for (const res of [await latestLink(alice), await share(alice), await electronFile(alice)]) expect(res.body.error.code).to.equal('LICENCE_ACCEPTANCE_REQUIRED');
    // What is offered is not a download: the listing and update checks still answer.
    expect((await app.http.get(`/v1/downloads/releases?applicationId=${applicationId}`, key(alice))).status).to.equal(200);
    expect((await app.http.get(`/v1/updates/${applicationId}/electron/latest-linux.yml`, key(alice))).status).to.equal(200);
    expect(await app.core.store.activity.listEvents({ applicationId, type: 'download', limit: 10 })).to.deep.equal([]);
  });

  it('shows the licence as Markdown and sanitized HTML with its revision and whether the customer accepted it', async () => {
    const res = await licence(alice);
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(res.body.data).to.deep.include({ applicationId, required: true, revision: 1, text: LICENCE, accepted: false, acceptedAt: null });
    expect(res.body.data.html).to.equal('<h1>Licence</h1>\n<p>You may use this <strong>software</strong>.  '
      + '<a href="https://example.com/terms" rel="noopener noreferrer nofollow">Terms</a></p>\n');
  });

  it('refuses another revision than the current one with 409 naming it, and an invalid one with 400, recording nothing', async () => {
    const wrong = await accept(alice, 2);
    expect(wrong.status).to.equal(409);
    expect(wrong.body.error.details).to.deep.equal([{ field: 'revision', message: 'the current revision is 1' }]);
    for (const revision of [0, 1.5, '1', null, -1, 1_000_001]) expect((await accept(alice, revision)).status, String(revision)).to.equal(400);
    expect(await app.core.store.applications.getLicenceAcceptance(applicationId, alice.customerId, 1)).to.equal(null);
    expect((await licence(alice)).body.data.accepted).to.equal(false);
  });

  it('records an acceptance with its time, revision and client address, audits it, and lets that customer download', async () => {
    const accepted = await accept(alice, 1);
    expect(accepted.status).to.equal(200);
    expect(accepted.body.data).to.include({ applicationId, customerId: alice.customerId, revision: 1 });
    const stored = await app.core.store.applications.getLicenceAcceptance(applicationId, alice.customerId, 1);
    expect(stored).to.deep.include({ applicationId, customerId: alice.customerId, revision: 1, clientIp: '127.0.0.1' });
    expect(stored?.acceptedAt.toISOString()).to.equal(accepted.body.data.acceptedAt);
    // Accepting again keeps the first acceptance.
    expect((await accept(alice, 1)).body.data.acceptedAt).to.equal(accepted.body.data.acceptedAt);

    const audit = await app.http.get(`/v1/management/audit?action=licence.accept&applicationId=${applicationId}`);
    expect(audit.body.data.entries[0]).to.include({ actor: `customer:${alice.customerId}`, action: 'licence.accept', target: `${applicationId}/1`, outcome: 'succeeded', status: 200 });

    expect((await licence(alice)).body.data).to.include({ accepted: true, acceptedAt: accepted.body.data.acceptedAt });
    expect(await statuses(alice)).to.deep.equal([200, 302, 201, 302]);
    // Another customer of the application has not accepted.
    expect(await statuses(bob)).to.deep.equal([403, 403, 403, 403]);
  });

  it('asks again for a new revision: downloads and share links of the customer wait for it', async () => {
    const link = await share(alice);
    expect(link.status).to.equal(201);
    expect((await app.http.get(`/v1/downloads/share/${link.body.data.token}`, { key: null })).status).to.equal(302);

    const patched = await app.http.patch(`/v1/management/applications/${applicationId}`, { licenceText: `${LICENCE}\n\nRevised.` });
    expect(patched.body.data).to.include({ licenceRevision: 2 });
    expect(await statuses(alice)).to.deep.equal([403, 403, 403, 403]);
    const use = await app.http.get(`/v1/downloads/share/${link.body.data.token}`, { key: null });
    expect([use.status, use.body.error.code]).to.deep.equal([403, 'LICENCE_ACCEPTANCE_REQUIRED']);
    expect((await licence(alice)).body.data).to.include({ revision: 2, accepted: false });
    expect((await accept(alice, 1)).status).to.equal(409);
    expect((await accept(alice, 2)).status).to.equal(200);
    expect(await statuses(alice)).to.deep.equal([200, 302, 201, 302]);
    expect((await app.http.get(`/v1/downloads/share/${link.body.data.token}`, { key: null })).status).to.equal(302);
  });

  it('takes the licence fields on applications: a revision never goes back, null removes the licence and its gate', async () => {
    const patch = (body: object) => app.http.patch(`/v1/management/applications/${applicationId}`, body);
    expect((await patch({ licenceRevision: 1 })).status).to.equal(400);
    expect((await patch({ licenceRevision: 2 })).body.data).to.include({ licenceRevision: 2 });
    expect((await patch({ licenceText: '' })).status).to.equal(400);
    expect((await patch({ licenceText: null, licenceRevision: 3 })).status).to.equal(400);
    expect((await patch({ licenceRevision: 3 })).body.data).to.include({ licenceRevision: 3 });
    expect((await downloadUrl(alice)).status).to.equal(403);
    expect((await patch({ licenceText: null })).body.data).to.include({ licenceText: null, licenceRevision: null });
    expect((await downloadUrl(bob)).status).to.equal(200);
    expect((await licence(bob)).body.data).to.deep.equal({ applicationId, required: false, revision: null, text: null, html: null, accepted: true, acceptedAt: null });
    const none = await accept(bob, 1);
    expect([none.status, none.body.error.message]).to.deep.equal([409, `application ${applicationId} has no licence to accept`]);
    expect((await patch({ licenceRevision: 4 })).status).to.equal(400);

    // A licence given again after its removal goes on from the last revision: no acceptance of an earlier text counts for it.
    expect((await patch({ licenceText: 'Other terms', licenceRevision: 1 })).status).to.equal(400);
    expect((await patch({ licenceText: 'Other terms' })).body.data).to.include({ licenceText: 'Other terms', licenceRevision: 4 });
    const refused = await downloadUrl(alice);
    expect([refused.status, refused.body.error.code]).to.deep.equal([403, 'LICENCE_ACCEPTANCE_REQUIRED']);
    expect((await licence(alice)).body.data).to.include({ revision: 4, accepted: false });
    expect((await patch({ licenceText: null })).body.data).to.include({ licenceText: null, licenceRevision: null });

    const created = await app.http.post('/v1/management/applications', { applicationId: `${applicationId}-b`, name: 'B', licenceRevision: 2 });
    expect(created.status).to.equal(400);
    const withRevision = await createApplication(app, { licenceText: 'Terms', licenceRevision: 5 });
    expect(withRevision).to.include({ licenceText: 'Terms', licenceRevision: 5 });
  });

  it('answers 404 for an application the customer cannot see, revealing nothing', async () => {
    const outsider = await createCustomer(app);
    expect((await licence(outsider)).status).to.equal(404);
    expect((await accept(outsider, 1)).status).to.equal(404);
  });
});
