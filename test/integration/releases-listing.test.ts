import { expect } from 'chai';
import { createApplication, createCustomer, releaseFileId, ReleaseSpec, storeRelease } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

type Customer = { customerId: string; apiKey: string };

/** GET /v1/downloads/releases: what a customer may download, for a vendor's download page. */
describe('releases listing', () => {
  let app: TestApp;
  let alice: Customer;
  let applicationId: string;

  before(async () => {
    app = await startTestApp({ workers: false });
    alice = await createCustomer(app, { tier: 'standard' });
    ({ applicationId } = await createApplication(app, { customerIds: [alice.customerId] }));
    const versions: Record<string, ReleaseSpec> = {
      '1.0.0': { createdAt: 1, releaseNotes: 'First', files: [{ platform: 'windows', arch: 'x64', fileName: 'Setup-1.0.0.exe' }] },
      '1.1.0': {
        createdAt: 2,
        releaseNotes: '**Second** [notes](mailto:help@example.com) <script>alert(1)</script>',
        files: [
          { platform: 'windows', arch: 'x64', fileName: 'Setup-1.1.0.exe' },
          { platform: 'windows', arch: 'x64', fileType: 'SIGNATURE', fileName: 'Setup-1.1.0.exe.sig' },
          { platform: 'macos', arch: 'universal', fileName: 'App-1.1.0.zip' },
          { fileType: 'DOCUMENTATION', fileName: 'manual.pdf' },
        ],
      },
      '1.2.0-beta.1': { createdAt: 3, channel: 'beta' },
      '1.3.0': { createdAt: 4, status: 'draft' },
      '1.0.1': { createdAt: 5, status: 'yanked' },
      '2.0.0': { createdAt: 6, requiredTier: 'premium' },
      '0.9.0': { createdAt: 7, files: [{ platform: 'linux', arch: 'arm64', fileName: 'app.AppImage' }] },
    };
    for (const [version, spec] of Object.entries(versions)) await storeRelease(app.core.store, applicationId, version, spec);
  });
  after(() => app.close());

  const list = (query: string, customer: Customer = alice) => app.http.get(`/v1/downloads/releases?applicationId=${applicationId}${query}`, { key: customer.apiKey });
  const names = (res: { body: { data: { releases: { version: string }[] } } }) => res.body.data.releases.map((r) => r.version);

  it('lists what the customer may download, newest first, each version with its files and no URLs', async () => {
    const res = await list('');
    expect(res.status).to.equal(200);
    expect(names(res)).to.deep.equal(['1.1.0', '1.0.0', '0.9.0']);
    expect(res.body.data.pagination).to.deep.equal({ page: 1, pageSize: 20, total: 3, totalPages: 1 });
    const [newest] = res.body.data.releases;
    expect(Object.keys(newest)).to.deep.equal(['version', 'channel', 'publishedAt', 'releaseNotes', 'releaseNotesHtml', 'files']);
    // The notes as written, and rendered for a page with nothing that runs (shared/markdown.ts).
    expect(newest).to.include({
      version: '1.1.0',
      channel: 'stable',
      releaseNotes: '**Second** [notes](mailto:help@example.com) <script>alert(1)</script>',
      releaseNotesHtml: '<p><strong>Second</strong> <a href="mailto:help@example.com" rel="noopener noreferrer nofollow">notes</a> </p>\n',
    });
    expect(res.body.data.releases.find((r: { version: string }) => r.version === '0.9.0').releaseNotesHtml).to.equal(null);
    expect(Date.parse(newest.publishedAt)).to.be.a('number').and.not.NaN;
    expect(newest.files.map((f: { fileName: string }) => f.fileName)).to.deep.equal(['Setup-1.1.0.exe', 'Setup-1.1.0.exe.sig', 'App-1.1.0.zip', 'manual.pdf']);
    expect(newest.files[0]).to.deep.equal({
      fileId: releaseFileId(applicationId, '1.1.0', 0),
      fileName: 'Setup-1.1.0.exe',
      fileSize: 5_000_000_000,
      platform: 'windows',
      arch: 'x64',
      fileType: 'MAIN',
      checksum: `sha256:${'ab'.repeat(32)}`,
      sha512: null,
      sha1: null,
    });
    expect(res.raw.toString()).not.to.match(/https?:\/\/|downloadUrl|storageKey/);
  });

  it('cascades channels and keeps each file that matches the platform and arch selectors', async () => {
    expect(names(await list('&channel=beta'))).to.deep.equal(['1.2.0-beta.1', '1.1.0', '1.0.0', '0.9.0']);
    const windows = await list('&platform=windows&arch=x64');
    expect(names(windows)).to.deep.equal(['1.1.0', '1.0.0']);
    expect(windows.body.data.releases[0].files.map((f: { fileName: string }) => f.fileName)).to.deep.equal(['Setup-1.1.0.exe', 'Setup-1.1.0.exe.sig', 'manual.pdf']);
    expect(names(await list('&platform=macos&arch=arm64'))).to.deep.equal(['1.1.0']);
    expect(names(await list('&platform=linux'))).to.deep.equal(['0.9.0']);
    expect(names(await list('&platform=linux&arch=x64'))).to.deep.equal([]);
  });

  it('lists versions above a tier only to customers at it', async () => {
    const bob = await createCustomer(app, { tier: 'enterprise' });
    await app.http.patch(`/v1/management/applications/${applicationId}`, { customerIds: [alice.customerId, bob.customerId] });
    expect(names(await list('', bob))).to.deep.equal(['2.0.0', '1.1.0', '1.0.0', '0.9.0']);
  });

  it('pages the list', async () => {
    const second = await list('&channel=beta&page=2&pageSize=3');
    expect(names(second)).to.deep.equal(['0.9.0']);
    expect(second.body.data.pagination).to.deep.equal({ page: 2, pageSize: 3, total: 4, totalPages: 2 });
    const past = await list('&page=5&pageSize=3');
    expect(names(past)).to.deep.equal([]);
  });

  it('answers 404 for an application the customer cannot see, and validates the query', async () => {
    const outsider = await createCustomer(app);
    const refused = await list('', outsider);
    expect(refused.body.error).to.deep.equal({ code: 'NOT_FOUND', message: `application ${applicationId} not found` });
    for (const query of ['&channel=nightly', '&platform=any', '&arch=x86_64', '&page=0', '&pageSize=101', '&version=1.0.0']) {
      expect((await list(query)).status, query).to.equal(400);
    }
    expect((await app.http.get('/v1/downloads/releases', { key: alice.apiKey })).status).to.equal(400);
    expect((await app.http.get(`/v1/downloads/releases?applicationId=${applicationId}`)).status).to.equal(403);
    expect((await app.http.get(`/v1/downloads/releases?applicationId=${applicationId}`, { key: null })).status).to.equal(401);
  });
});
