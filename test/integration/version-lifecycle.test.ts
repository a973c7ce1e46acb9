import { expect } from 'chai';
import { rolloutBucket } from '../../shared/releases/rollout';
import { createApplication, createCustomer, ReleaseSpec, storeRelease, uploadSmallFile } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

type Customer = { customerId: string; apiKey: string };

/**
 * PATCH /v1/management/applications/{id}/versions/{version}: channel, lifecycle, rollout, tier and
 * notes, and what customers see at once; the admin listing's filters and order.
 */
describe('version lifecycle (management API)', () => {
  let app: TestApp;
  let alice: Customer;

  before(async () => {
    app = await startTestApp({ workers: false });
    alice = await createCustomer(app, { tier: 'standard' });
  });
  after(() => app.close());

  async function applicationWith(versions: Record<string, ReleaseSpec>, customers: Customer[] = [alice]): Promise<string> {
    const { applicationId } = await createApplication(app, { customerIds: customers.map((c) => c.customerId) });
    for (const [version, spec] of Object.entries(versions)) await storeRelease(app.core.store, applicationId, version, spec);
    return applicationId;
  }

  const patch = (applicationId: string, version: string, body: Record<string, unknown>) =>
    app.http.patch(`/v1/management/applications/${applicationId}/versions/${encodeURIComponent(version)}`, body);
  const url = (customer: Customer, query: string) => app.http.get(`/v1/downloads/url?${query}`, { key: customer.apiKey });
  const latestOf = async (customer: Customer, applicationId: string, query = '') => {
    const res = await url(customer, `applicationId=${applicationId}&version=latest${query}`);
    return res.status === 200 ? res.body.data.version : res.status;
  };

  it('publishes a draft, setting publishedAt once, and yanks and un-yanks it, keeping publishedAt', async () => {
    const applicationId = await applicationWith({ '1.0.0': {}, '1.1.0': { status: 'draft' } });
    expect(await latestOf(alice, applicationId)).to.equal('1.0.0');
    expect((await url(alice, `applicationId=${applicationId}&version=1.1.0`)).status).to.equal(404);

    const draft = (await app.http.get(`/v1/management/applications/${applicationId}/versions?status=draft`)).body.data.versions[0];
    expect(draft).to.include({ version: '1.1.0', status: 'draft', publishedAt: null, channel: 'stable', rolloutPercentage: 100 });

    const before = Date.now();
    const published = await patch(applicationId, '1.1.0', { status: 'published', releaseNotes: 'Now out' });
    expect(published.status).to.equal(200);
    expect(published.body.data).to.include({ version: '1.1.0', status: 'published', releaseNotes: 'Now out' });
    const publishedAt = published.body.data.publishedAt;
    expect(Date.parse(publishedAt)).to.be.within(before - 1_000, Date.now() + 1_000);
    expect(Object.keys(published.body.data)).to.deep.equal([
      'applicationId', 'version', 'releaseNotes', 'releaseNotesHtml', 'requiredTier', 'channel', 'status', 'rolloutPercentage',
      'bundleVersion', 'minimumSystemVersion', 'critical', 'publishedAt', 'yankReason', 'rollbackTo', 'signedUnder', 'createdAt', 'updatedAt', 'files', 'updateFeedProblems',
    ]);
    expect(published.body.data.releaseNotesHtml).to.equal('<p>Now out</p>\n');
    expect(await latestOf(alice, applicationId)).to.equal('1.1.0');

    const reasonAlone = await patch(applicationId, '1.1.0', { yankReason: 'Crashes on start' });
    expect([reasonAlone.status, reasonAlone.body.error?.message]).to.deep.equal([400, 'yankReason: goes with status yanked: it says why the version is withdrawn']);
    const yanked = await patch(applicationId, '1.1.0', { status: 'yanked', yankReason: '  Crashes on start ' });
    expect(yanked.body.data).to.include({ status: 'yanked', publishedAt, yankReason: 'Crashes on start' });
    expect(await latestOf(alice, applicationId)).to.equal('1.0.0');
    const gone = await url(alice, `applicationId=${applicationId}&version=1.1.0`);
    expect(gone.body.error).to.deep.equal({ code: 'GONE', message: 'version 1.1.0 has been withdrawn' });

    const unyanked = await patch(applicationId, '1.1.0', { status: 'published' });
    expect(unyanked.body.data).to.include({ status: 'published', publishedAt, yankReason: null });
    expect(await latestOf(alice, applicationId)).to.equal('1.1.0');
    // Naming the current status with other fields changes those alone.
    expect((await patch(applicationId, '1.1.0', { status: 'published', requiredTier: 'premium' })).body.data).to.include({ status: 'published', requiredTier: 'premium' });
    expect(await latestOf(alice, applicationId)).to.equal('1.0.0');
  });

  it('refuses transitions the lifecycle does not allow with 409, changing nothing', async () => {
    const applicationId = await applicationWith({ '1.0.0': {}, '2.0.0': { status: 'draft' }, '3.0.0': { status: 'yanked' } });
    const refusals: Array<[string, string, string]> = [
      ['1.0.0', 'draft', 'version 1.0.0 is published and cannot become draft (from published: yanked)'],
      ['2.0.0', 'yanked', 'version 2.0.0 is draft and cannot become yanked (from draft: published)'],
      ['3.0.0', 'draft', 'version 3.0.0 is yanked and cannot become draft (from yanked: published)'],
    ];
    for (const [version, status, message] of refusals) {
      const res = await patch(applicationId, version, { status, releaseNotes: 'changed', channel: 'beta' });
      expect(res.status, version).to.equal(409);
      expect(res.body.error).to.deep.equal({ code: 'CONFLICT', message });
    }
    const listed = (await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions;
    expect(listed.map((v: { version: string; status: string; channel: string; releaseNotes: string | null }) => [v.version, v.status, v.channel, v.releaseNotes])).to.deep.equal([
      ['3.0.0', 'yanked', 'stable', null], ['2.0.0', 'draft', 'stable', null], ['1.0.0', 'published', 'stable', null],
    ]);
  });

  it('moves a version between channels and stages its rollout, each seen by the next download', async () => {
    const { applicationId } = await createApplication(app, {});
    const version = '2.0.0';
    const customers = await Promise.all(Array.from({ length: 30 }, () => createCustomer(app)));
    const bucket = (c: Customer) => rolloutBucket(c.customerId, applicationId, version);
    const early = customers.reduce((a, b) => (bucket(a) <= bucket(b) ? a : b));
    const late = customers.reduce((a, b) => (bucket(a) >= bucket(b) ? a : b));
    expect(bucket(early)).to.be.lessThan(bucket(late));
    await app.http.patch(`/v1/management/applications/${applicationId}`, { customerIds: [early.customerId, late.customerId] });
    await storeRelease(app.core.store, applicationId, '1.0.0');
    await storeRelease(app.core.store, applicationId, version, { channel: 'beta' });

    expect(await latestOf(early, applicationId)).to.equal('1.0.0');
    expect(await latestOf(early, applicationId, '&channel=beta')).to.equal(version);
    expect((await patch(applicationId, version, { channel: 'stable', rolloutPercentage: bucket(early) + 1 })).body.data)
      .to.include({ channel: 'stable', rolloutPercentage: bucket(early) + 1 });
    expect(await latestOf(early, applicationId)).to.equal(version);
    expect(await latestOf(late, applicationId)).to.equal('1.0.0');
    expect((await url(late, `applicationId=${applicationId}&version=${version}`)).status).to.equal(200);
    await patch(applicationId, version, { rolloutPercentage: 100 });
    expect(await latestOf(late, applicationId)).to.equal(version);
  });

  it('answers 410 for share links made before a yank, and serves them again once un-yanked', async () => {
    const applicationId = await applicationWith({ '1.0.0': {} });
    await uploadSmallFile(app, { applicationId, version: '1.0.1' });
    const { token, version } = (await app.http.post('/v1/downloads/share', { applicationId, version: 'latest' }, { key: alice.apiKey })).body.data;
    expect(version).to.equal('1.0.1');
    const use = () => app.http.get(`/v1/downloads/share/${token}`, { key: null });
    expect((await use()).status).to.equal(302);
    expect((await use()).status).to.equal(302);
    await patch(applicationId, '1.0.1', { status: 'yanked' });
    const gone = await use();
    expect(gone.status).to.equal(410);
    expect(gone.body.error).to.deep.equal({ code: 'GONE', message: 'version 1.0.1 has been withdrawn' });
    // The link keeps the version it was made for: it does not fall back to another one.
    expect(await latestOf(alice, applicationId)).to.equal('1.0.0');
    await patch(applicationId, '1.0.1', { status: 'published' });
    expect((await use()).status).to.equal(302);
  });

  it('validates the changes, and answers 404 for an unknown version or application', async () => {
    const applicationId = await applicationWith({ '1.0.0': {} });
    const invalid: Array<[Record<string, unknown>, string]> = [
      [{ status: 'deleted' }, 'status'],
      [{ status: null }, 'status'],
      [{ channel: 'nightly' }, 'channel'],
      [{ channel: null }, 'channel'],
      [{ rolloutPercentage: 0 }, 'rolloutPercentage'],
      [{ rolloutPercentage: 101 }, 'rolloutPercentage'],
      [{ rolloutPercentage: 12.5 }, 'rolloutPercentage'],
      [{ rolloutPercentage: '50' }, 'rolloutPercentage'],
      [{ rolloutPercentage: null }, 'rolloutPercentage'],
      [{ publishedAt: '2020-01-01T00:00:00.000Z' }, 'publishedAt'],
      [{}, '(body)'],
    ];
    for (const [body, field] of invalid) {
      const res = await patch(applicationId, '1.0.0', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field), JSON.stringify(body)).to.include(field);
    }
    expect((await patch(applicationId, '9.9.9', { status: 'yanked' })).status).to.equal(404);
    expect((await patch(applicationId, '9.9.9', { channel: 'beta' })).status).to.equal(404);
    expect((await patch('no-such-app', '1.0.0', { status: 'yanked' })).status).to.equal(404);
    const [version] = (await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions;
    expect(version).to.include({ status: 'published', channel: 'stable', rolloutPercentage: 100 });
  });

  it('lists versions by the version order, filtered by channel and status', async () => {
    const applicationId = await applicationWith({
      '1.10.0': { createdAt: 1 },
      '1.9.0': { createdAt: 2 },
      'v2.0.0-beta.1': { createdAt: 3, channel: 'beta' },
      '2.0.0-beta.2': { createdAt: 4, channel: 'beta', status: 'draft' },
      'nightly-812': { createdAt: 5, channel: 'dev' },
      '1.9.1': { createdAt: 6, status: 'yanked' },
    });
    const listed = async (query = '') => {
      const res = await app.http.get(`/v1/management/applications/${applicationId}/versions${query}`);
      expect(res.status, query).to.equal(200);
      return res.body.data.versions.map((v: { version: string }) => v.version);
    };
    expect(await listed()).to.deep.equal(['2.0.0-beta.2', 'v2.0.0-beta.1', '1.10.0', '1.9.1', '1.9.0', 'nightly-812']);
    expect(await listed('?channel=beta')).to.deep.equal(['2.0.0-beta.2', 'v2.0.0-beta.1']);
    expect(await listed('?status=published')).to.deep.equal(['v2.0.0-beta.1', '1.10.0', '1.9.0', 'nightly-812']);
    expect(await listed('?channel=stable&status=yanked')).to.deep.equal(['1.9.1']);
    expect(await listed('?channel=rc')).to.deep.equal([]);
    for (const query of ['?channel=nightly', '?status=gone', '?status=', '?channel=beta&channel=dev', '?page=1']) {
      expect((await app.http.get(`/v1/management/applications/${applicationId}/versions${query}`)).status, query).to.equal(400);
    }
    const read = (await app.http.get(`/v1/management/applications/${applicationId}`)).body.data.versions;
    expect(read.map((v: { version: string }) => v.version)).to.deep.equal(await listed());
  });
});
