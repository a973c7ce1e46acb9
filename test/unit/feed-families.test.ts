import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import { parse as parseYaml } from 'yaml';
import { versionOrderKey } from '../../shared/releases/version-order';
import type { OfferedRelease, ReleaseFile } from '../../shared/contract/releases';
import type { FileRecord } from '../../shared/store/models';
import { matchesIfNoneMatch, storedDocument } from '../../gateway/http/stored-document';
import { isPending, type Eventually } from '../../gateway/http/eventually';
import type { FeedDocument, FeedFamily, FeedLinks, FeedRequest, FeedSources } from '../../gateway/updates/engine/feed-family';
import { electronChannelFile } from '../../gateway/updates/electron/electron-family';
import { tauriCheck } from '../../gateway/updates/tauri/tauri-family';
import { sparkleAppcastFeed } from '../../gateway/updates/sparkle/sparkle-family';
import { velopackReleaseFeed } from '../../gateway/updates/velopack/velopack-family';
import { releasesFeed } from '../../gateway/updates/squirrel-windows/releases-family';
import { squirrelMacPick } from '../../gateway/updates/squirrel-mac/squirrel-mac-family';
import { file, version } from '../support/records';

/** A release as the catalogue offers it: frozen records, files oldest first. */
const release = (name: string, files: Partial<FileRecord>[], overrides: Parameters<typeof version>[2] = {}): OfferedRelease =>
  Object.freeze({ version: version('app_1', name, overrides), files: files.map((f, i) => file(`${name}-${i}`, { version: name, ...f }) as ReleaseFile) });

const running = (name: string) => ({ version: name, orderKey: versionOrderKey(name) });
const links: FeedLinks = { base: 'https://dl.example/t/tok%2B1' };

/** Sources a pure family reads: every call counted, nothing from outside unless given. */
function sources(given: Partial<FeedSources> = {}): FeedSources & { rollbacks: string[] } {
  const rollbacks: string[] = [];
  return {
    rollbacks,
    rollback: (runningVersion) => {
      rollbacks.push(runningVersion);
      return given.rollback ? given.rollback(runningVersion) : null;
    },
    signature: given.signature ?? ((f) => `sig-of-${f.fileName}`),
    versions: given.versions ?? (() => undefined),
    grant: given.grant ?? (() => { throw new Error('no grant expected'); }),
  };
}

async function answer<Q extends FeedRequest, P>(family: FeedFamily<Q, P>, offered: readonly OfferedRelease[], request: Q, from = sources()): Promise<FeedDocument> {
  const settle = async <T>(value: Eventually<T>): Promise<T> => (isPending(value) ? await value : value);
  return settle(family.document(await settle(family.pick(offered, request, from)), links, request));
}

const digested = (fileName: string, platform: FileRecord['platform'], arch: FileRecord['arch'], extra: Partial<FileRecord> = {}): Partial<FileRecord> =>
  ({ fileName, fileType: 'MAIN', platform, arch, sha512: `sha512-${fileName}`, fileSize: 100, ...extra });

