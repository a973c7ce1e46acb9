import { expect } from 'chai';
import { createApplication, createCustomer } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The branding of applications (display name, accent colour, support link) set by admins, and the
 * customer's list of the applications it may download, as the portal reads it.
 */
describe('application branding and the customer applications list', () => {
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ workers: false });
  });
  after(() => app.close());

  it('takes a display name, an accent colour and an https support link, clears each with null, and refuses anything else', async () => {
    const { applicationId } = await createApplication(app, { displayName: 'Desktop Client', accentColour: '#1a2B3c', supportUrl: 'https://help.example.com/desktop?x=1' });
    const path = `/v1/management/applications/${applicationId}`;
    expect((await app.http.get(path)).body.data).to.include({ displayName: 'Desktop Client', accentColour: '#1a2B3c', supportUrl: 'https://help.example.com/desktop?x=1' });
    const refused: Array<[string, unknown]> = [
      ['accentColour', 'red'], ['accentColour', '#12345'], ['accentColour', '#1234567'], ['accentColour', 'javascript:alert(1)'],
      ['supportUrl', 'http://help.example.com'], ['supportUrl', 'javascript:alert(1)'], ['supportUrl', 'https://user:pw@help.example.com'],
      ['supportUrl', 'https://'], ['supportUrl', 'https://help.example.com/\u0000'], ['supportUrl', `https://example.com/${'a'.repeat(2000)}`],
      ['displayName', ''], ['displayName', 'a\nb'], ['displayName', 1],
    ];
    for (const [field, value] of refused) {
      const res = await app.http.patch(path, { [field]: value });
      expect(res.status, `${field} ${String(value)}`).to.equal(400);
      expect(res.body.error.details[0].field).to.equal(field);
    }
    const cleared = await app.http.patch(path, { displayName: null, accentColour: null, supportUrl: null });
    expect(cleared.body.data).to.include({ displayName: null, accentColour: null, supportUrl: null });
  });

  it("lists the customer's applications with their branding and licence state, and nothing of other customers'", async () => {
    const alice = await createCustomer(app);
    const bob = await createCustomer(app);
    const plain = await createApplication(app, { name: 'Plain tool', customerIds: [alice.customerId] });
    const branded = await createApplication(app, {
      name: 'internal-name', displayName: 'Studio', description: 'Edits things', accentColour: '#ff8800', supportUrl: 'https://support.example.com',
      licenceText: 'Terms', customerIds: [alice.customerId, bob.customerId],
    });
    await createApplication(app, { customerIds: [bob.customerId] });
    const deleted = await createApplication(app, { customerIds: [alice.customerId] });
    await app.http.delete(`/v1/management/applications/${deleted.applicationId}`);

    const list = async (query = '') => app.http.get(`/v1/downloads/applications${query}`, { key: alice.apiKey });
    const res = await list();
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(res.body.data).to.deep.equal({
      applications: [
        { applicationId: plain.applicationId, name: 'Plain tool', description: null, accentColour: null, supportUrl: null, logoUrl: null, licence: { required: false, revision: null, accepted: true } },
        {
          applicationId: branded.applicationId, name: 'Studio', description: 'Edits things', accentColour: '#ff8800', supportUrl: 'https://support.example.com', logoUrl: null,
          licence: { required: true, revision: 1, accepted: false },
        },
      ],
      pagination: { page: 1, pageSize: 20, total: 2, totalPages: 1 },
    });
    expect((await app.http.post(`/v1/downloads/licence/${branded.applicationId}/accept`, { revision: 1 }, { key: alice.apiKey })).status).to.equal(200);
    expect((await list()).body.data.applications[1].licence).to.deep.equal({ required: true, revision: 1, accepted: true });
    const second = await list('?page=2&pageSize=1');
    expect(second.body.data.applications.map((a: { applicationId: string }) => a.applicationId)).to.deep.equal([branded.applicationId]);
    expect((await list('?pageSize=0')).status).to.equal(400);
    expect((await list('?bogus=1')).status).to.equal(400);
    expect((await app.http.get('/v1/downloads/applications')).status).to.equal(403);
  });
});
