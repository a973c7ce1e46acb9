import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import type { VelopackAsset as VelopackClientAsset } from 'velopack/lib/bindings/VelopackAsset';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { createBucket } from '../support/s3-bucket';
import { s3Environment, S3rverProcess, startS3rver } from '../support/s3rver';
import { startTestApp, TestApp } from '../support/test-app';

/** Squirrel.Windows' ReleaseEntry.cs, verbatim: what each RELEASES line must match, and how it reads a URL's last segment. */
const ENTRY = /^([0-9a-fA-F]{40})\s+(\S+)\s+(\d+)[\r]*$/;

interface ReleasesLine {
  sha1: string;
  url: URL;
  fileName: string;
  size: number;
}

/** RELEASES as ReleaseEntry.ParseReleaseFile reads it: non-blank lines, each an entry whose URL's last path segment is the file name. */
function parseReleases(text: string): ReleasesLine[] {
  return text.split('\n').filter((line) => line.trim() !== '').map((line) => {
    const match = ENTRY.exec(line);
    if (!match) throw new Error(`Invalid release entry: ${line}`);
    const url = new URL(match[2]);
    return { sha1: match[1], url, fileName: decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf('/') + 1)), size: Number(match[3]) };
  });
}

const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

type VelopackAsset = Omit<VelopackClientAsset, 'Size'> & { Size: number };

/**
 * Velopack's own model of an asset (its Node binding's VelopackAsset, generated from manager.rs):
 * every field, and how serde reads each from JSON (strings; Size a u64, a whole JSON number).
 * Velopack's native client needs glibc 2.39, so on older hosts the feed is held to its model here.
 */
const VELOPACK_ASSET_FIELDS: Record<keyof VelopackClientAsset, 'string' | 'u64'> = {
  PackageId: 'string', Version: 'string', Type: 'string', FileName: 'string', SHA1: 'string', SHA256: 'string',
  Size: 'u64', NotesMarkdown: 'string', NotesHtml: 'string',
};

function expectVelopackAsset(asset: Record<string, unknown>): void {
  expect(Object.keys(asset).sort()).to.deep.equal(Object.keys(VELOPACK_ASSET_FIELDS).sort());
  for (const [field, kind] of Object.entries(VELOPACK_ASSET_FIELDS)) {
    if (kind === 'string') expect(asset[field], field).to.be.a('string');
    else expect(Number.isSafeInteger(asset[field]) && (asset[field] as number) >= 0, field).to.equal(true);
  }
  expect(asset.Type).to.be.oneOf(['Full', 'Delta']);
  // Velopack compares versions as SemVer (Rust's semver crate): no leading v.
  expect(asset.Version).to.match(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/);
}