describe('feed families (pure pick and document)', () => {
  describe('electron-updater', () => {
    const request = (platform: 'windows' | 'linux', arch: 'x64' | null) =>
      ({ applicationId: 'app_1', fileName: 'latest.yml', file: { channel: 'stable', platform, arch }, installId: null, appVersion: undefined });

    it('picks the newest SemVer release with a digested file and lists its files with relative links', async () => {
      const offered = [
        release('not-semver', [digested('a.exe', 'windows', 'x64')]),
        release('2.0.0', [digested('b.exe', 'windows', 'x64', { sha512: null })]),
        release('1.5.0+b', [digested('App Setup.exe', 'windows', 'x64'), digested('arm.exe', 'windows', 'arm64')]),
      ];
      const document = await answer(electronChannelFile, offered, request('windows', null));
      expect(document).to.include({ contentType: 'text/yaml; charset=utf-8', offeredVersion: '1.5.0+b' });
      const info = parseYaml(document.body.toString());
      expect(info.files.map((f: { url: string }) => f.url)).to.deep.equal(['1.5.0%2Bb/App%20Setup.exe', '1.5.0%2Bb/arm.exe']);
      expect(info).to.include({ version: '1.5.0+b', path: '1.5.0%2Bb/App%20Setup.exe', sha512: 'sha512-App Setup.exe' });
    });

    it('is a 404 when no release has a file for the target, and its key holds no caller', async () => {
      const error = await answer(electronChannelFile, [release('1.0.0', [digested('a.exe', 'windows', 'x64')])], request('linux', 'x64')).catch((e: Error) => e);
      expect(error).to.have.property('status', 404);
      expect(electronChannelFile.key(request('linux', 'x64'), links)).to.equal(electronChannelFile.key(request('linux', 'x64'), { base: 'https://other' }));
    });
  });

  describe('Tauri', () => {
    const signed = (name: string) => release(name, [
      { fileName: 'app.tar.gz', fileType: 'MAIN', platform: 'macos', arch: 'arm64' },
      { fileName: 'app.tar.gz.sig', fileType: 'SIGNATURE', platform: 'macos', arch: 'arm64' },
    ]);
    const check = (runningVersion: string) => ({ applicationId: 'app_1', platform: 'macos' as const, arch: 'arm64' as const, channel: 'stable', running: running(runningVersion) });

    it('answers the newest signed release with its link under the caller base and the signature text', async () => {
      const document = await answer(tauriCheck, [signed('1.2.0')], check('1.0.0'));
      expect(document.offeredVersion).to.equal('1.2.0');
      expect(JSON.parse(document.body.toString())).to.include({
        version: '1.2.0', url: 'https://dl.example/t/tok%2B1/v1/updates/app_1/electron/1.2.0/app.tar.gz', signature: 'sig-of-app.tar.gz.sig',
      });
    });

    it('is 204 when up to date, after asking for a rollback of the running version; a rollback given is answered', async () => {
      const none = sources();
      expect(await answer(tauriCheck, [signed('1.2.0')], check('1.2.0'), none)).to.include({ status: 204, offeredVersion: null });
      expect(none.rollbacks).to.deep.equal(['1.2.0']);
      const back = signed('1.1.0');
      const document = await answer(tauriCheck, [back], check('1.3.0'), sources({ rollback: () => back }));
      expect(document.offeredVersion).to.equal('1.1.0');
      expect(tauriCheck.key(check('1.0.0'), links)).not.to.equal(tauriCheck.key(check('1.1.0'), links));
    });

    it('offers no release whose signature no longer verifies', async () => {
      const broken = release('1.2.0', [
        { fileName: 'app.tar.gz', fileType: 'MAIN', platform: 'macos', arch: 'arm64' },
        { fileName: 'app.tar.gz.sig', fileType: 'SIGNATURE', platform: 'macos', arch: 'arm64', signatureProblem: 'does not verify' },
      ]);
      expect(await answer(tauriCheck, [broken], check('1.0.0'))).to.include({ status: 204 });
    });
  });

  describe('Squirrel.Mac', () => {
    it('picks the newest .zip for the arch when newer than the running version, else asks for a rollback', () => {
      const zip = release('2.0.0', [{ fileName: 'App-2.0.0-arm64-mac.zip', fileType: 'MAIN', platform: 'macos', arch: 'arm64' }]);
      const request = (runningVersion: string) => ({ applicationId: 'app_1', arch: 'arm64' as const, channel: 'stable', running: running(runningVersion) });
      expect(squirrelMacPick([zip], request('1.0.0'), sources())).to.deep.include({ release: zip });
      const from = sources();
      expect(squirrelMacPick([zip], request('2.0.0'), from)).to.equal(null);
      expect(from.rollbacks).to.deep.equal(['2.0.0']);
    });
  });

  describe('Sparkle', () => {
    const signature = Buffer.alloc(64, 7).toString('base64');
    const offered = [release('2.0', [
      { fileName: 'App.zip', fileType: 'MAIN', platform: 'macos', arch: 'universal', fileSize: 10 },
      { fileName: 'App.zip.sig', fileType: 'SIGNATURE', platform: 'macos', arch: 'universal' },
      { fileName: 'App2.0-1.9.delta', fileType: 'UPDATE', platform: 'macos', arch: 'universal' },
      { fileName: 'App2.0-1.9.delta.sig', fileType: 'SIGNATURE', platform: 'macos', arch: 'universal' },
    ], { bundleVersion: '200' }), release('1.0', [{ fileName: 'Old.zip', fileType: 'MAIN', platform: 'macos', arch: 'universal' }])];
    const request = { applicationId: 'app_1', channel: 'stable', system: 'macos' as const, userAgentVersion: '150' };

    it('lists signed archives with their signed deltas under the caller base, and leaves unsigned releases out', async () => {
      const document = await answer(sparkleAppcastFeed, offered, request, sources({ signature: () => signature }));
      expect(document).to.include({ contentType: 'application/rss+xml; charset=utf-8', offeredVersion: '2.0' });
      const channel = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(document.body.toString()).rss.channel;
      expect(channel.link).to.equal('https://dl.example/t/tok%2B1/v1/updates/app_1/sparkle/stable/appcast.xml');
      expect(channel.item.enclosure).to.include({ url: 'https://dl.example/t/tok%2B1/v1/updates/app_1/electron/2.0/App.zip', 'sparkle:edSignature': signature });
      expect(channel.item['sparkle:deltas'].enclosure).to.include({ 'sparkle:deltaFrom': '1.9' });
      expect(sparkleAppcastFeed.check(request, { offeredVersion: '2.0' })).to.include({ runningVersion: '150', arch: 'universal' });
    });

    it('offers nothing when no signature decodes', async () => {
      expect(await answer(sparkleAppcastFeed, offered, request, sources({ signature: () => 'not a signature' }))).to.include({ offeredVersion: null });
    });
  });

  describe('Squirrel.Windows and Velopack', () => {
    const nupkg = (name: string, kind: 'full' | 'delta') =>
      ({ fileName: `App-${name}-${kind}.nupkg`, fileType: 'MAIN' as const, platform: 'windows' as const, arch: 'x64' as const, sha1: 'ab'.repeat(20), fileSize: 42 });
    const offered = [release('1.1.0', [nupkg('1.1.0', 'full'), nupkg('1.1.0', 'delta')]), release('1.0.0', [nupkg('1.0.0', 'full')])];
    const target = { channel: 'stable', platform: 'windows' as const, packageId: 'App' };

    it('RELEASES lists the delta chain then the full package, with links under the caller base beside the feed', async () => {
      const versions = () => offered.map((entry) => ({ ...entry.version, files: [] }));
      const request = { applicationId: 'app_1', client: 'squirrel-windows' as const, target, running: running('1.0.0'), feedPath: '/v1/updates/app_1/squirrel-windows/stable' };
      const document = await answer(releasesFeed, offered, request, sources({ versions }));
      expect(document.body.toString().split('\n')).to.deep.equal([
        `${'AB'.repeat(20)} https://dl.example/t/tok%2B1/v1/updates/app_1/squirrel-windows/stable/App-1.1.0-delta.nupkg 42`,
        `${'AB'.repeat(20)} https://dl.example/t/tok%2B1/v1/updates/app_1/squirrel-windows/stable/App-1.1.0-full.nupkg 42`,
      ]);
      expect(document).to.include({ offeredVersion: '1.1.0', platform: 'windows', arch: 'x64' });
      expect(document.perCaller).to.equal(undefined);
    });

    it("RELEASES with nothing offered is the client's own package, made for this caller alone, or a 404", async () => {
      const request = { applicationId: 'app_1', client: 'velopack' as const, target, running: running('0.9.0'), feedPath: '/v1/updates/app_1/velopack' };
      const own = file('own', { fileName: 'App-0.9.0-full.nupkg', version: '0.9.0', sha1: 'cd'.repeat(20), fileSize: 7 });
      const document = await answer(releasesFeed, [], request, sources({ grant: () => ({ file: own }) as never }));
      expect(document).to.include({ offeredVersion: null, perCaller: true });
      expect(document.body.toString()).to.equal(`${'CD'.repeat(20)} https://dl.example/t/tok%2B1/v1/updates/app_1/velopack/App-0.9.0-full.nupkg 7`);
      const refused = await answer(releasesFeed, [], { ...request, running: undefined }).catch((e: Error) => e);
      expect(refused).to.have.property('status', 404);
    });

    it("Velopack's feed is an empty list with nothing offered, and the full package alone for an unknown running version", async () => {
      const request = { applicationId: 'app_1', target, running: running('0.5.0') };
      expect(JSON.parse((await answer(velopackReleaseFeed, [], request)).body.toString())).to.deep.equal({ Assets: [] });
      const feed = JSON.parse((await answer(velopackReleaseFeed, offered, request)).body.toString());
      expect(feed.Assets.map((asset: { FileName: string }) => asset.FileName)).to.deep.equal(['App-1.1.0-full.nupkg']);
    });
  });

  describe('stored documents and If-None-Match', () => {
    it('names a document by its bytes, and matches a list, a weak tag and *', () => {
      const one = storedDocument('text/plain', Buffer.from('a'));
      expect(one.etag).to.match(/^"[A-Za-z0-9_-]{27}"$/);
      expect(storedDocument('text/plain', Buffer.from('a')).etag).to.equal(one.etag);
      expect(storedDocument('text/plain', Buffer.from('b')).etag).not.to.equal(one.etag);
      expect(matchesIfNoneMatch(one.etag, one.etag)).to.equal(true);
      expect(matchesIfNoneMatch(`"x", W/${one.etag}`, one.etag)).to.equal(true);
      expect(matchesIfNoneMatch('*', one.etag)).to.equal(true);
      expect(matchesIfNoneMatch('"x", "y"', one.etag)).to.equal(false);
      expect(matchesIfNoneMatch('', one.etag)).to.equal(false);
    });
  });
});
