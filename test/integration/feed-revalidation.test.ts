import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { rollupChecks } from '../../shared/adoption/rollup-checks';
import { ALL } from '../../shared/store/models';
import { electronUpdateClient } from '../support/electron-updater-client';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { startTestApp, TestApp } from '../support/test-app';

const today = () => new Date().toISOString().slice(0, 10);

/**
 * A feed's answer carries an ETag made from its bytes; a check whose If-None-Match names it is
 * answered 304 with no body and still counted as an answered check; a change of the offered releases
 * changes the answer and its ETag.
 */
describe('update feeds revalidated with If-None-Match', function () {
  this.timeout(120_000);
  let app: TestApp;
  let redis: IORedis;
  let applicationId: string;
  let apiKey: string;
  const feed = () => `${app.baseUrl}/v1/updates/${applicationId}`;
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(`${feed()}/${path}`, { method, headers: { Authorization: `Bearer ${apiKey}`, 'User-Agent': 'App/100 Sparkle/2.6.4', ...headers } });
  const checksCounted = async () => {
    while ((await rollupChecks(app.core.store, redis, app.config.redisPrefix, 1_000)) > 0);
    const [all] = await app.core.store.adoption.listAdoptionCounts(applicationId, { channel: ALL, platform: ALL, arch: ALL, from: today(), to: today() });
    return all?.checks ?? 0;
  };

  before(async () => {
    app = await startTestApp({ workers: false });
    redis = new IORedis(app.config.redisUrl as string);
    const customer = await createCustomer(app);
    apiKey = customer.apiKey;
    ({ applicationId } = await createApplication(app, { customerIds: [customer.customerId] }));
    await uploadSmallFile(app, { applicationId, version: '1.0.0', content: randomBytes(2_000), fileName: 'app_1.0.0_amd64.deb', platform: 'linux', arch: 'x64' });
    // A Windows release is offered with its installer (MAIN); the package beside it is what the clients update from.
    await uploadSmallFile(app, { applicationId, version: '1.0.0', fileName: 'Setup.exe', platform: 'windows', arch: 'x64' });
    await uploadSmallFile(app, { applicationId, version: '1.0.0', content: randomBytes(1_000), fileName: 'App-1.0.0-full.nupkg', platform: 'windows', arch: 'x64' });
  });
  after(async () => {
    redis.disconnect();
    await app.close();
  });

  const feeds = ['electron/latest-linux.yml', 'velopack/releases.win.json?id=App', 'squirrel-windows/RELEASES?id=App', 'sparkle/stable/appcast.xml'];

  it('answers 304 without a body to a matching If-None-Match (a list or a weak tag too), counting every answered check', async () => {
    const before = await checksCounted();
    for (const path of feeds) {
      const first = await get(path);
      expect(first.status, path).to.equal(200);
      const body = await first.text();
      expect(body, path).to.match(/1\.0\.0|<rss/);
      const etag = first.headers.get('etag') as string;
      expect(etag, path).to.match(/^"[A-Za-z0-9_-]{27}"$/);
      expect(first.headers.get('cache-control'), path).to.equal('no-store');
      for (const condition of [etag, `"other", W/${etag}`]) {
        const again = await get(path, { 'If-None-Match': condition });
        expect(again.status, `${path} ${condition}`).to.equal(304);
        expect(again.headers.get('etag'), path).to.equal(etag);
        expect(again.headers.get('cache-control'), path).to.equal('no-store');
        expect(await again.text(), path).to.equal('');
      }
      const other = await get(path, { 'If-None-Match': '"not-this-one"' });
      expect(other.status, path).to.equal(200);
      expect(await other.text(), path).to.equal(body);
      // A HEAD revalidates as well, and records nothing.
      expect((await get(path, { 'If-None-Match': etag }, 'HEAD')).status, path).to.equal(304);
    }
    // Four answers per feed (200, two 304s, 200); the HEADs are no checks.
    await pollUntil(async () => ((await checksCounted()) === before + feeds.length * 4 ? true : undefined), 20_000, 'every GET counted, 304s included');
  });

  it('answers the new document with a new ETag once the offered releases change, and 404s stay 404 whatever the header', async () => {
    const path = 'electron/latest-linux.yml';
    const first = await get(path);
    const etag = first.headers.get('etag') as string;
    await uploadSmallFile(app, { applicationId, version: '1.1.0', content: randomBytes(2_000), fileName: 'app_1.1.0_amd64.deb', platform: 'linux', arch: 'x64' });
    const changed = await pollUntil<Response>(async () => {
      const response = await get(path, { 'If-None-Match': etag });
      return response.status === 200 ? response : undefined;
    }, 10_000, 'the changed channel file');
    expect(await changed.text()).to.include('version: 1.1.0');
    expect(changed.headers.get('etag')).not.to.equal(etag);
    const missing = await get('electron/latest-mac.yml', { 'If-None-Match': '*' });
    expect(missing.status).to.equal(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).to.equal('NOT_FOUND');
  });

  it('electron-updater, which sends no If-None-Match (its HTTP executor sets Cache-Control: no-cache), is answered the channel file on every check', async () => {
    const client = await electronUpdateClient({ feedUrl: `${feed()}/electron`, version: '1.0.0', platform: 'linux', authorization: `Bearer ${apiKey}` });
    try {
      expect((await client.check())?.updateInfo.version).to.equal('1.1.0');
      expect((await client.check())?.updateInfo.version).to.equal('1.1.0');
    } finally {
      await client.close();
    }
  });
});