for (const storage of ['embedded store', 'S3'] as const) {
  describe(`Squirrel.Windows and Velopack feeds (${storage})`, function () {
    this.timeout(60_000);
    let app: TestApp;
    let s3: S3rverProcess | undefined;

    before(async () => {
      if (storage === 'S3') s3 = await startS3rver();
      app = await startTestApp({ workers: false, env: s3 ? s3Environment(s3, 'package-feeds') : {} });
      if (app.config.s3) await createBucket(app.config.s3);
    });
    after(async () => {
      await app.close();
      await s3?.stop();
    });

    /** Three Windows releases as a vendor uploads them: the installer (MAIN), the full package and, after the first, the delta (by their names, UPDATE). */
    async function windowsReleases(versions = ['1.0.0', '1.1.0', '1.2.0'], extra: { releaseNotes?: string } = {}) {
      const { applicationId } = await createApplication(app);
      const customer = await createCustomer(app);
      expect((await app.http.patch(`/v1/management/applications/${applicationId}`, { customerIds: [customer.customerId] })).status).to.equal(200);
      const bytes = new Map<string, Buffer>();
      for (const [i, version] of versions.entries()) {
        const names = [`MyApp-${version}-full.nupkg`, ...(i > 0 ? [`MyApp-${version}-delta.nupkg`] : [])];
        await uploadSmallFile(app, { applicationId, version, fileName: 'Setup.exe', platform: 'windows', arch: 'x64' });
        if (extra.releaseNotes) await app.http.patch(`/v1/management/applications/${applicationId}/versions/${version}`, { releaseNotes: extra.releaseNotes });
        for (const fileName of names) {
          const content = randomBytes(fileName.includes('delta') ? 3_000 : 20_000);
          const uploaded = await uploadSmallFile(app, { applicationId, version, fileName, platform: 'windows', content });
          expect(uploaded).to.include({ fileName, fileType: 'UPDATE' });
          bytes.set(fileName, content);
        }
      }
      return { applicationId, customer, bytes, headers: { authorization: `Bearer ${customer.apiKey}` } };
    }

    const feedUrl = (applicationId: string, feed: string) => `${app.baseUrl}/v1/updates/${applicationId}/${feed}`;

    /** What a client does with a listed URL: follow the service's 302 to the object store, and hash what it downloads. */
    async function download(url: URL, headers: Record<string, string>): Promise<Buffer> {
      const redirect = await fetch(url, { headers, redirect: 'manual' });
      expect(redirect.status, url.href).to.equal(302);
      expect(redirect.headers.get('cache-control')).to.equal('no-store');
      const object = await fetch(redirect.headers.get('location') as string);
      expect(object.status).to.equal(200);
      return Buffer.from(await object.arrayBuffer());
    }

    describe('Squirrel.Windows', () => {
      it('lists the newest full package at the first install, with absolute links whose bytes have the listed SHA-1 and size, each download recorded', async () => {
        const { applicationId, bytes, headers } = await windowsReleases();
        const res = await fetch(`${feedUrl(applicationId, 'squirrel-windows')}/RELEASES`, { headers });
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
        expect(res.headers.get('cache-control')).to.equal('no-store');
        const lines = parseReleases(await res.text());
        expect(lines.map((line) => line.fileName)).to.deep.equal(['MyApp-1.2.0-full.nupkg']);
        const [full] = lines;
        // Absolute, on the service's public base URL.
        expect(full.url.href).to.equal(`${app.config.publicBaseUrl}/v1/updates/${applicationId}/squirrel-windows/stable/MyApp-1.2.0-full.nupkg`);
        const downloaded = await download(full.url, headers);
        expect(sha1(downloaded)).to.equal(full.sha1.toLowerCase());
        expect(downloaded.length).to.equal(full.size);
        expect(downloaded.equals(bytes.get('MyApp-1.2.0-full.nupkg') as Buffer)).to.equal(true);
        await pollUntil(async () => {
          const activity = await app.http.get(`/v1/activity?type=download&applicationId=${applicationId}`);
          return activity.body.data.activities.length === 1 ? true : undefined;
        }, 10_000, 'the download event');
        // A HEAD or a ranged GET downloads nothing: still one event.
        expect((await fetch(full.url, { method: 'HEAD', headers, redirect: 'manual' })).status).to.equal(302);
        const ranged = await fetch(full.url, { headers: { ...headers, range: 'bytes=0-9' }, redirect: 'manual' });
        expect(ranged.status).to.equal(206);
        expect(Buffer.from(await ranged.arrayBuffer()).equals((bytes.get('MyApp-1.2.0-full.nupkg') as Buffer).subarray(0, 10))).to.equal(true);
        expect((await app.http.get(`/v1/activity?type=download&applicationId=${applicationId}`)).body.data.activities).to.have.length(1);
      });

      it("lists the delta chain from the client's version before the full package, and the full package alone when a delta is missing or a version lies between", async () => {
        const { applicationId, bytes, headers } = await windowsReleases();
        const releases = async (query: string, feed = 'squirrel-windows/stable') => {
          const res = await fetch(`${feedUrl(applicationId, feed)}/RELEASES?${query}`, { headers });
          expect(res.status, query).to.equal(200);
          return parseReleases(await res.text());
        };
        const chain = await releases('id=MyApp&localVersion=1.0.0&arch=amd64');
        expect(chain.map((line) => line.fileName)).to.deep.equal(['MyApp-1.1.0-delta.nupkg', 'MyApp-1.2.0-delta.nupkg', 'MyApp-1.2.0-full.nupkg']);
        for (const line of chain) {
          const downloaded = await download(line.url, headers);
          expect(sha1(downloaded), line.fileName).to.equal(line.sha1.toLowerCase());
          expect(downloaded.equals(bytes.get(line.fileName) as Buffer)).to.equal(true);
        }
        expect((await releases('id=MyApp&localVersion=1.1.0&arch=amd64')).map((line) => line.fileName)).to.deep.equal(['MyApp-1.2.0-delta.nupkg', 'MyApp-1.2.0-full.nupkg']);
        // 32-bit Windows: no installer for ia32 is offered, so the client is told its own version (no update).
        expect((await releases('id=MyApp&localVersion=1.1.0&arch=x86')).map((line) => line.fileName)).to.deep.equal(['MyApp-1.1.0-full.nupkg']);
        // Up to date: its own version's full entry, which Squirrel reads as "no update".
        expect((await releases('id=MyApp&localVersion=1.2.0&arch=amd64')).map((line) => line.fileName)).to.deep.equal(['MyApp-1.2.0-full.nupkg']);
        // A version the service does not know: the full package.
        expect((await releases('id=MyApp&localVersion=0.9.0&arch=amd64')).map((line) => line.fileName)).to.deep.equal(['MyApp-1.2.0-full.nupkg']);
        // Another package id lists nothing of MyApp: no build.
        expect((await fetch(`${feedUrl(applicationId, 'squirrel-windows')}/RELEASES?id=Other&localVersion=1.0.0`, { headers })).status).to.equal(404);

        // 1.1.0 yanked: its delta is gone from the chain, and 1.2.0's delta was built against it, so 1.0.0 takes the full package.
        expect((await app.http.patch(`/v1/management/applications/${applicationId}/versions/1.1.0`, { status: 'yanked' })).status).to.equal(200);
        expect((await releases('id=MyApp&localVersion=1.0.0')).map((line) => line.fileName)).to.deep.equal(['MyApp-1.2.0-full.nupkg']);
        expect((await fetch(`${feedUrl(applicationId, 'squirrel-windows')}/stable/MyApp-1.1.0-full.nupkg`, { headers, redirect: 'manual' })).status, 'a yanked package').to.equal(410);
      });

      it('answers the client installed on a version no longer offered with its own full entry, and 404 with no build at all', async () => {
        const { applicationId, headers } = await windowsReleases(['1.0.0']);
        await app.http.patch(`/v1/management/applications/${applicationId}/versions/1.0.0`, { rolloutPercentage: 1 });
        const res = await fetch(`${feedUrl(applicationId, 'squirrel-windows')}/RELEASES?id=MyApp&localVersion=1.0.0&arch=amd64`, { headers });
        // Left out of the rollout (almost every customer is at 1%), or offered it: either way its own version's full entry.
        expect(res.status).to.equal(200);
        expect(parseReleases(await res.text()).map((line) => line.fileName)).to.deep.equal(['MyApp-1.0.0-full.nupkg']);

        const empty = await createApplication(app);
        await app.http.patch(`/v1/management/applications/${empty.applicationId}`, { customerIds: [(await app.http.get(`/v1/management/applications/${applicationId}`)).body.data.customerIds[0]] });
        for (const query of ['', '?id=MyApp&localVersion=1.0.0&arch=amd64']) {
          const none = await fetch(`${feedUrl(empty.applicationId, 'squirrel-windows')}/RELEASES${query}`, { headers });
          expect([none.status, none.headers.get('cache-control')], query).to.deep.equal([404, 'no-store']);
        }
      });
    });

    describe('Velopack', () => {
      it('answers releases.{channel}.json as Velopack reads it, with sanitized notes, and packages at {feed}/{FileName}', async () => {
        const notes = '## Fixes\n\n- **faster** start\n\n<script>alert(1)</script><img src=x onerror=alert(1)>\n\n[site](https://example.com) [bad](javascript:alert(1))';
        const { applicationId, bytes, headers } = await windowsReleases(['1.0.0', '1.1.0'], { releaseNotes: notes });
        const res = await fetch(`${feedUrl(applicationId, 'velopack')}/releases.win.json?localVersion=1.0.0&id=MyApp&stagingId=0a1b`, { headers });
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
        expect(res.headers.get('cache-control')).to.equal('no-store');
        const feed = await res.json() as { Assets: VelopackAsset[] };
        expect(feed.Assets.map((asset) => [asset.Type, asset.FileName, asset.Version, asset.PackageId])).to.deep.equal([
          ['Delta', 'MyApp-1.1.0-delta.nupkg', '1.1.0', 'MyApp'],
          ['Full', 'MyApp-1.1.0-full.nupkg', '1.1.0', 'MyApp'],
        ]);
        for (const asset of feed.Assets) {
          expectVelopackAsset(asset as unknown as Record<string, unknown>);
          const content = bytes.get(asset.FileName) as Buffer;
          expect(asset).to.deep.include({ SHA1: sha1(content).toUpperCase(), SHA256: createHash('sha256').update(content).digest('hex'), Size: content.length, NotesMarkdown: notes });
          // What Velopack's HttpSource downloads: the feed URL joined with the file name.
          const downloaded = await download(new URL(asset.FileName, `${feedUrl(applicationId, 'velopack')}/`), headers);
          expect(sha1(downloaded).toUpperCase()).to.equal(asset.SHA1);
        }
        const html = feed.Assets[0].NotesHtml;
        expect(html).to.include('<h2>Fixes</h2>').and.include('<strong>faster</strong>').and.include('href="https://example.com"');
        expect(html).not.to.match(/<script|<img|onerror|javascript:/i);

        const first = await (await fetch(`${feedUrl(applicationId, 'velopack')}/releases.win.json`, { headers })).json() as { Assets: VelopackAsset[] };
        expect(first.Assets.map((asset) => asset.FileName), 'no local version: the full package').to.deep.equal(['MyApp-1.1.0-full.nupkg']);
        const legacy = parseReleases(await (await fetch(`${feedUrl(applicationId, 'velopack')}/RELEASES?id=MyApp&localVersion=1.0.0`, { headers })).text());
        const velopackBase = `${app.config.publicBaseUrl}/v1/updates/${applicationId}/velopack`;
        expect(legacy.map((line) => line.url.href)).to.deep.equal([`${velopackBase}/MyApp-1.1.0-delta.nupkg`, `${velopackBase}/MyApp-1.1.0-full.nupkg`]);
        // No build for the OS: an empty feed, which Velopack reads as no update.
        const linux = await fetch(`${feedUrl(applicationId, 'velopack')}/releases.linux.json`, { headers });
        expect([linux.status, await linux.json()]).to.deep.equal([200, { Assets: [] }]);
      });
    });

    describe('every package feed', () => {
      it('refuses as the other feeds do: no key or a wrong one 401, inactive 403, no access or unknown application 404, all no-store', async () => {
        const { applicationId, headers } = await windowsReleases(['1.0.0']);
        const other = await createCustomer(app);
        const inactive = await createCustomer(app);
        await app.http.patch(`/v1/management/applications/${applicationId}`, { customerIds: [(await app.http.get(`/v1/management/applications/${applicationId}`)).body.data.customerIds[0], inactive.customerId] });
        await app.http.patch(`/v1/management/customers/${inactive.customerId}`, { isActive: false });
        const paths = (id: string) => [
          `${feedUrl(id, 'squirrel-windows')}/RELEASES`, `${feedUrl(id, 'squirrel-windows')}/beta/RELEASES`, `${feedUrl(id, 'squirrel-windows')}/stable/MyApp-1.0.0-full.nupkg`,
          `${feedUrl(id, 'velopack')}/releases.win.json`, `${feedUrl(id, 'velopack')}/RELEASES`, `${feedUrl(id, 'velopack')}/RELEASES-win`, `${feedUrl(id, 'velopack')}/MyApp-1.0.0-full.nupkg`,
        ];
        const statusOf = async (url: string, requestHeaders: Record<string, string>) => {
          const res = await fetch(url, { headers: requestHeaders, redirect: 'manual' });
          return [res.status, res.headers.get('cache-control')];
        };
        for (const url of paths(applicationId)) {
          expect(await statusOf(url, headers), url).to.deep.equal([url.endsWith('.nupkg') ? 302 : 200, 'no-store']);
          expect(await statusOf(url, {}), url).to.deep.equal([401, 'no-store']);
          expect(await statusOf(url, { authorization: 'Bearer nope.nope' }), url).to.deep.equal([401, 'no-store']);
          expect(await statusOf(url, { authorization: `Bearer ${inactive.apiKey}` }), url).to.deep.equal([403, 'no-store']);
          expect(await statusOf(url, { authorization: `Bearer ${other.apiKey}` }), url).to.deep.equal([404, 'no-store']);
        }
        for (const url of paths('no-such-app')) expect(await statusOf(url, headers), url).to.deep.equal([404, 'no-store']);
        for (const url of [`${feedUrl(applicationId, 'squirrel-windows')}/nightly/RELEASES`, `${feedUrl(applicationId, 'velopack')}/releases.nightly.json`,
          `${feedUrl(applicationId, 'velopack')}/Setup.exe`, `${feedUrl(applicationId, 'velopack')}/MyApp-9.0.0-full.nupkg`]) {
          expect(await statusOf(url, headers), url).to.deep.equal([404, 'no-store']);
        }
        expect(await statusOf(`${feedUrl(applicationId, 'squirrel-windows')}/RELEASES?arch=arm64`, headers)).to.deep.equal([400, 'no-store']);
      });

      it('answers a feed spelled as declared (the hot lane, a param inside its segment included) as the router answers other spellings', async () => {
        const { applicationId, headers } = await windowsReleases(['1.0.0', '1.1.0']);
        const velopack = feedUrl(applicationId, 'velopack');
        const pairs = [
          [`${velopack}/releases.win.json?localVersion=1.0.0`, `${velopack}/releases.%77in.json?localVersion=1.0.0`],
          [`${velopack}/RELEASES-win?localVersion=1.0.0&id=MyApp`, `${velopack}/RELEASES-%77in?localVersion=1.0.0&id=MyApp`],
          [`${feedUrl(applicationId, 'squirrel-windows')}/stable/RELEASES`, `${feedUrl(applicationId, 'squirrel-windows')}/%73table/RELEASES`],
        ];
        for (const [hot, routed] of pairs) {
          const [a, b] = await Promise.all([hot, routed].map(async (url) => {
            const res = await fetch(url, { headers });
            return [res.status, res.headers.get('content-type'), await res.text()];
          }));
          expect(a[0], hot).to.equal(200);
          expect(a, hot).to.deep.equal(b);
        }
      });

      it('takes NuGet packages declared UPDATE on any platform, and refuses any other UPDATE file that is not a macOS .zip', async () => {
        const { applicationId } = await createApplication(app);
        const large = (fields: Record<string, unknown>) => app.http.post('/v1/management/upload/large-url', { applicationId, version: '2.0.0', fileSize: 10, ...fields });
        expect((await large({ fileName: 'MyApp-2.0.0-full.nupkg', fileType: 'UPDATE', platform: 'windows' })).status).to.equal(201);
        expect((await large({ fileName: 'MyApp-2.0.0-linux-delta.nupkg', fileType: 'UPDATE', platform: 'linux', arch: 'x64' })).status).to.equal(201);
        const refused = await large({ fileName: 'Setup.exe', fileType: 'UPDATE', platform: 'windows' });
        expect(refused.status).to.equal(400);
        expect(refused.body.error.details[0]).to.include({ field: 'fileType' });
        const opened = await app.http.post('/v1/management/uploads/multipart', { applicationId, version: '2.0.0', fileName: 'MyApp-2.0.0-delta.nupkg', fileSize: 10, platform: 'windows' });
        expect(opened.status).to.equal(201);
        expect(await app.core.store.versions.getFile(opened.body.data.fileId)).to.include({ fileType: 'UPDATE', status: 'pending' });
      });

      it('answers as the API description says (the test client checks every answer against it)', async () => {
        const { applicationId, customer } = await windowsReleases(['1.0.0', '1.1.0']);
        const feed = `/v1/updates/${applicationId}`;
        const answers = [
          [`${feed}/squirrel-windows/RELEASES`, 200],
          [`${feed}/squirrel-windows/beta/RELEASES?id=MyApp&localVersion=1.0.0&arch=amd64`, 200],
          [`${feed}/squirrel-windows/stable/MyApp-1.1.0-delta.nupkg`, 302],
          [`${feed}/squirrel-windows/RELEASES?arch=ia64`, 400],
          [`${feed}/velopack/releases.win.json?localVersion=1.0.0&id=MyApp&stagingId=x`, 200],
          [`${feed}/velopack/releases.nightly.json`, 404],
          [`${feed}/velopack/RELEASES`, 200],
          [`${feed}/velopack/RELEASES-beta-win`, 200],
          [`${feed}/velopack/MyApp-1.1.0-full.nupkg`, 302],
        ] as const;
        for (const [path, status] of answers) {
          expect((await app.http.get(path, { key: customer.apiKey })).status, path).to.equal(status);
          expect((await app.http.request('HEAD', path, { key: customer.apiKey })).status, `HEAD ${path}`).to.equal(status);
        }
      });
    });
  });
}
